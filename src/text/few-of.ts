// Names a few items of a list and counts the rest ("a, b, c and 29,997
// more"), each cut short: a message that lists a hostile input in full, once
// per issue, grows with the square of the input.
export function fewOf(items: readonly string[], shown = 5, width = 60): string {
  if (items.length === 0) return 'none';
  const head = items.slice(0, shown).map((item) => (item.length > width ? `${item.slice(0, width - 3)}...` : item));
  return items.length > shown ? `${head.join(', ')} and ${items.length - shown} more` : head.join(', ');
}
