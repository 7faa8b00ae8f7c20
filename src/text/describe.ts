// A received value as it should appear after "got" in a message: short, on one
// line, and honest about values JSON cannot show (Infinity). Containers are
// named, not serialised: a hostile input may nest deeper than the stack allows.
export function describe(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (value === undefined) return 'nothing';
  return String(value);
}
