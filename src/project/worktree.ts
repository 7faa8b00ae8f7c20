import { dirname, join, resolve } from 'node:path';
import { entryKind, realPath } from '../fs/entry.ts';
import { readSmallFile } from '../fs/read.ts';
import type { SearchBounds } from './bounds.ts';

// The main worktree of the linked worktree that `start` lies in, found the
// way git would (`--git-dir` differs from `--git-common-dir`) but from the
// files alone, without starting git. Undefined when `start` is in no linked
// worktree: in a main worktree, a plain repository, a submodule, or nothing.
export function mainWorktree(start: string, bounds: SearchBounds): string | undefined {
  for (let dir = start, level = 0; level <= bounds.maxLevels; level++) {
    if (level > 0 && bounds.stopsAt(dir)) return undefined;
    const dotGit = join(dir, '.git');
    const kind = entryKind(dotGit);
    if (kind === 'dir') return undefined;
    if (kind === 'file') return bounds.trusts(dotGit) ? fromGitFile(dotGit) : undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

// A `.git` file says `gitdir: <the worktree's entry>`; that entry is trusted
// only when it is a real one: it has a `commondir` (a submodule's has none)
// and its `gitdir` file points back at this very `.git` file. A `.git` file
// planted in a shared ancestor cannot adopt directories it does not own.
function fromGitFile(dotGit: string): string | undefined {
  const match = /^gitdir:[ \t]*(.+?)[ \t]*\r?$/m.exec(readSmallFile(dotGit) ?? '');
  if (match === null) return undefined;
  const entry = resolve(dirname(dotGit), match[1]!);
  const back = readSmallFile(join(entry, 'gitdir'))?.trim();
  const common = readSmallFile(join(entry, 'commondir'))?.trim();
  if (back === undefined || back === '' || common === undefined || common === '') return undefined;
  const self = realPath(dotGit);
  if (self === undefined || realPath(resolve(entry, back)) !== self) return undefined;
  // GSD takes the parent of the common dir as the main worktree.
  return dirname(resolve(entry, common));
}
