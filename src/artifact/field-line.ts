// Where a top-level field sits, for a report to point at it: the index,
// counted from 0 within the frontmatter's text, of the last line that gives
// it as a key (the last of a key given twice is the one GSD reads), bare or
// quoted. Undefined when no line does so plainly (a flow mapping, a complex
// key): the caller points at the frontmatter itself.
export function fieldLineIndex(yamlText: string, field: string): number | undefined {
  let found: number | undefined;
  yamlText.split('\n').forEach((line, index) => {
    const match = KEY_LINE.exec(line);
    if (match === null) return;
    const [, double, single, plain] = match;
    const key = double !== undefined ? unescapeDouble(double) : single !== undefined ? single.replaceAll("''", "'") : plain!.trimEnd();
    if (key === field) found = index;
  });
  return found;
}

const KEY_LINE = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"?:,[\]{}&*!|>%@`-](?:[^:\n]|:(?![ \t\r]|$))*?))[ \t]*:(?:[ \t\r]|$)/;

function unescapeDouble(text: string): string | undefined {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return undefined;
  }
}
