// How values from outside show in messages: control characters escaped, one
// line, cut short, a value described rather than dumped, a JSON path, a few
// items of a long list.

// Text from outside (artifact values, file names, capability ids, a query's
// answer, a command's output) made safe to print: control characters could
// forge lines or drive the terminal (ESC sequences, a carriage return over
// a verdict), and bidirectional overrides could reorder what a reader sees.
// Each is shown as an escape instead; on one line, so are Unicode's line and
// paragraph separators, which a viewer may break the line at.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escape(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

// For a line on stderr or a report: every control character escaped,
// newlines included.
export function visible(text: string): string {
  return text.replace(UNSAFE, escape);
}

// For an envelope's message, which may span lines (a command's tail, a
// query's report): newlines and tabs kept, every other control escaped.
export function printable(text: string): string {
  return text.replace(UNSAFE_BUT_LINES, escape);
}

// Text for a one-line summary: whitespace runs (newlines of a command's tail
// included) folded to one space, cut to at most `max` characters.
export function oneLine(text: string, max: number): string {
  return cut(text.replace(/\s+/g, ' ').trim(), max);
}

// Text cut to at most `max` characters, its end marked when it was.
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

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

// Names a few items of a list and counts the rest ("a, b, c and 29,997
// more"), each cut short: a message that lists a hostile input in full, once
// per issue, grows with the square of the input.
export function fewOf(items: readonly string[], shown = 5, width = 60): string {
  if (items.length === 0) return 'none';
  const head = items.slice(0, shown).map((item) => cut(item, width));
  return items.length > shown ? `${head.join(', ')} and ${items.length - shown} more` : head.join(', ');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Renders a path the way a reader would write it in JavaScript, so that
// odd keys (spaces, dots, "__proto__"-like names) stay unambiguous.
export function jsonPath(root: string, keys: readonly (string | number)[]): string {
  let out = root;
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

// "a", "a or b", "a, b or c".
export function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

// A command-line argument as a message shows it: bare when it is plain
// printable text, else quoted, so that a newline or a control character
// cannot break the one-line error.
export function shown(arg: string): string {
  return /^[\x21-\x7e]+$/.test(arg) ? arg : JSON.stringify(arg);
}
