import { visible } from './text/format.ts';

// The failure model every folder shares: the exit statuses, a stop by a
// signal, and the one failure shape with its reasons.

// The exit statuses gsd-check uses, but for a stop's 128+N (below). A
// failure's comes from its reason (REASONS); the others are not failures of a
// check: the answer no, a verdict that could not be delivered, a bug.

// The check ran and its answer is no: a verdict that blocks, a validate run
// that found issues. One status, as grep's 1, whatever was asked.
export const EXIT_NO = 1;
export const EXIT_FAILURE = 2;
// EX_SOFTWARE from sysexits.h: a bug.
export const EXIT_INTERNAL = 70;
// EX_IOERR from sysexits.h: the verdict exists but could not be delivered.
export const EXIT_WRITE_FAILED = 74;

// A stop: gsd-check was told to end by a signal. main.ts aborts its stop
// controller with a Stop, and every part that waits or runs answers it; the
// signal it carries decides the exit status, 128+N.

// Every signal whose default action would kill gsd-check and leave the
// commands running; SIGKILL and SIGSTOP cannot be caught.
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGALRM', 'SIGUSR1', 'SIGUSR2', 'SIGXCPU', 'SIGVTALRM', 'SIGPROF'] as const;

export class Stop {
  constructor(readonly signal: NodeJS.Signals) {}
}

// For code that saw `signal` abort: the stop it carries. An abort with
// anything but a Stop is a bug; it stops as SIGTERM would.
export const stopCarriedBy = (signal: AbortSignal | undefined): Stop => (signal?.reason instanceof Stop ? signal.reason : new Stop('SIGTERM'));

// The stop `signal` was aborted with, or undefined while it is not.
export const stopOf = (signal: AbortSignal | undefined): Stop | undefined => (signal?.aborted === true ? stopCarriedBy(signal) : undefined);

// 128+N, as a shell reports a death by signal N. SIGUSR1 and SIGUSR2 have
// other numbers on macOS than on Linux, so N comes from the platform.
// node:os is loaded here, on the way out, where its start-up cost no longer
// matters.
export function stoppedExitStatus(stop: Stop): number {
  const { constants } = require('node:os') as typeof import('node:os');
  return 128 + (constants.signals[stop.signal] ?? constants.signals.SIGTERM);
}

// The one error shape of gsd-check: a check that could not be evaluated.
// Everything that can go wrong with input is returned as a Failure, never thrown;
// a thrown exception is a bug.

// Every reason a check can fail for: its name in --json-errors is its key,
// its exit status, and whether a gate's onError may skip it. `resource-limit`
// and `stopped` say nothing about the project, so skipping such a gate would
// turn a block into a pass: they halt whatever onError says. A stop exits
// 128+N, N its signal's number.
export const REASONS = {
  usage: { exitStatus: EXIT_FAILURE, onError: true },
  'invalid-json': { exitStatus: EXIT_FAILURE, onError: true },
  'invalid-predicate': { exitStatus: EXIT_FAILURE, onError: true },
  'unknown-kind': { exitStatus: EXIT_FAILURE, onError: true },
  'bad-cwd': { exitStatus: EXIT_FAILURE, onError: true },
  'unreadable-file': { exitStatus: EXIT_FAILURE, onError: true },
  'spawn-failed': { exitStatus: EXIT_FAILURE, onError: true },
  'resource-limit': { exitStatus: EXIT_FAILURE, onError: false },
  'invalid-artifact': { exitStatus: EXIT_FAILURE, onError: true },
  'invalid-capability': { exitStatus: EXIT_FAILURE, onError: true },
  'no-such-field': { exitStatus: EXIT_FAILURE, onError: true },
  'query-failed': { exitStatus: EXIT_FAILURE, onError: true },
  // An agentVerdict check: only an agent can give its verdict, and gates run
  // has none, so the gate is routed by its onError like any check that could
  // not be evaluated. It never reaches --json-errors: no command fails for it.
  'needs-agent': { exitStatus: EXIT_FAILURE, onError: true },
  'unsupported-platform': { exitStatus: EXIT_FAILURE, onError: true },
  // The GSD gsd_run finds is a version gsd-check is not tested with, and the
  // caller asked for one it is (--require-tested-gsd). It fails the call.
  'untested-gsd': { exitStatus: EXIT_FAILURE, onError: false },
  // The phase's files do not tell which phase, or where its loop stands, as
  // GSD would read them (two directories for it, plans GSD refuses to
  // order): nothing can be said reached, so nothing may pass.
  'ambiguous-phase': { exitStatus: EXIT_FAILURE, onError: false },
  stopped: { exitStatus: 'signal', onError: false },
} as const satisfies Record<string, { readonly exitStatus: number | 'signal'; readonly onError: boolean }>;

type Reason = keyof typeof REASONS;

export interface Issue {
  readonly path: string;
  readonly message: string;
}

// A line of a file, the file relative to the project root: where a report
// points for a gate whose check read that file.
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

// A stop is a failure of every check it cuts short, carrying the stop. A
// failure about one file (an artifact that cannot be read) says where it is.
export type Failure =
  | { readonly reason: Exclude<Reason, 'stopped'>; readonly message: string; readonly issues: readonly Issue[]; readonly at?: SourceLocation }
  | { readonly reason: 'stopped'; readonly message: string; readonly issues: readonly Issue[]; readonly stop: Stop };

// A value, or why there is none. Most steps fail with a Failure; the lowest
// ones (fs/, io/) with a system error code, which their caller words, since
// what a failed read means depends on what was being read.
export type Result<T, E = Failure> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

// A failure of a shape of its own (a system error code).
export const refused = <E>(failure: E): { ok: false; failure: E } => ({ ok: false, failure });

export const fail = (reason: Exclude<Reason, 'stopped'>, message: string, issues: readonly Issue[] = []): { ok: false; failure: Failure } => ({
  ok: false,
  failure: { reason, message, issues },
});

// The same result, its failure (if it is one, and not a stop) located at `at`.
export function locatedAt<T>(result: Result<T>, at: SourceLocation): Result<T> {
  return result.ok || result.failure.reason === 'stopped' ? result : { ok: false, failure: { ...result.failure, at } };
}

export const stopped = (stop: Stop): { ok: false; failure: Failure } => ({
  ok: false,
  failure: { reason: 'stopped', message: `stopped by ${stop.signal}`, issues: [], stop },
});

// A command line gsd-check cannot act on: the message, and where to look.
export function usage(message: string): { ok: false; failure: Failure } {
  return fail('usage', `${message} (see gsd-check --help)`);
}

export function exitStatusOf(failure: Failure): number {
  return failure.reason === 'stopped' ? stoppedExitStatus(failure.stop) : REASONS[failure.reason].exitStatus;
}

// The first line always carries the first issue, so a caller that reads one
// line (the common case) still learns which field is wrong.
export function formatFailure(failure: Failure): string {
  const [first, ...rest] = failure.issues;
  if (first === undefined) return `gsd-check: ${visible(failure.message)}\n`;
  const head = `gsd-check: ${visible(failure.message)}: ${visible(first.path)}: ${visible(first.message)}`;
  const more = rest.map((i) => `  ${visible(i.path)}: ${visible(i.message)}`);
  return [head, ...more].join('\n') + '\n';
}

export function formatFailureJson(failure: Failure): string {
  const body: Record<string, unknown> = { ok: false, reason: failure.reason, message: failureLine(failure) };
  if (failure.issues.length > 0) body.issues = failure.issues;
  return JSON.stringify(body) + '\n';
}

// The failure on one line: the message, the first issue, and how many more.
export function failureLine(failure: Failure): string {
  const [first, ...rest] = failure.issues;
  if (first === undefined) return failure.message;
  return `${failure.message}: ${first.path}: ${first.message}${rest.length > 0 ? ` (+${rest.length} more)` : ''}`;
}
