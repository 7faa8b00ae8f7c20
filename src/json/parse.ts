import { fail, ok, type Result } from '../failure.ts';
import { jsonPath } from '../text/format.ts';

// JSON as gsd-check reads it: duplicate keys refused, syntax errors located
// without quoting the text, nesting measured without recursion.

// JSON as gsd-check accepts it: what JSON.parse accepts, less objects that
// give one key twice. `root` names the document in the path of a duplicate.
export function parseJson(text: string, label: string, root = ''): Result<unknown> {
  const read = readJson(text, label, root);
  if (!read.ok) return read;
  const { value, duplicate } = read.value;
  if (duplicate !== undefined)
    return fail('invalid-json', `${label} gives the key ${JSON.stringify(duplicate.key)} twice (at ${duplicate.at}): which one counts is ambiguous`);
  return ok(value);
}

// JSON as JSON.parse reads it, which keeps the last of a key given twice,
// with the first such key and its path: for validate, which tells what GSD
// (reading it so) makes of a capability file beside refusing the duplicate.
export function readJson(
  text: string,
  label: string,
  root = '',
): Result<{ readonly value: unknown; readonly duplicate: { readonly key: string; readonly at: string } | undefined }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const error = jsonSyntaxError(text);
    return fail('invalid-json', `${label} is not valid JSON: ${error.reason} at line ${error.line}, column ${error.column}`);
  }
  const duplicate = findDuplicateKey(text);
  return ok({ value, duplicate: duplicate === undefined ? undefined : { key: duplicate.key, at: jsonPath(root, [...duplicate.path, duplicate.key]) } });
}

// A JSON object: not null, not an array, not a scalar.
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Where a text stops being JSON, and why, without quoting it: Node's
// JSON.parse messages quote the text ("AWS_SECRET"... is not valid JSON),
// and the text may be a secret handed to the wrong flag. Called only once
// JSON.parse has refused the text. Iterative, so no nesting depth can
// overflow the stack.
interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;

export function jsonSyntaxError(text: string): JsonSyntaxError {
  const at = (offset: number, reason: string): JsonSyntaxError => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1, reason };
  };
  const stack: ('{' | '[')[] = [];
  let i = 0;
  let state: 'value' | 'key' | 'after' = 'value';
  const skip = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  for (;;) {
    skip();
    // JSON.parse refused the text, so it cannot end here complete.
    if (i >= text.length) return at(i, 'unexpected end');
    const c = text[i]!;
    if (state === 'after') {
      const top = stack[stack.length - 1];
      if (top === undefined) return at(i, 'unexpected character after the value');
      if (c === ',') {
        i++;
        state = top === '{' ? 'key' : 'value';
      } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        stack.pop();
        i++;
      } else return at(i, top === '{' ? "expected ',' or '}'" : "expected ',' or ']'");
      continue;
    }
    if (state === 'key') {
      if (c !== '"') return at(i, 'expected a string key');
      const end = stringEnd(i);
      if (typeof end !== 'number') return at(end.offset, end.reason);
      i = end;
      skip();
      if (text[i] !== ':') return at(i, "expected ':'");
      i++;
      state = 'value';
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      skip();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
        state = 'after';
      } else state = c === '{' ? 'key' : 'value';
      continue;
    }
    if (c === '"') {
      const end = stringEnd(i);
      if (typeof end !== 'number') return at(end.offset, end.reason);
      i = end;
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) return at(i, 'unexpected character');
      i = NUMBER.lastIndex;
    }
    state = 'after';
  }

  function stringEnd(start: number): number | { offset: number; reason: string } {
    for (let j = start + 1; j < text.length; j++) {
      const code = text.charCodeAt(j);
      if (code === 0x22) return j + 1;
      if (code < 0x20) return { offset: j, reason: 'control character in a string' };
      if (code === 0x5c) {
        ESCAPE.lastIndex = j + 1;
        if (!ESCAPE.test(text)) return { offset: j, reason: 'bad escape in a string' };
        j = ESCAPE.lastIndex - 1;
      }
    }
    return { offset: text.length, reason: 'unterminated string' };
  }
}

interface DuplicateKey {
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

// A text of several JSON documents one after another, as a loop of
// commands that each print one leaves it (indented or not): each
// document's text and the line it starts on. Only the boundaries are found
// here, by brackets outside strings; each document is then parsed (and
// refused) on its own. A document that is not an object or a list runs to
// the end of its line.
export function jsonDocuments(text: string): { readonly text: string; readonly line: number }[] {
  const documents: { text: string; line: number }[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    if (isSpace(c)) continue;
    const start = i;
    const startLine = line;
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x0a) line++;
        else if (d === 0x22) i = stringEnd(text, i);
        else if (d === 0x7b || d === 0x5b) depth++;
        else if ((d === 0x7d || d === 0x5d) && --depth === 0) break;
      }
    } else {
      while (i + 1 < text.length && text.charCodeAt(i + 1) !== 0x0a) i++;
    }
    documents.push({ text: text.slice(start, i + 1), line: startLine });
  }
  return documents;
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

// How deep a value from outside may nest (a predicate's field, a query's
// answer): far beyond any real one, and far below what printing, comparing
// or copying a value can take on the stack.
export const MAX_DEPTH = 64;

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
