import { visible } from './format.ts';

// What GitHub's runner reads as workflow commands in a step's log, written
// once for every writer that reaches it (gsd-check under GitHub Actions, the
// Action's entry). The runner splits the log into lines at CR and LF, then
// takes a line as a command when, its leading blanks trimmed, it starts with
// `::` (`::name props::data`), or when it holds `##[` anywhere (the older
// `##[name props]data`). A command sets outputs, masks values, stops the
// processing of commands: so only the lines gsd-check means as commands may
// read as one, and every value in them is escaped.

// `##[` written with its second `#` as a JSON escape: a JSON envelope keeps
// its value, and in text the escape reads as what it stands for.
const V1_PREFIX = /##\[/g;
const BROKEN_PREFIX = '#\\u0023[';
// Blanks as the runner's TrimStart and JavaScript's \s count them, together.
const LEADING_COMMAND = /^([\s\u0085]*):(?=:)/;

// Text that is not a command, made so that no line of it reads as one: any
// `##[` broken, and a line that would start with `::` given an escaped first
// colon. A JSON document has no line that starts with `::` (every value is
// inside a string), so it stays the same JSON.
export function inertLog(text: string): string {
  return text
    .split(/(\r\n|\r|\n)/)
    .map((part) => part.replace(V1_PREFIX, BROKEN_PREFIX).replace(LEADING_COMMAND, '$1\\u003a'))
    .join('');
}

// A command's data (its message): GitHub's escaping of %, CR and LF, other
// control characters shown as escapes (they would drive the log's
// terminal), and `##[` broken as above.
export function commandData(value: string): string {
  return visible(value.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')).replace(V1_PREFIX, BROKEN_PREFIX);
}

// A property value (a title, a file) also escapes the separators of the
// property list.
export function commandProperty(value: string): string {
  return commandData(value).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
