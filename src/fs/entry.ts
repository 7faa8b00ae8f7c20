import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';

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

// Reads a small regular file, or answers undefined. Opened first and checked
// on the descriptor, never stat-then-open: a FIFO swapped in must not block
// (O_NONBLOCK), and `/dev/zero` or a huge file must not fill memory.
export function readSmallFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > SMALL_FILE_BYTES) return undefined;
    const buffer = Buffer.alloc(SMALL_FILE_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length <= SMALL_FILE_BYTES; length += read) {
      read = readSync(fd, buffer, length, buffer.length - length, null);
    }
    return length > SMALL_FILE_BYTES ? undefined : buffer.toString('utf8', 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
