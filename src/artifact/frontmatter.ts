import { fail, ok, type Result } from '../failure.ts';
import type * as Yaml from 'yaml';
import { MAX_DEPTH } from '../predicate/validate.ts';
import { nestsDeeperThan } from '../text/json-depth.ts';
import { readSimpleFrontmatter } from './simple-frontmatter.ts';

type Mapping = Record<string, unknown>;

// What the top of a file holds: no frontmatter (its first line is not
// `---`), one that is never closed, or the YAML text of one that is.
export type Frontmatter =
  | { readonly status: 'absent' }
  | { readonly status: 'unclosed' }
  | { readonly status: 'present'; readonly yaml: string };

// The YAML between a first line `---` and the next `---` or `...` line, LF or
// CRLF, after an optional BOM. Split on bytes, so a body that is not UTF-8
// does not matter; only the frontmatter must be.
export function extractFrontmatter(bytes: Uint8Array, file: string): Result<Frontmatter> {
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const first = lineAt(bytes, start);
  if (!isMarker(first.text, false)) return ok({ status: 'absent' });
  start = first.next;
  for (let at = start; at < bytes.length; ) {
    const line = lineAt(bytes, at);
    if (isMarker(line.text, true)) {
      try {
        return ok({ status: 'present', yaml: new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, at)) });
      } catch {
        return fail('invalid-artifact', `${file}: the frontmatter is not valid UTF-8`);
      }
    }
    at = line.next;
  }
  return ok({ status: 'unclosed' });
}

// Marker lines: `---` (a closing one may be `...`), then blanks, then at
// most a CR.
const OPENING = /^---[ \t]*\r?$/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/;
// Made on first use: most starts read no frontmatter.
let latin1: InstanceType<typeof TextDecoder> | undefined;

function lineAt(bytes: Uint8Array, from: number): { text: string; next: number } {
  let end = bytes.indexOf(0x0a, from);
  if (end === -1) end = bytes.length;
  // Only a line that starts as a marker does is decoded: a frontmatter of
  // short lines makes no string per line.
  const text = bytes[from] === 0x2d || bytes[from] === 0x2e ? (latin1 ??= new TextDecoder('latin1')).decode(bytes.subarray(from, end)) : '';
  return { text, next: end + 1 };
}

function isMarker(line: string, closing: boolean): boolean {
  return (closing ? CLOSING : OPENING).test(line);
}

// The fields of a frontmatter, or what else it holds: YAML that is a list or
// a scalar has no fields. An empty frontmatter is an empty mapping.
export type Fields = { readonly mapping: true; readonly fields: Mapping } | { readonly mapping: false; readonly shape: string };

// Past this, a frontmatter is not metadata. The cap bounds the parse: the
// YAML library is slow enough (about 1.5 ms per KiB here) that a megabyte of
// keys would hold a thread for over a second (read-fields.ts keeps large
// ones off the main thread).
const MAX_FRONTMATTER_BYTES = 64 * 1024;

// The answer when it comes without the YAML library: a frontmatter over the
// cap, or one of plain `key: value` lines. Undefined when the library must
// parse it (parseWithLibrary).
export function parseWithoutLibrary(yamlText: string, file: string): Result<Fields> | undefined {
  if (Buffer.byteLength(yamlText) > MAX_FRONTMATTER_BYTES) {
    return fail('invalid-artifact', `${file}: the frontmatter is larger than ${MAX_FRONTMATTER_BYTES / 1024} KiB`);
  }
  const simple = readSimpleFrontmatter(yamlText);
  return simple === undefined ? undefined : ok({ mapping: true, fields: simple });
}

// `library` is passed in: a parsing thread compiles its own (see
// frontmatter-worker.ts).
export function parseWithLibrary(yamlText: string, file: string, library: typeof Yaml): Result<Fields> {
  const lines = new library.LineCounter();
  // The library's own duplicate-key check compares every key with every
  // other (40,000 keys took 28 s); duplicates are found below in one pass.
  let document: Yaml.Document.Parsed;
  try {
    // logLevel silent: the library would print warnings, artifact text in them, to stderr.
    document = library.parseDocument(yamlText, { uniqueKeys: false, lineCounter: lines, logLevel: 'silent' });
  } catch (caught) {
    // The parser recurses per nesting level: 64 KiB of `[` can exhaust the stack.
    return fail('invalid-artifact', `${file}: the frontmatter cannot be read as data: ${caught instanceof Error ? caught.message : String(caught)}`);
  }
  const error = document.errors[0];
  if (error !== undefined) {
    // Line 1 of the YAML is line 2 of the file.
    const line = (error.linePos?.[0].line ?? 0) + 1;
    const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    return fail('invalid-artifact', `${file}: invalid YAML in the frontmatter at line ${line}: ${reason}`);
  }
  const repeated = repeatedKey(document, library);
  if (repeated !== undefined) {
    const line = lines.linePos(repeated).line + 1;
    return fail('invalid-artifact', `${file}: invalid YAML in the frontmatter at line ${line}: Map keys must be unique`);
  }
  let value: unknown;
  try {
    value = document.toJS();
    if (nestsDeeperThan(value, MAX_DEPTH)) throw new Error(`it nests deeper than ${MAX_DEPTH} levels`);
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return fail('invalid-artifact', `${file}: the frontmatter cannot be read as data: ${reason}`);
  }
  if (value === null || value === undefined) return ok({ mapping: true, fields: {} });
  if (typeof value !== 'object' || Array.isArray(value)) {
    return ok({ mapping: false, shape: Array.isArray(value) ? 'a list' : `a ${typeof value}` });
  }
  return ok({ mapping: true, fields: value as Mapping });
}

// The offset of the first key that a mapping gives twice, or undefined. Keys
// compare as the library would: scalars by value, others by their YAML text.
function repeatedKey(document: Yaml.Document, library: typeof Yaml): number | undefined {
  let found: number | undefined;
  library.visit(document, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        // Parsed, every key is a node with a range, an empty one included.
        const key = pair.key as Yaml.ParsedNode;
        const text = library.isScalar(key) ? `${typeof key.value}:${String(key.value)}` : `node:${String(key)}`;
        if (seen.has(text)) {
          found = key.range[0];
          return library.visit.BREAK;
        }
        seen.add(text);
      }
      return undefined;
    },
  });
  return found;
}
