// Text from outside (artifact values, file names, capability ids, a query's
// answer, a command's output) made safe to print: control characters could
// forge lines or drive the terminal (ESC sequences, a carriage return over
// a verdict), and bidirectional overrides could reorder what a reader sees.
// Each is shown as an escape instead.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
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
