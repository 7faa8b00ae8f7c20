import { resolve } from 'node:path';
import { realPath, contains } from '../fs/entry.ts';
import { trustedEntry } from './trust.ts';

// How far up the root search may look: GSD's 10 levels, and never at the
// home directory or anything above it, which hold a user's other work, not
// this project. HOME is compared as written and as its real path, so a HOME
// reached through a symbolic link still stops the search.
export interface SearchBounds {
  readonly maxLevels: number;
  stopsAt(dir: string): boolean;
  // Whether a .planning or .git entry may claim the start (see trust.ts).
  trusts(entry: string): boolean;
}

const MAX_LEVELS = 10;

export function searchBounds(home: string | undefined, uid?: number): SearchBounds {
  const trusts = (entry: string): boolean => trustedEntry(entry, uid);
  if (home === undefined || home === '') return { maxLevels: MAX_LEVELS, stopsAt: () => false, trusts };
  const homes = [...new Set([resolve(home), realPath(home) ?? resolve(home)])];
  return { maxLevels: MAX_LEVELS, stopsAt: (dir) => homes.some((h) => contains(dir, h)), trusts };
}
