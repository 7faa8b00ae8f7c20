// How deep a parsed JSON value nests (a scalar 0, `[0]` 1), counted without
// recursion and without going past `limit`: the value may nest deeper than
// the stack allows, which is exactly what this is asked to find out.
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const item of level) {
      if (typeof item !== 'object' || item === null) continue;
      if (depth === limit) return true;
      for (const child of Array.isArray(item) ? item : Object.values(item)) next.push(child);
    }
    level = next;
  }
  return false;
}
