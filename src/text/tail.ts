const TAIL_CHARS = 2000;

// CSI (7- and 8-bit), OSC, DCS/SOS/PM/APC strings and two-byte escapes. String
// bodies stop at a newline so an unterminated one cannot swallow the output.
const ANSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?|\x1b[ -/]*[0-~]|\x1b/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

interface Tail {
  readonly text: string;
  // True when the tail leaves out some of what it was given.
  readonly cut: boolean;
}

// Progress bars rewrite their line with carriage returns; a terminal shows
// the last piece written, and so does the message. Linear: a regular
// expression here backtracked quadratically over a long line without a newline.
export function settleCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .split('\n')
    .map((line) => {
      const end = line.endsWith('\r') ? line.length - 1 : line.length;
      const pieces = line.slice(0, end).split('\r');
      return pieces.findLast((piece) => piece !== '') ?? '';
    })
    .join('\n');
}

// The end of the output as a person would read it: no colour codes, progress
// lines as they were left, no surrounding blank space, at most `limit` UTF-16
// units, never half a pair.
export function tailOf(output: string, limit = TAIL_CHARS): Tail {
  const clean = settleCarriageReturns(stripAnsi(output)).trim();
  if (clean.length <= limit) return { text: clean, cut: false };
  let text = clean.slice(clean.length - limit);
  const first = text.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) text = text.slice(1);
  return { text: text.trimStart(), cut: true };
}
