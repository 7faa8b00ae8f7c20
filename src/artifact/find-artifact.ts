import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { contains } from '../project/contains.ts';

// Where an artifact named `name` lives under `dir`, in the order GSD looks:
// `dir/name`, `dir/.planning/name`, then the first file in `dir`, in sorted
// order, named `name` or ending with `-name` (`03-SECURITY.md`). Only regular
// files count, and nothing that resolves outside `dir` (a symlink out of it).
export function findArtifact(dir: string, name: string): string | undefined {
  const root = real(dir);
  if (root === undefined) return undefined;
  for (const candidate of [join(dir, name), join(dir, '.planning', name)]) {
    if (namedExactly(candidate) && isContainedFile(candidate, root)) return candidate;
  }
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  const suffix = `-${name}`;
  for (const entry of entries.filter((e) => e === name || e.endsWith(suffix)).sort()) {
    const candidate = join(dir, entry);
    if (isContainedFile(candidate, root)) return candidate;
  }
  return undefined;
}

function isContainedFile(path: string, root: string): boolean {
  try {
    const link = lstatSync(path);
    if (!link.isFile() && !link.isSymbolicLink()) return false;
    const target = real(path);
    if (target === undefined || !statSync(target).isFile()) return false;
    return target !== root && contains(root, target);
  } catch {
    return false;
  }
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

// On a case-insensitive file system (macOS, Windows) `security.md` opens as
// `SECURITY.md`; the search takes only the name as written, as the
// directory-listing step below does and as Linux would.
function namedExactly(path: string): boolean {
  try {
    return readdirSync(dirname(path)).includes(basename(path));
  } catch {
    return false;
  }
}
