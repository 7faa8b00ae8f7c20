import { spawn, type ChildProcess } from 'node:child_process';
import { stopSignal } from '../exit-status.ts';
import { CommandOutput, type OutputSummary } from './command-output.ts';
import { ProcessGroup } from './group.ts';
import { GroupEnding } from './group-ending.ts';
import { readPipe, type PipeReader } from './pipe-reader.ts';
import { retryingResourceLimits } from './resource-retry.ts';
import { spawnErrorCode } from './spawn-error.ts';
import { realTime, type Time } from './time.ts';

// The only module that starts processes.

// How long what sh left behind in its group gets between SIGTERM and SIGKILL
// (a timeout or a stop gives --kill-after instead).
const LINGER_GRACE_MS = 200;

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
  readonly output: OutputSummary;
  // With `keepStdout`: the head of stdout, and whether it is all of it.
  readonly stdout?: { readonly text: string; readonly complete: boolean } | undefined;
}

export type Runner = (options: RunOptions) => Promise<RunResult>;

export interface RunnerDeps {
  readonly time: Time;
  readonly readPipe: PipeReader;
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly at: number;
  readonly timedOut: boolean;
}

export function makeRunner({ time, readPipe }: RunnerDeps): Runner {
  return (options) =>
    new Promise((resolve) => {
      const started = time.now();
      const output = new CommandOutput(options.keepStdout);
      let interrupted: NodeJS.Signals | null = null;
      const settle = (spawnError: string | null, exit?: Exit): void => {
        const stdout = output.stdout();
        resolve({
          exitCode: exit?.code ?? null,
          signal: exit?.signal ?? null,
          timedOut: exit?.timedOut ?? false,
          interrupted,
          spawnError,
          // Until sh's exit: the drain and the group's end are not the command's time.
          durationMs: (exit?.at ?? time.now()) - started,
          output: output.summary(),
          ...(stdout === undefined ? {} : { stdout }),
        });
      };

      if (options.signal?.aborted) {
        interrupted = stopSignal(options.signal);
        return settle(null);
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
        return settle(spawnErrorCode(error, options.cwd));
      }
      if (child.pid === undefined) {
        child.stdout?.on('error', ignore);
        child.stderr?.on('error', ignore);
        child.once('error', (error) => settle(spawnErrorCode(error, options.cwd)));
        return;
      }

      const ending = new GroupEnding(new ProcessGroup(child.pid), time);
      const onStop = (): void => {
        interrupted = stopSignal(options.signal);
        ending.begin(options.killAfterMs);
      };
      const onForce = (): void => ending.kill();
      options.signal?.addEventListener('abort', onStop);
      options.force?.addEventListener('abort', onForce);
      const cancelTimeout = time.after(options.timeoutMs, () => ending.begin(options.killAfterMs));

      output.read(child.stdout!, child.stderr!, readPipe);
      child.on('error', ignore);
      child.once('exit', (code, signal) => {
        const at = time.now();
        cancelTimeout();
        // Timed out: ended at or after the deadline, whether the timer ended
        // it or (at least 1 ms in Node) had no chance to fire first.
        const exit: Exit = { code, signal, at, timedOut: at - started >= options.timeoutMs };
        // Whatever sh left behind in its group is ended before we answer.
        output.drain(time, () =>
          ending.finish(LINGER_GRACE_MS, () => {
            options.signal?.removeEventListener('abort', onStop);
            options.force?.removeEventListener('abort', onForce);
            settle(null, exit);
          }),
        );
      });
    });
}

export const runCommand: Runner = retryingResourceLimits(makeRunner({ time: realTime, readPipe }));

function ignore(): void {}
