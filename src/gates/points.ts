// The loop points at which GSD runs gates, in loop order.
export const LOOP_POINTS = [
  'discuss:pre',
  'discuss:post',
  'plan:pre',
  'plan:post',
  'execute:pre',
  'execute:wave:pre',
  'execute:wave:post',
  'execute:post',
  'verify:pre',
  'verify:post',
  'ship:pre',
  'ship:post',
] as const;

export type LoopPoint = (typeof LOOP_POINTS)[number];

export const isLoopPoint = (value: unknown): value is LoopPoint =>
  typeof value === 'string' && (LOOP_POINTS as readonly string[]).includes(value);
