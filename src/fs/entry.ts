import { accessSync, constants, lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep, delimiter } from 'node:path';

// Paths and what is at them: the probes every reader makes before it reads,
// the program a name finds on PATH, and what a failed call on a path says.

type EntryKind = 'dir' | 'file' | 'other';

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

// The first executable regular file named `name` in the directories of PATH
// (absolute ones only: a relative PATH entry would depend on where gsd-check
// happens to run), or undefined.
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there, or not executable
    }
  }
  return undefined;
}

// A thrown value's system error code (ENOENT, EMFILE…), or undefined when
// it has none.
export function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

// What went wrong, from a thrown value: its system error code when it has
// one, else its message. Every reader, writer and the runner name failures
// this way.
export function errorCode(error: unknown): string {
  return systemCode(error) ?? errorText(error);
}

// A thrown value as text: an Error's message, anything else as it prints.
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A file-system call that failed for want of descriptors says nothing about
// the file: a lookup or read that meets this must fail the gate, never answer
// "not found" or skip it.
export function isOutOfDescriptors(code: string): boolean {
  return code === 'EMFILE' || code === 'ENFILE';
}
