import { artifactFrontmatterEquals } from './artifact-frontmatter-equals.ts';
import { commandExitZero } from './command-exit-zero.ts';
import type { Kind } from '../predicate/kind.ts';

// The built-in kinds. A Map, not an object literal, so inherited names such as
// "constructor" or "__proto__" can never be looked up as kinds.
export const KINDS: ReadonlyMap<string, Kind> = new Map([
  ['command-exit-zero', commandExitZero],
  ['artifact-frontmatter-equals', artifactFrontmatterEquals],
]);
