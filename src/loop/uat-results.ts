// A UAT file's test results as GSD 1.14 reads them (bin/lib/uat-predicate.cjs,
// the reading `init verify-work` and `phase uat-passed` make): each `### N.
// Name` block's first `result:` line at column 0, lower-cased and without
// its brackets (`[pending]`, `pending` and `[Pending]` are all `pending`), or
// `missing` where a block has none. What can hold a line that only looks like
// a result is left out first: the frontmatter at the top, HTML comments (one
// left open runs to the end), fenced code and quoted lines.

const HEADING = /^###\s*(\d+)\.\s*(.+)$/;
const RESULT = /^result:[ \t]*\[?([\w-]+)\]?/i;

export function uatResults(text: string): string[] {
  const clean = withoutLookalikes(text.replace(/\r\n?/g, '\n'));
  // Headings are found across U+2028 and U+2029 too; a block's result line
  // only on a line of its own.
  const lines = clean.split(/[\n\u2028\u2029]/);
  const headings: { start: number; end: number }[] = [];
  let offset = 0;
  for (const line of lines) {
    if (HEADING.test(line)) headings.push({ start: offset, end: offset + line.length });
    offset += line.length + 1;
  }
  return headings.map((heading, i) => {
    const block = clean.slice(heading.end, headings[i + 1]?.start ?? clean.length);
    const found = block
      .split('\n')
      .map((line) => RESULT.exec(line))
      .find((match) => match !== null);
    return found == null ? 'missing' : found[1]!.toLowerCase();
  });
}

function withoutLookalikes(text: string): string {
  const body = text.replace(/^---\n[\s\S]*?\n---[ \t]*(\n|$)/, '').replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  return withoutFences(body)
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
}

// Fenced code out, as CommonMark fences it: an opening run of three or more
// backticks or tildes indented up to three spaces (a backtick one with no
// backtick after it), closed by a run of the same character at least as
// long with nothing after it but blanks; every fence line goes too.
function withoutFences(text: string): string {
  const kept: string[] = [];
  let open: { char: string; length: number } | undefined;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence === null) {
      if (open === undefined) kept.push(line);
      continue;
    }
    const [run, rest] = [fence[1]!, fence[2]!];
    if (open === undefined) {
      if (run[0] === '`' && rest.includes('`')) kept.push(line);
      else open = { char: run[0]!, length: run.length };
    } else if (run[0] === open.char && run.length >= open.length && /^\s*$/.test(rest)) {
      open = undefined;
    }
  }
  return kept.join('\n');
}
