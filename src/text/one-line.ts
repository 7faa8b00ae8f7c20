// Text for a one-line summary: whitespace runs (newlines of a command's tail
// included) folded to one space, cut to at most `max` characters.
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
