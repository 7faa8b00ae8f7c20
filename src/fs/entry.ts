import { accessSync, constants, lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { readRegular } from './read-regular.ts';

// Paths and what is at them: the probes every reader makes before it reads.

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

// The canonical path, or undefined when there is none (gone, unsearchable).
export function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

// The canonical path of a path that may not exist yet: its own where it
// exists, else its nearest existing ancestor's with the rest appended (how
// GSD canonicalizes a phase directory). A symbolic link that leads nowhere
// has none: where it would lead is unknown.
export function canonicalPath(path: string): string | undefined {
  const real = realPath(path);
  if (real !== undefined) return real;
  if (isLink(path)) return undefined;
  const rest: string[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    if (dirname(dir) === dir) return path;
    rest.unshift(basename(dir));
    const ancestor = realPath(dirname(dir));
    if (ancestor !== undefined) return join(ancestor, ...rest);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

// Whether we may list a directory and enter it. Without this, a project root
// we cannot enter surfaces as the command's verdict (`command exited 126:
// sh: permission denied`) and an artifact in it as "not found": both blame
// the gate for what is the caller's mistake.
// Whether we may enter a directory (search it), whether or not we may list it.
export function isEnterable(dir: string): boolean {
  try {
    accessSync(dir, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function isReadableDirectory(dir: string): boolean {
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// Whether `path` is `dir` itself or lies below it (both absolute, resolved).
export function contains(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
