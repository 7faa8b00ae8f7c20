// A started sh as the runner sees it: its pid, its stdout and stderr on two
// pipes, a third pipe on its descriptor 3 (where the runner's sh reports the
// command's status, run/shell-status.ts), and its exit. Two modules make one:
// child-process.ts through node:child_process, and, in the standalone binary
// only, child-binding.ts through Node's process binding, which spares the
// start-up cost of node:child_process and its streams (runner.ts chooses).

// One of the child's output pipes.
export interface ChildPipe {
  // Each read goes to `onBytes` (the bytes are the reader's own buffer, valid
  // during the call only) until the pipe ends, or fails, then `onEnd` once.
  read(onBytes: (bytes: Uint8Array) => void, onEnd: () => void): void;
  // Reading stops for good, and no callback comes after.
  close(): void;
}

interface Child {
  readonly pid: number;
  readonly stdout: ChildPipe;
  readonly stderr: ChildPipe;
  readonly status: ChildPipe;
}

export interface StartRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

// Node's pair: a code and no signal, or no code and the signal that ended it.
export type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

// `started` is called before `start` returns, and what it returns hears the
// exit, once, on a later turn of the loop; or `failed` is called (at once, or
// on a later turn) with the errno code.
export interface StartEvents {
  started(child: Child): ExitListener;
  failed(code: string): void;
}

// Starts `file` with `args` as a session and group leader of its own (so one
// signal reaches every process it starts, and never our caller), stdin from
// /dev/null, stdout, stderr and descriptor 3 on pipes.
export type Start = (request: StartRequest, events: StartEvents) => void;
