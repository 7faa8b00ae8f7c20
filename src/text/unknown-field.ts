import { closest } from './closest.ts';

// What a field outside `known` is told: the known field it most likely
// meant, else the whole list.
export function unknownField(key: string, known: readonly string[]): string {
  const hint = closest(key, known);
  return hint === undefined ? `unknown field (known fields: ${known.join(', ')})` : `unknown field; did you mean "${hint}"?`;
}
