import { statSync } from 'node:fs';
import { readRegular } from './read-regular.ts';

export type EntryKind = 'dir' | 'file' | 'other';

// What is at `path`, following symbolic links; undefined when nothing is, or
// when a directory on the way cannot be searched (as good as absent).
export function entryKind(path: string): EntryKind | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    return stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

export const isDirectory = (path: string): boolean => entryKind(path) === 'dir';

export const exists = (path: string): boolean => entryKind(path) !== undefined;

// The small text files of a project's layout (`.git` files, `commondir`,
// `gitdir`, `.planning/config.json`): past this size they are not what they
// claim to be.
const SMALL_FILE_BYTES = 256 * 1024;

// Reads a small regular file whole (see readRegular: no FIFO, no device, no
// more than the cap), or answers undefined.
export function readSmallFile(path: string): string | undefined {
  const read = readRegular(path, SMALL_FILE_BYTES);
  return read.ok && read.complete ? read.bytes.toString('utf8') : undefined;
}
