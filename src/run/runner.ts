import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { now } from '../clock.ts';
import { errorCode } from '../fs/error-code.ts';
import { ProcessGroup } from './group.ts';
import { HeadBuffer } from './head-buffer.ts';
import { readPipe } from './pipe-reader.ts';
import { retryingResourceLimits } from './resource-retry.ts';
import { TailBuffer } from './tail-buffer.ts';
import { after } from './timer.ts';

// The only module that starts processes.

const TAIL_BYTES = 64 * 1024;
// After sh exits, how long a background process may keep the pipes open
// before we stop reading, and how long its group then gets between SIGTERM and
// SIGKILL: together well under the 500 ms a caller may wait.
const DRAIN_MS = 100;
const LINGER_GRACE_MS = 200;
const POLL_MS = 10;

export interface RunOptions {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly killAfterMs: number;
  // Aborted with a signal name when gsd-check is told to stop: end the group
  // gracefully. `force` (a second stop) skips the rest of the grace.
  readonly signal?: AbortSignal | undefined;
  readonly force?: AbortSignal | undefined;
  readonly shell?: string;
  // Keep the head of stdout, up to this many bytes, apart from the tail: an
  // answer to parse (a query's JSON) rather than a log to show.
  readonly keepStdout?: number | undefined;
}

export interface RunResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  // The signal that stopped gsd-check itself, if any: there is no verdict then.
  readonly interrupted: NodeJS.Signals | null;
  // Why sh could not be started: an errno code, "cwd-missing" or "cwd-denied".
  readonly spawnError: string | null;
  readonly durationMs: number;
  readonly output: {
    readonly text: string;
    readonly stdoutBytes: number;
    readonly stderrBytes: number;
    readonly truncated: boolean;
  };
  // With `keepStdout`: the head of stdout, and whether it is all of it.
  readonly stdout?: { readonly text: string; readonly complete: boolean } | undefined;
}

export type Runner = (options: RunOptions) => Promise<RunResult>;

const runOnce: Runner = (options) =>
  new Promise((resolve) => {
    const tail = new TailBuffer(TAIL_BYTES);
    const head = options.keepStdout === undefined ? undefined : new HeadBuffer(options.keepStdout);
    const started = now();
    let ended: number | undefined;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let timedOut = false;
    let interrupted: NodeJS.Signals | null = null;
    const timers = new Set<() => void>();
    const schedule = (ms: number, fire: () => void): void => {
      const cancel = after(ms, () => {
        timers.delete(cancel);
        fire();
      });
      timers.add(cancel);
    };
    const clearTimers = (): void => {
      for (const cancel of timers) cancel();
      timers.clear();
    };

    const finish = (spawnError: string | null): void => {
      clearTimers();
      options.signal?.removeEventListener('abort', onStop);
      options.force?.removeEventListener('abort', onForce);
      resolve({
        exitCode,
        signal: exitSignal,
        timedOut,
        interrupted,
        spawnError,
        durationMs: (ended ?? now()) - started,
        output: { text: tail.text(), stdoutBytes: tail.seen[0], stderrBytes: tail.seen[1], truncated: tail.truncated },
        ...(head === undefined ? {} : { stdout: { text: head.text(), complete: head.complete } }),
      });
    };

    if (options.signal?.aborted) {
      interrupted = stopSignal(options.signal);
      return finish(null);
    }

    let child: ChildProcess;
    try {
      child = spawn(options.shell ?? 'sh', ['-c', options.command], {
        cwd: options.cwd,
        env: options.env,
        // A group of its own, so one signal reaches every process the command
        // starts, and never our caller.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      return finish(spawnErrorCode(error, options.cwd));
    }
    const pid = child.pid;
    if (pid === undefined) {
      child.stdout?.on('error', ignore);
      child.stderr?.on('error', ignore);
      child.once('error', (error) => finish(spawnErrorCode(error, options.cwd)));
      return;
    }
    const group = new ProcessGroup(pid);
    let exited = false;
    let termSentAt: number | undefined;

    // SIGTERM to the whole group; SIGKILL once the grace is over, unless sh
    // exits first (then endGroup keeps the same deadline for what is left).
    const terminate = (): void => {
      if (termSentAt !== undefined) return;
      termSentAt = now();
      group.signal('SIGTERM');
      schedule(options.killAfterMs, () => group.signal('SIGKILL'));
    };
    function onStop(): void {
      interrupted = stopSignal(options.signal);
      terminate();
    }
    function onForce(): void {
      group.signal('SIGKILL');
    }
    options.signal?.addEventListener('abort', onStop);
    options.force?.addEventListener('abort', onForce);

    schedule(options.timeoutMs, () => {
      timedOut = true;
      terminate();
    });

    let openPipes = 2;
    const pipeClosed = (): void => {
      if (--openPipes === 0 && exited) endGroup();
    };
    const pipes: Readable[] = [
      readPipe(child.stdout!, (bytes) => {
        tail.push(0, bytes);
        head?.push(bytes);
      }),
      readPipe(child.stderr!, (bytes) => tail.push(1, bytes)),
    ];
    for (const pipe of pipes) {
      pipe.once('close', pipeClosed);
      pipe.on('error', ignore);
    }
    child.on('error', ignore);

    child.once('exit', (code, signal) => {
      exited = true;
      ended = now();
      exitCode = code;
      exitSignal = signal;
      clearTimers();
      // A command that outran its deadline timed out, even when the timer
      // (at least 1 ms in Node) had no chance to fire first.
      if (!timedOut && ended - started >= options.timeoutMs) timedOut = true;
      if (openPipes === 0) return endGroup();
      schedule(DRAIN_MS, () => {
        // A background process holds a pipe: stop reading; the verdict is sh's.
        for (const pipe of pipes) pipe.destroy();
        openPipes = 0;
        endGroup();
      });
    });

    let ending = false;
    // Whatever sh left behind in its group is ended before we answer.
    function endGroup(): void {
      if (ending) return;
      ending = true;
      clearTimers();
      if (!group.alive()) return finish(null);
      if (termSentAt === undefined) {
        termSentAt = now();
        group.signal('SIGTERM');
      }
      const stopping = interrupted !== null || timedOut;
      const deadline = termSentAt + (stopping ? options.killAfterMs : LINGER_GRACE_MS);
      const poll = (): void => {
        if (!group.alive()) return finish(null);
        if (now() >= deadline) {
          group.signal('SIGKILL');
          return finish(null);
        }
        schedule(Math.min(POLL_MS, deadline - now()), poll);
      };
      poll();
    }
  });

export const runCommand: Runner = retryingResourceLimits(runOnce);

// The signal a stop was requested with (main aborts with its name).
export function stopSignal(signal: AbortSignal | undefined): NodeJS.Signals {
  const reason: unknown = signal?.reason;
  return typeof reason === 'string' && reason.startsWith('SIG') ? (reason as NodeJS.Signals) : 'SIGTERM';
}

// Node reports a missing cwd as ENOENT, like a missing sh, and one we may
// not enter as EACCES, like an sh we may not run; tell them apart.
function spawnErrorCode(error: unknown, cwd: string): string {
  const code = errorCode(error);
  if (code === 'ENOENT' && !isDirectory(cwd)) return 'cwd-missing';
  if (code === 'EACCES' && !isEnterable(cwd)) return 'cwd-denied';
  return code;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isEnterable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function ignore(): void {}
