import { fail, ok, type Result } from '../failure.ts';
import { errorText } from '../fs/entry.ts';

// An artifact's frontmatter as GSD reads it: found at the top of the file,
// read without the YAML library where it is plain `key: value` lines, else
// by the library GSD vendors, compiled on first use.

type Mapping = Record<string, unknown>;

// What the top of a file holds: no frontmatter (its first line is not
// `---`), one that is never closed, or the YAML text of one that is. Not a
// Result: none of the three is a failure, each is what the verdict says.
type Frontmatter = { readonly status: 'absent' } | { readonly status: 'unclosed' } | { readonly status: 'present'; readonly yaml: string };

// The YAML between a first line `---` and the next line that starts with
// `---` (GSD closes at `--- # end`, and at `----`) or is `...`, LF or CRLF,
// after an optional BOM. Split on bytes, then decoded as GSD decodes the
// file: a byte that is not UTF-8 reads as U+FFFD (a CP-1252 `José`), as
// Node's `readFileSync(path, 'utf-8')` gives it.
export function extractFrontmatter(bytes: Uint8Array): Frontmatter {
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const first = lineAt(bytes, start);
  if (!OPENING.test(first.text)) return { status: 'absent' };
  start = first.next;
  for (let at = start; at < bytes.length; ) {
    const line = lineAt(bytes, at);
    if (CLOSING.test(line.text)) {
      // The CR of the last line belongs to the line end, as in GSD. An empty
      // frontmatter (the closing line first) ends before it starts: nothing.
      const end = bytes[at - 2] === 0x0d ? at - 2 : at - 1;
      return { status: 'present', yaml: (utf8 ??= new TextDecoder('utf-8')).decode(bytes.subarray(start, Math.max(start, end))) };
    }
    at = line.next;
  }
  return { status: 'unclosed' };
}

// Marker lines: `---` then blanks then at most a CR opens (GSD: `---` alone);
// a line that starts with `---`, or `...` then blanks, closes.
const OPENING = /^---[ \t]*\r?$/;
const CLOSING = /^(?:---|\.\.\.[ \t]*\r?$)/;
// Made on first use: most starts read no frontmatter.
let latin1: InstanceType<typeof TextDecoder> | undefined;
let utf8: InstanceType<typeof TextDecoder> | undefined;

function lineAt(bytes: Uint8Array, from: number): { text: string; next: number } {
  let end = bytes.indexOf(0x0a, from);
  if (end === -1) end = bytes.length;
  // Only a line that starts as a marker does is decoded: a frontmatter of
  // short lines makes no string per line.
  const text = bytes[from] === 0x2d || bytes[from] === 0x2e ? (latin1 ??= new TextDecoder('latin1')).decode(bytes.subarray(from, end)) : '';
  return { text, next: end + 1 };
}

// The fields of a frontmatter, each as GSD reads it (`fields`: the text of
// every scalar, lists of text, mappings of them) and as YAML 1.2's core
// schema types it (`typed`: `0.0` is the number 0), or what else the
// frontmatter holds: YAML that is a list or a scalar has no fields. An empty
// frontmatter is an empty mapping. Not a Result: a list is valid YAML, and
// the verdict names its shape; what cannot be parsed is the Result around it.
export type Fields = { readonly mapping: true; readonly fields: Mapping; readonly typed: Mapping } | { readonly mapping: false; readonly shape: string };

// Past this, a frontmatter is not metadata. The cap bounds the parse, whose
// time grows with the keys: a megabyte of them would hold a thread for
// seconds (off-thread.ts keeps large ones off the main thread).
const MAX_FRONTMATTER_BYTES = 64 * 1024;

// The answer when it comes without the YAML library: a frontmatter over the
// cap, or one of plain `key: value` lines. Undefined when the library must
// parse it (parseWithLibrary).
export function parseWithoutLibrary(yamlText: string, file: string): Result<Fields> | undefined {
  if (Buffer.byteLength(yamlText) > MAX_FRONTMATTER_BYTES) {
    return fail('invalid-artifact', `${file}: the frontmatter is larger than ${MAX_FRONTMATTER_BYTES / 1024} KiB`);
  }
  const simple = readSimpleFrontmatter(yamlText);
  return simple === undefined ? undefined : ok({ mapping: true, ...simple });
}

// A plain scalar that the core schema reads as something other than text:
// its text for GSD's reading, its value for the typed one. As a key it is its
// text (js-yaml turns a key into a string with String(), and passes over an
// object key only when its tag is `[object Object]`).
class Plain {
  constructor(
    readonly text: string,
    readonly value: unknown,
  ) {}
  toString(): string {
    return this.text;
  }
  get [Symbol.toStringTag](): string {
    return 'Plain';
  }
}

class AnchorRefused extends Error {}

const schemas = new WeakMap<JsYaml, Schema>();

// GSD's schema (failsafe: every scalar a string; only !!str, !!seq and !!map
// known, so `!!set`, `!!omap`, `!!merge` and the like are errors), plus a
// resolver that keeps what the core schema would make of a plain scalar.
function schemaOf(library: JsYaml): Schema {
  let schema = schemas.get(library);
  if (schema === undefined) {
    const plain = new library.Type('tag:gsd-check,2026:plain', {
      kind: 'scalar',
      resolve: (data) => data !== null && typeof coreScalar(data) !== 'string',
      construct: (data) => new Plain(data, coreScalar(data)),
    });
    schema = library.FAILSAFE_SCHEMA.extend({ implicit: [plain] });
    schemas.set(library, schema);
  }
  return schema;
}

// `library` is passed in: a parsing thread compiles its own (see
// frontmatter-worker.ts).
export function parseWithLibrary(yamlText: string, file: string, library: JsYaml): Result<Fields> {
  // js-yaml refuses NUL; GSD swaps it for a private-use character for the
  // parse and back after. Here the character is one the text does not hold.
  const nul = yamlText.includes('\0') ? unusedPrivateCharacter(yamlText) : undefined;
  if (nul === null) return fail('invalid-artifact', `${file}: the frontmatter holds NUL and every private-use character`);
  const text = nul === undefined ? yamlText : yamlText.split('\0').join(nul);
  const options: LoadOptions = {
    schema: schemaOf(library),
    // Off: a repeated key is an error here (differences.md, D8); GSD keeps the last.
    json: false,
    // Refused as GSD refuses them, before an alias can expand: throwing is the
    // only way to stop the library mid-parse.
    listener: (_, state) => {
      if (state.anchor !== null && state.anchor !== undefined) throw new AnchorRefused();
    },
  };
  let raw: unknown;
  try {
    raw = library.load(text, options);
  } catch (first) {
    const repaired = repairAmbiguousColons(text);
    let second: unknown = first;
    if (repaired !== text && !isRepeatedKey(first) && !(first instanceof AnchorRefused)) {
      try {
        raw = library.load(repaired, options);
        second = undefined;
      } catch (caught) {
        second = caught;
      }
    }
    if (second !== undefined) {
      // The repair's own error counts only when it is one GSD does not have (a
      // repeated key, an anchor); else the first one, as GSD reports.
      return fail('invalid-artifact', unreadable(file, isRepeatedKey(second) || second instanceof AnchorRefused ? second : first));
    }
  }
  // A lone `~` or `null` is no more a mapping to GSD than other text is: no fields either way.
  if (raw === null || raw === undefined || (raw instanceof Plain && raw.value === null)) return ok({ mapping: true, fields: {}, typed: {} });
  if (typeof raw !== 'object' || raw instanceof Plain) {
    return ok({ mapping: false, shape: `a ${typeof (raw instanceof Plain ? raw.value : raw)}` });
  }
  if (Array.isArray(raw)) return ok({ mapping: false, shape: 'a list' });
  const restore = nul === undefined ? (s: string) => s : (s: string) => s.split(nul).join('\0');
  const entries = Object.entries(raw);
  return ok({
    mapping: true,
    fields: Object.fromEntries(entries.map(([k, v]) => [restore(k), asText(v, restore)])),
    typed: Object.fromEntries(entries.map(([k, v]) => [restore(k), asTyped(v, restore)])),
  });
}

function unreadable(file: string, error: unknown): string {
  if (error instanceof AnchorRefused) return `${file}: the frontmatter uses an anchor or alias (& or *), which GSD refuses`;
  if (isYamlError(error)) {
    // Line 1 of the YAML is line 2 of the file.
    const at = error.mark === undefined ? '' : ` at line ${error.mark.line + 2}`;
    const reason = isRepeatedKey(error) ? 'Map keys must be unique' : error.reason;
    return `${file}: invalid YAML in the frontmatter${at}: ${reason}`;
  }
  // The parser recurses per nesting level (to 100), which a small stack may not hold.
  return `${file}: the frontmatter cannot be read as data: ${errorText(error)}`;
}

function isYamlError(error: unknown): error is YamlError {
  return error instanceof Error && error.name === 'YAMLException' && typeof (error as Partial<YamlError>).reason === 'string';
}

// The library gives its errors no code: the reason's text is all there is.
// The lockfile pins that text, and the frontmatter tests fail if it changes.
function isRepeatedKey(error: unknown): boolean {
  return isYamlError(error) && error.reason === 'duplicated mapping key';
}

// GSD's second try (its `repairAmbiguousColonValues`): a column-0 `key: value`
// line whose value holds a colon then a blank, or ends in one, and starts
// with no quote or bracket, is read with its value quoted, so that
// `title: Phase 4: Ship` is the text `Phase 4: Ship`. Lines are split on LF
// or CRLF and joined with LF.
export function repairAmbiguousColons(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const match = /^([A-Za-z0-9_][A-Za-z0-9_-]*):[ \t](.+)$/.exec(line);
      if (match === null) return line;
      const value = match[2]!;
      if (/^["'[{]/.test(value) || !/:(?:[ \t]|$)/.test(value)) return line;
      return `${match[1]}: "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    })
    .join('\n');
}

// A value as GSD reads it: text, lists of text (an item that is itself a
// list or a mapping flattened to one line, an empty item ''), mappings of
// them. An empty value stays null (GSD makes it `{}`: differences.md, D27).
function asText(value: unknown, restore: (s: string) => string, inList = false): unknown {
  if (value === null || value === undefined) return inList ? '' : null;
  if (typeof value === 'string') return restore(value);
  if (value instanceof Plain) return restore(value.text);
  if (Array.isArray(value)) {
    return value.map((item: unknown) =>
      item !== null && typeof item === 'object' && !(item instanceof Plain) ? restore(display(item)) : asText(item, restore, true),
    );
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [restore(k), asText(v, restore)]));
}

// One line for a list item that is a list or a mapping (GSD's
// flattenScalarForDisplay): `[a, b]`, `key: value, other: [x]`.
function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return `[${value.map(display).join(', ')}]`;
  if (typeof value === 'object' && !(value instanceof Plain)) {
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${display(v)}`)
      .join(', ');
  }
  return String(value);
}

// A value as YAML 1.2's core schema types it, in the same shape as the text.
function asTyped(value: unknown, restore: (s: string) => string): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return restore(value);
  if (value instanceof Plain) return value.value;
  if (Array.isArray(value)) return value.map((item: unknown) => asTyped(item, restore));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [restore(k), asTyped(v, restore)]));
}

function unusedPrivateCharacter(text: string): string | null {
  for (let code = 0xe000; code <= 0xf8ff; code++) {
    const c = String.fromCharCode(code);
    if (!text.includes(c)) return c;
  }
  return null;
}

// The frontmatter most gates read (`threats_open: 0`, `open_count: 2`), read
// without the YAML library, whose first use costs every such gate its
// compiling. Only a strict subset is read here: top-level `key: plain-scalar`
// lines, blank lines and comments, no key twice. For anything else the answer
// is undefined and the library reads it. Each value comes as GSD reads it
// (its text) and as YAML 1.2's core schema types it;
// test/artifact/frontmatter.property.test.ts holds this reading equal
// to the library's on every document it accepts.

const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+([A-Za-z0-9_.+~-]+))?(?:[ \t]+#.*)?[ \t]*$/;
const COMMENT = /^[ \t]*(?:#.*)?$/;

export function readSimpleFrontmatter(text: string): { fields: Record<string, unknown>; typed: Record<string, unknown> } | undefined {
  const fields: [string, unknown][] = [];
  const typed: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (COMMENT.test(line)) continue;
    const match = LINE.exec(line);
    if (match === null) return undefined;
    const key = match[1]!;
    const value = match[2];
    // A leading `-` that is not a number could start a sequence: the library decides.
    if (seen.has(key) || (value !== undefined && /^-(?![0-9.])/.test(value))) return undefined;
    seen.add(key);
    fields.push([key, value ?? null]);
    typed.push([key, value === undefined ? null : coreScalar(value)]);
  }
  // fromEntries defines own properties: a "__proto__" key is a field.
  return { fields: Object.fromEntries(fields), typed: Object.fromEntries(typed) };
}

// What YAML 1.2's core schema makes of a plain (unquoted) scalar: null, a
// boolean, a number, or the text itself. GSD reads every scalar as its text;
// this typed reading is what lets `0.0` match `equals: 0` besides
// (differences.md, D7).
export function coreScalar(text: string): unknown {
  if (/^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return asNumber(text, text, Number(text));
  if (/^0o[0-7]+$/.test(text)) return asNumber(text, BigInt(text).toString(), parseInt(text.slice(2), 8));
  if (/^0x[0-9a-fA-F]+$/.test(text)) return asNumber(text, BigInt(text).toString(), parseInt(text.slice(2), 16));
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return asNumber(text, text, Number(text));
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}

// A number only where a double holds it as written: rounded, `1e-400` would
// be 0 and `9007199254740993` would be 2^53, and pass a gate that compares
// numbers. Any other keeps its text, which matches no number (as in GSD).
function asNumber(text: string, decimalText: string, value: number): number | string {
  return Number.isFinite(value) && decimal(decimalText) === decimal(String(value)) ? value : text;
}

// A decimal numeral's exact value, written one way: sign, digits without
// zeros at either end, and the power of ten (`0.50` and `5e-1` are `5e-1`).
function decimal(numeral: string): string {
  const [, sign, whole = '', fraction = '', exponent = '0'] = /^([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/.exec(numeral) ?? [];
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  // A loop, not /0+$/, which backtracks quadratically over a run of zeros.
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  return `${sign === '-' ? '-' : ''}${digits.slice(0, end)}e${BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - end)}`;
}

// js-yaml 4.3.2, the parser GSD 1.14 reads frontmatter with (vendored there
// verbatim, as its `lib/vendor/js-yaml.cjs`): the same parser gives the same
// reading, error for error. Minified by build.mjs into this string and kept
// a string until a frontmatter gate needs it: V8 only scans a string literal,
// where the bundled functions would cost every gate parsing at start-up,
// whatever its kind.
declare const YAML_SOURCE: string;
declare const require: (id: string) => unknown;

// The part of js-yaml's interface that is used here (its own types are a
// separate package, and lag its options).
interface JsYaml {
  load(text: string, options: LoadOptions): unknown;
  readonly FAILSAFE_SCHEMA: Schema;
  readonly Type: new (tag: string, options: { kind: 'scalar'; resolve: (data: string | null) => boolean; construct: (data: string) => unknown }) => unknown;
}
interface Schema {
  extend(types: { implicit: unknown[] }): Schema;
}
interface LoadOptions {
  readonly schema: Schema;
  readonly json: boolean;
  readonly listener?: (event: 'open' | 'close', state: { readonly anchor: string | null | undefined }) => void;
}
// What js-yaml throws for text it cannot read: the reason without the
// excerpt, and where (0-based).
interface YamlError {
  readonly name: 'YAMLException';
  readonly reason: string;
  readonly mark?: { readonly line: number };
}

let loaded: JsYaml | undefined;

export function yaml(): JsYaml {
  loaded ??= compileYaml(yamlSource());
  return loaded;
}

// Also what a parsing thread compiles, handed over so that the thread's code
// carries no second copy. esbuild writes the string wherever YAML_SOURCE is
// named: here only.
export function yamlSource(): string {
  return YAML_SOURCE;
}

// The library's own code, fixed at build time: nothing from a predicate or
// an artifact is ever compiled here.
export function compileYaml(source: string): JsYaml {
  const module = { exports: {} as JsYaml };
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports;
}
