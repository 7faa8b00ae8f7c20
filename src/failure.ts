import { EXIT_FAILURE } from './exit-status.ts';
import { stoppedExitStatus, type Stop } from './stop.ts';
import { visible } from './text/format.ts';

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
  'unsupported-platform': { exitStatus: EXIT_FAILURE, onError: true },
  stopped: { exitStatus: 'signal', onError: false },
} as const satisfies Record<string, { readonly exitStatus: number | 'signal'; readonly onError: boolean }>;

export type Reason = keyof typeof REASONS;

export interface Issue {
  readonly path: string;
  readonly message: string;
}

// A stop is a failure of every check it cuts short, carrying the stop.
export type Failure =
  | { readonly reason: Exclude<Reason, 'stopped'>; readonly message: string; readonly issues: readonly Issue[] }
  | { readonly reason: 'stopped'; readonly message: string; readonly issues: readonly Issue[]; readonly stop: Stop };

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = (reason: Exclude<Reason, 'stopped'>, message: string, issues: readonly Issue[] = []): { ok: false; failure: Failure } => ({
  ok: false,
  failure: { reason, message, issues },
});

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
