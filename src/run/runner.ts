import { isDirectory, isEnterable } from '../fs/entry.ts';
import { fail, ok, stopOf, type Result, type Stop } from '../failure.ts';
import type { Start } from './child.ts';
import { bindingStart, processBinding } from './child-binding.ts';
import { childProcessStart } from './child-process.ts';
import { CommandOutput, type OutputSummary } from './output.ts';
import { commandEnding, wrapperArgs } from './shell-status.ts';
import { GroupEnding, ProcessGroup } from './group.ts';
import { realTime, type Time } from './time.ts';

// Starts the commands of gates and queries, each as `sh -c` in a process
// group of its own, under a sh that reports how it ended (shell-status.ts);
// proc-table.ts also runs `ps` where there is no /proc.

// How long what sh left behind in its group gets between SIGTERM and SIGKILL
// (a timeout or a stop gives --kill-after instead).
const LINGER_GRACE_MS = 200;

export interface RunOptions {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly killAfterMs: number;
  // Aborted with a Stop when gsd-check is told to stop: end the group
  // gracefully. `force` (a second stop) skips the rest of the grace.
  readonly signal?: AbortSignal | undefined;
  readonly force?: AbortSignal | undefined;
  readonly shell?: string;
  // Keep the head of stdout, up to this many bytes, apart from the tail: an
  // answer to parse (a query's JSON) rather than a log to show.
  readonly keepStdout?: number;
}

// How a run ended: sh exited or was killed (on its timeout, or by another
// process), it never started, or gsd-check was stopped meanwhile (then there
// is no verdict, whatever sh did). Not a Result: which endings fail is the
// caller's to say (a non-zero exit is a block for one kind, a failure for a query).
export type RunResult = Ran &
  (
    | { readonly status: 'ended'; readonly exitCode: number | null; readonly signal: string | null; readonly timedOut: boolean }
    | { readonly status: 'not-started'; readonly error: SpawnError }
    // `killedBy`: the signal that ended sh, when it had started.
    | { readonly status: 'stopped'; readonly stop: Stop; readonly killedBy: string | null }
  );

interface Ran {
  readonly durationMs: number;
  readonly output: OutputSummary;
  // With `keepStdout`: the head of stdout, and whether it is all of it.
  readonly stdout?: { readonly text: string; readonly complete: boolean };
}

// How a run that ended reads in a message, worded once for every caller;
// `subject` names what ran ("command", "the query command"). A verdict's
// message is a headline ("command killed by SIGKILL"), a failure's a
// sentence ("the query command was killed by SIGKILL").
export function endingText(
  subject: string,
  ending: { readonly exitCode: number | null; readonly signal: string | null; readonly timedOut: boolean },
  timeoutSeconds: number,
  style: 'headline' | 'sentence',
): string {
  if (ending.timedOut) return `${subject} timed out after ${timeoutSeconds}s`;
  // Neither a code nor a signal: a death by a signal Node has no name for.
  if (ending.exitCode === null) return `${subject}${style === 'sentence' ? ' was' : ''} killed by ${ending.signal ?? 'a signal'}`;
  return `${subject} exited ${ending.exitCode}`;
}

export type Runner = (options: RunOptions) => Promise<RunResult>;

interface RunnerDeps {
  readonly time: Time;
  readonly start: Start;
}

// How the child's promise settles, inside the runner only: the three ways
// that become a RunResult, not a success or a failure.
type Settlement =
  | { readonly error: SpawnError }
  | { readonly stop: Stop; readonly exit: Exit | undefined }
  | { readonly exit: Exit; readonly stop?: undefined };

interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly at: number;
  readonly timedOut: boolean;
}

export function makeRunner({ time, start }: RunnerDeps): Runner {
  return (options) =>
    new Promise((resolve) => {
      const started = time.now();
      const output = new CommandOutput(options.keepStdout);
      const settle = (how: Settlement): void => {
        const stdout = output.stdout();
        const ran: Ran = {
          // Until sh's exit: the drain and the group's end are not the command's time.
          durationMs: ('exit' in how && how.exit !== undefined ? how.exit.at : time.now()) - started,
          output: output.summary(),
          ...(stdout === undefined ? {} : { stdout }),
        };
        if ('error' in how) resolve({ status: 'not-started', error: how.error, ...ran });
        else if (how.stop !== undefined) resolve({ status: 'stopped', stop: how.stop, killedBy: how.exit?.signal ?? null, ...ran });
        else resolve({ status: 'ended', exitCode: how.exit.code, signal: how.exit.signal, timedOut: how.exit.timedOut, ...ran });
      };

      const early = stopOf(options.signal);
      if (early !== undefined) return settle({ stop: early, exit: undefined });

      start(
        { file: options.shell ?? 'sh', args: wrapperArgs(options.shell ?? 'sh', options.command), cwd: options.cwd, env: options.env },
        {
          failed: (code) => settle({ error: spawnErrorOf(code, options.cwd) }),
          started: (child) => {
            const ending = new GroupEnding(new ProcessGroup(child.pid), time);
            let stop: Stop | undefined;
            const onStop = (): void => {
              stop = stopOf(options.signal);
              ending.begin(options.killAfterMs);
            };
            const onForce = (): void => ending.kill();
            options.signal?.addEventListener('abort', onStop);
            options.force?.addEventListener('abort', onForce);
            const cancelTimeout = time.after(options.timeoutMs, () => ending.begin(options.killAfterMs));
            output.read(child.stdout, child.stderr, child.status);
            return (code, signal) => {
              const at = time.now();
              cancelTimeout();
              // Whatever sh left behind in its group is ended before we answer;
              // its report is read by then.
              output.drain(time, () =>
                ending.finish(LINGER_GRACE_MS, () => {
                  options.signal?.removeEventListener('abort', onStop);
                  options.force?.removeEventListener('abort', onForce);
                  const ended = commandEnding(code, signal, output.reportedStatus());
                  // Timed out: ended at or after the deadline, whether the timer ended
                  // it or (at least 1 ms in Node) had no chance to fire first.
                  const exit: Exit = { code: ended.exitCode, signal: ended.signal, at, timedOut: at - started >= options.timeoutMs };
                  settle(stop === undefined ? { exit } : { exit, stop });
                }),
              );
            };
          },
        },
      );
    });
}

// Why sh could not start when the system is short of something for a while
// (descriptors, processes, memory), not because the command is wrong: other
// gates finishing frees it, so the start is tried again.
const RESOURCE_LIMITS: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM']);
const RETRY_FOR_MS = 10_000;
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 250;

const exhausted = (error: SpawnError): boolean => error.kind === 'system' && RESOURCE_LIMITS.has(error.code);

export function isResourceLimit(
  result: RunResult,
): result is RunResult & { readonly status: 'not-started'; readonly error: { readonly kind: 'system'; readonly code: string } } {
  return result.status === 'not-started' && exhausted(result.error);
}

// `run`, with a start that failed for a resource limit tried again, pausing
// longer each time, for up to `retryForMs`; a stop signal ends the pause.
export function retryingResourceLimits(run: Runner, retryForMs = RETRY_FOR_MS, time: Time = realTime): Runner {
  return async (options) => {
    const started = time.now();
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      const result = await run(options);
      if (!isResourceLimit(result) || time.now() - started >= retryForMs) return result;
      await wait(time, pause, options.signal);
    }
  };
}

function wait({ after }: Time, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const cancel = after(ms, done);
    signal?.addEventListener('abort', done);
  });
}

// How sh is started: in the standalone binary through Node's process binding
// (child-binding.ts), unless GSD_CHECK_SPAWN is `child_process`; everywhere
// else through node:child_process. `standalone` and the binding are looked
// at on the first start only: a command that runs nothing (--version, help,
// schema) never touches them.
export function systemRunner(spawn: string | undefined, standalone: () => boolean): Result<Runner> {
  if (spawn !== undefined && spawn !== '' && spawn !== 'child_process') {
    return fail('usage', `GSD_CHECK_SPAWN ${JSON.stringify(spawn)} is not a way to start commands; give child_process, or leave it unset`);
  }
  let chosen: Start | undefined;
  const start: Start = (request, events) => {
    chosen ??= (spawn !== 'child_process' && standalone() ? bindingStart(processBinding) : undefined) ?? childProcessStart;
    chosen(request, events);
  };
  return ok(retryingResourceLimits(makeRunner({ time: realTime, start })));
}

// Why sh could not be started: the working directory is gone or closed to
// us, or the system refused with an errno code. Node reports a missing cwd
// as ENOENT, like a missing sh, and one we may not enter as EACCES, like an
// sh we may not run; they are told apart here. Not a Failure: a detail of
// RunResult's not-started, which startFailure words for its caller.
type SpawnError = { readonly kind: 'cwd-missing' } | { readonly kind: 'cwd-denied' } | { readonly kind: 'system'; readonly code: string };

export function spawnErrorOf(code: string, cwd: string): SpawnError {
  if (code === 'ENOENT' && !isDirectory(cwd)) return { kind: 'cwd-missing' };
  if (code === 'EACCES' && !isEnterable(cwd)) return { kind: 'cwd-denied' };
  return { kind: 'system', code };
}

// A start that failed for a cause outside the program: its directory
// (bad-cwd) or the system's limits after the retries (resource-limit, which
// no onError may skip, so a busy machine never turns a block into a pass).
// Otherwise the errno code, which each caller words as its program's answer.
export function startFailure(error: SpawnError, cwd: string, program: string): Result<string> {
  if (error.kind === 'cwd-missing') return fail('bad-cwd', `project root ${cwd} is gone`);
  if (error.kind === 'cwd-denied') return fail('bad-cwd', `project root ${cwd}: permission denied (cannot enter it)`);
  if (exhausted(error)) return fail('resource-limit', `could not start ${program}: ${error.code}, still after ${RETRY_FOR_MS / 1000} s of retries`);
  return ok(error.code);
}
