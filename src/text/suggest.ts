// Suggests the known name a misspelled one most likely meant ("timeOut" →
// "timeout"). Case is ignored because that is the commonest slip.
export function closest(name: string, known: readonly string[]): string | undefined {
  const target = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(target, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = Math.max(1, Math.floor(target.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

function distance(a: string, b: string): number {
  // Known names are short; a very long name is never a typo of one, and this
  // keeps a hostile megabyte-long key from costing quadratic time.
  if (a.length > 64 || b.length > 64) return a === b ? 0 : Infinity;
  // Two letters swapped ("feild") count as one slip, as a reader sees it.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, before[j - 2]! + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

// What a field outside `known` is told: the known field it most likely
// meant, else the whole list.
export function unknownField(key: string, known: readonly string[]): string {
  const hint = closest(key, known);
  return hint === undefined ? `unknown field (known fields: ${known.join(', ')})` : `unknown field; did you mean "${hint}"?`;
}
