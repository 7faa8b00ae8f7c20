import type { ChildPipe, ExitListener, Start, StartEvents, StartRequest } from './child.ts';

// A child started through Node's own process and pipe bindings, the layer
// under node:child_process: the same libuv spawn and the same pipes, without
// loading node:child_process, node:net and the streams, which cost a start
// of gsd-check more than everything else it does (docs/explanation/performance.md,
// "Start-up"). A pipe is read into one buffer of its own, reused for every
// read, so a flood of output leaves no garbage behind.
//
// The binding is not public: its form has changed between Node lines, and a
// call of the wrong form is a native assertion that aborts the process, not
// an error to catch; a patch that added one argument would start the child
// under the wrong user, outside its group, past its timeout. So only the
// standalone binary uses it (runner.ts chooses): its Node is the one
// runtimes/ pins, the one CI runs the binding's tests on (test:bin), and
// build-bin.mjs puts no other in it. Even there, a binding without the shape
// of that Node's form starts through node:child_process.

interface ProcessHandle {
  readonly pid: number;
  onexit: (code: number, signal: string) => void;
  spawn(...args: unknown[]): number;
  close(): void;
}

interface PipeHandle {
  onread: () => void;
  useUserBuffer(buffer: Uint8Array): void;
  readStart(): number;
  readStop(): number;
  close(): void;
}

interface Bindings {
  readonly Process: new () => ProcessHandle;
  readonly Pipe: new (type: number) => PipeHandle;
  readonly socketType: number;
  // Where a read's byte count (or negative error) is left for `onread`.
  readonly readState: Int32Array;
  readonly readIndex: number;
  // The flag that makes the child a session leader.
  readonly detachedFlag: number;
}

const READ_BUFFER = 64 * 1024;

// Node's `process.binding`, where this Node has one.
type Binding = (name: string) => unknown;
export const processBinding = (process as unknown as { binding?: Binding }).binding;

// A start through `binding` when it has the shape of the form Process#spawn
// has from Node 24 (positional arguments and a flags word); else undefined.
export function bindingStart(binding: Binding | undefined): Start | undefined {
  if (typeof binding !== 'function') return undefined;
  const bindings = loadBindings(binding);
  return bindings === undefined ? undefined : (request, events) => start(bindings, request, events);
}

function loadBindings(binding: Binding): Bindings | undefined {
  // Under --pending-deprecation process.binding warns on stderr, which is
  // part of what gsd-check answers; under the permission model it throws.
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    const processWrap = binding('process_wrap');
    const pipeWrap = binding('pipe_wrap');
    const streamWrap = binding('stream_wrap');
    const { Process, constants: processConstants } = processWrap as { Process?: unknown; constants?: { kProcessFlagDetached?: unknown } };
    const { Pipe, constants: pipeConstants } = pipeWrap as { Pipe?: unknown; constants?: { SOCKET?: unknown } };
    const { streamBaseState, kReadBytesOrError } = streamWrap as { streamBaseState?: unknown; kReadBytesOrError?: unknown };
    if (typeof Process !== 'function' || typeof Pipe !== 'function') return undefined;
    if (typeof pipeConstants?.SOCKET !== 'number' || !(streamBaseState instanceof Int32Array) || typeof kReadBytesOrError !== 'number') return undefined;
    // Before Node 24 there is no such flag, and spawn takes one options object.
    const detached = processConstants?.kProcessFlagDetached;
    if (typeof detached !== 'number') return undefined;
    return {
      Process: Process as Bindings['Process'],
      Pipe: Pipe as Bindings['Pipe'],
      socketType: pipeConstants.SOCKET,
      readState: streamBaseState,
      readIndex: kReadBytesOrError,
      detachedFlag: detached,
    };
  } catch {
    return undefined;
  } finally {
    process.noDeprecation = quiet === true;
  }
}

function start(bindings: Bindings, { file, args, cwd, env }: StartRequest, events: StartEvents): void {
  const envPairs: string[] = [];
  // As node:child_process does: NODE_V8_COVERAGE reaches the child whatever
  // its environment, so coverage of Node processes under it is collected.
  const coverage = process.env['NODE_V8_COVERAGE'];
  if (coverage && !Object.hasOwn(env, 'NODE_V8_COVERAGE')) envPairs.push(`NODE_V8_COVERAGE=${coverage}`);
  for (const [name, value] of Object.entries(env)) if (value !== undefined) envPairs.push(`${name}=${value}`);
  const argv = [file, ...args];
  // The binding would cut a string at a NUL where node:child_process refuses it.
  if ([cwd, ...argv, ...envPairs].some((text) => text.includes('\0'))) return events.failed('ERR_INVALID_ARG_VALUE');
  const child = new bindings.Process();
  const stdout = new bindings.Pipe(bindings.socketType);
  const stderr = new bindings.Pipe(bindings.socketType);
  const status = new bindings.Pipe(bindings.socketType);
  const stdio = [{ type: 'ignore' }, { type: 'pipe', handle: stdout }, { type: 'pipe', handle: stderr }, { type: 'pipe', handle: status }];
  let exited: ExitListener | undefined;
  child.onexit = (code, signal) => {
    child.close();
    exited?.(signal === '' ? code : null, signal === '' ? null : (signal as NodeJS.Signals));
  };
  const spawned = child.spawn(file, argv, cwd, envPairs, stdio, bindings.detachedFlag, undefined, undefined);
  if (spawned !== 0) {
    for (const pipe of [stdout, stderr, status]) pipe.close();
    child.close();
    return events.failed(errnoName(spawned));
  }
  exited = events.started({ pid: child.pid, stdout: pipeReader(stdout, bindings), stderr: pipeReader(stderr, bindings), status: pipeReader(status, bindings) });
}

function pipeReader(handle: PipeHandle, { readState, readIndex }: Bindings): ChildPipe {
  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    handle.readStop();
    handle.close();
  };
  return {
    read(onBytes, onEnd) {
      const buffer = Buffer.allocUnsafe(READ_BUFFER);
      const end = (): void => {
        close();
        onEnd();
      };
      handle.useUserBuffer(buffer);
      handle.onread = () => {
        const count = readState[readIndex]!;
        // Below zero: the end, or an error, which ends the pipe just the same.
        if (count > 0) onBytes(buffer.subarray(0, count));
        else if (count < 0 && open) end();
      };
      if (handle.readStart() !== 0) end();
    },
    close,
  };
}

function errnoName(status: number): string {
  const { getSystemErrorName } = require('node:util') as typeof import('node:util');
  return getSystemErrorName(status);
}
