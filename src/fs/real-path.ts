import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

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
