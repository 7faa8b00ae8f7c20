export interface DuplicateKey {
  readonly key: string;
  // The keys and indices that lead to the object that repeats it.
  readonly path: readonly (string | number)[];
}

interface Frame {
  readonly keys: Set<string> | null; // null: an array
  index: number;
  key: string;
}

// The first key that an object of `text` gives twice. JSON.parse keeps the
// last one silently, so `{"command":"rm -rf x","command":"true"}` would read
// as harmless; a gate should refuse such a predicate instead. `text` must
// already be valid JSON (JSON.parse accepted it): only strings, brackets,
// commas and colons need telling apart.
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      let next = end + 1;
      while (next < text.length && isSpace(text.charCodeAt(next))) next++;
      const top = stack[stack.length - 1];
      if (text.charCodeAt(next) === 0x3a && top?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { key, path: stack.slice(0, -1).map((f) => (f.keys ? f.key : f.index)) };
        top.keys.add(key);
        top.key = key;
      }
      i = end;
    } else if (c === 0x7b) stack.push({ keys: new Set(), index: 0, key: '' });
    else if (c === 0x5b) stack.push({ keys: null, index: 0, key: '' });
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top !== undefined && top.keys === null) top.index++;
    }
  }
  return undefined;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return text.length;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
