import { visible } from './text/visible.ts';

// The one error shape of gsd-check: a check that could not be evaluated.
// Everything that can go wrong with input is returned as a Failure, never thrown;
// a thrown exception is a bug.

export type Reason =
  | 'usage'
  | 'invalid-json'
  | 'invalid-predicate'
  | 'unknown-kind'
  | 'bad-cwd'
  | 'unreadable-file'
  | 'spawn-failed'
  | 'resource-limit'
  | 'invalid-artifact'
  | 'invalid-capability'
  | 'no-such-field'
  | 'query-failed'
  | 'unsupported-platform';

export interface Issue {
  readonly path: string;
  readonly message: string;
}

export interface Failure {
  readonly reason: Reason;
  readonly message: string;
  readonly issues: readonly Issue[];
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = (reason: Reason, message: string, issues: readonly Issue[] = []): { ok: false; failure: Failure } => ({
  ok: false,
  failure: { reason, message, issues },
});

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
