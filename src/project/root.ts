import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { contains } from './contains.ts';

const MAX_LEVELS = 10;

// Where a gate's command runs: the GSD project root that `start` belongs to.
// Mirrors GSD's own search, so a gate runs in the same directory whichever
// tool evaluates it. Only reads the file system; never starts git.
export function findProjectRoot(start: string, home: string | undefined): string {
  if (hasPlanning(start)) return start;
  const ancestor = planningAncestor(start, home);
  if (ancestor !== undefined) return ancestor;
  const main = mainWorktree(start);
  if (main !== undefined && hasPlanning(main)) return main;
  return start;
}

function planningAncestor(start: string, home: string | undefined): string | undefined {
  const homeDir = home === undefined || home === '' ? undefined : resolve(home);
  let nestedRepo = exists(join(start, '.git'));
  let dir = start;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    // The home directory and everything above it hold a user's other work, not
    // this project: never candidates.
    if (homeDir !== undefined && contains(parent, homeDir)) return undefined;
    if (hasPlanning(parent)) {
      if (!nestedRepo) return parent;
      const first = relative(parent, start).split(sep)[0];
      return first !== undefined && subRepos(parent).includes(first) ? parent : undefined;
    }
    if (exists(join(parent, '.git'))) nestedRepo = true;
    dir = parent;
  }
  return undefined;
}

function subRepos(root: string): string[] {
  try {
    const config: unknown = JSON.parse(readFileSync(join(root, '.planning', 'config.json'), 'utf8'));
    const list = (config as { sub_repos?: unknown } | null)?.sub_repos;
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

// A linked worktree has a `.git` file naming its git dir; that dir's
// `commondir` leads to the main repository's `.git`, whose parent is the main
// worktree.
function mainWorktree(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const kind = entryKind(dotGit);
    if (kind === 'dir') return undefined;
    if (kind === 'file') return mainFromGitFile(dotGit);
    if (dirname(dir) === dir) return undefined;
  }
}

function mainFromGitFile(dotGit: string): string | undefined {
  const text = readText(dotGit);
  const match = text === undefined ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (match === null) return undefined;
  const gitDir = resolve(dirname(dotGit), match[1]!);
  const common = readText(join(gitDir, 'commondir'));
  const commonDir = common === undefined ? undefined : resolve(gitDir, common.trim());
  // A submodule's .git file has no commondir: it is not a linked worktree.
  if (commonDir === undefined || basename(commonDir) !== '.git') return undefined;
  return dirname(commonDir);
}

function hasPlanning(dir: string): boolean {
  return entryKind(join(dir, '.planning')) === 'dir';
}

function exists(path: string): boolean {
  return entryKind(path) !== undefined;
}

export function entryKind(path: string): 'dir' | 'file' | 'other' | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    return stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : 'other';
  } catch {
    // Unsearchable or not a directory on the way: as good as absent.
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
