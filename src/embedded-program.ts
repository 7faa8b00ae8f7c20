// dist/gsd-check ends with the program's text in a block comment (build.mjs):
// V8 skips a comment faster than it scans a string literal of the same text,
// which every start would pay for (docs/explanation/performance.md gives the
// figures). The launcher reads its own file back and takes the text from there.

export const PROGRAM_OPEN = '/* gsd-check program\n';
export const PROGRAM_CLOSE = '\n*/\n';

// The program's text, found at the end of `file` from its length; a copy whose
// line ends were rewritten (CRLF) still works, found by its markers; a cut
// one has none (undefined).
export function embeddedProgram(file: string, length: number): string | undefined {
  const end = file.length - PROGRAM_CLOSE.length;
  const start = end - length;
  if (start >= PROGRAM_OPEN.length && file.startsWith(PROGRAM_OPEN, start - PROGRAM_OPEN.length) && file.startsWith(PROGRAM_CLOSE, end)) {
    return file.slice(start, end);
  }
  const open = file.lastIndexOf(PROGRAM_OPEN.trimEnd());
  const close = file.lastIndexOf('*/');
  if (open === -1 || close < open) return undefined;
  return file.slice(file.indexOf('\n', open) + 1, close).replace(/\r?\n$/, '');
}
