// How a gate's check reads in one word or two: `query ui.plan-gate`,
// `predicate command-exit-zero`, `agentVerdict`.
export function checkLabel(check: unknown): string {
  if (typeof check !== 'object' || check === null) return 'check';
  const fields = check as Record<string, unknown>;
  if (typeof fields.query === 'string') return `query ${fields.query}`;
  const predicate = fields.predicate as { kind?: unknown } | null | undefined;
  if (predicate !== undefined) return `predicate ${typeof predicate?.kind === 'string' ? predicate.kind : '?'}`;
  return Object.hasOwn(fields, 'agentVerdict') ? 'agentVerdict' : 'check';
}
