import { dirname, join, relative, sep } from 'node:path';
import { exists, isDirectory } from '../fs/entry.ts';
import { searchBounds, type SearchBounds } from './bounds.ts';
import { workspaceConfig } from './workspace-config.ts';
import { mainWorktree } from './worktree.ts';

// Where a gate's command runs: the GSD project root that `start` belongs to,
// by GSD's own rules (gsd-tools' linked-worktree step, then project-root.cts),
// so a gate runs in the same directory whichever tool evaluates it. Reads the
// file system only; never starts git. Where it is stricter than GSD (the
// bounds, the worktree check), docs/reference/differences.md says so.
export function findProjectRoot(start: string, home: string | undefined, uid?: number): string {
  const bounds = searchBounds(home, uid);
  // In a linked worktree without a .planning of its own, the project is the
  // main worktree's.
  const own = join(start, '.planning');
  const from = exists(own) && bounds.trusts(own) ? start : (mainWorktree(start, bounds) ?? start);
  return searchFrom(from, bounds);
}

function searchFrom(start: string, bounds: SearchBounds): string {
  if (hasPlanning(start, bounds)) return start;
  return claimedAncestor(start, bounds) ?? nearestAncestor(start, bounds) ?? start;
}

// An ancestor with .planning that owns `start`: it lists start's top
// directory in sub_repos, or says multiRepo with a repository on the way, or
// is the repository start lies in (unless an ancestor further up claims it).
function claimedAncestor(start: string, bounds: SearchBounds): string | undefined {
  for (const parent of ancestors(start, bounds)) {
    if (!hasPlanning(parent, bounds)) continue;
    const config = workspaceConfig(parent);
    if (config.subRepos.includes(topSegment(parent, start))) return parent;
    const inRepository = gitOnTheWay(start, parent, bounds);
    if (config.multiRepo && inRepository) return parent;
    if (!inRepository || nestedRepository(start, parent)) continue;
    for (const outer of ancestors(parent, bounds)) {
      if (hasPlanning(outer, bounds) && workspaceConfig(outer).subRepos.includes(topSegment(outer, start))) return outer;
    }
    return parent;
  }
  return undefined;
}

// The nearest ancestor with .planning, unless a repository of its own lies
// between: that is a different project.
function nearestAncestor(start: string, bounds: SearchBounds): string | undefined {
  for (const parent of ancestors(start, bounds)) {
    if (hasPlanning(parent, bounds)) return nestedRepository(start, parent) ? undefined : parent;
  }
  return undefined;
}

// The ancestors of `dir` the search may look at, nearest first.
function* ancestors(dir: string, bounds: SearchBounds): Generator<string> {
  for (let level = 0; level < bounds.maxLevels; level++) {
    const parent = dirname(dir);
    if (parent === dir || bounds.stopsAt(parent)) return;
    yield parent;
    dir = parent;
  }
}

// A .git entry in `start` or any directory up to and including `top`: it
// adopts `start` into top's project, so it must be one we trust.
function gitOnTheWay(start: string, top: string, bounds: SearchBounds): boolean {
  for (let dir = start; ; dir = dirname(dir)) {
    const git = join(dir, '.git');
    if (exists(git) && bounds.trusts(git)) return true;
    if (dir === top || dirname(dir) === dir) return false;
  }
}

// A .git entry in `start` or a directory between it and `top`, `top`
// excluded. As a boundary, any .git counts, trusted or not: it can only
// keep the search from adopting `start`.
function nestedRepository(start: string, top: string): boolean {
  for (let dir = start; dir !== top && dirname(dir) !== dir; dir = dirname(dir)) {
    if (exists(join(dir, '.git'))) return true;
  }
  return false;
}

function topSegment(ancestor: string, start: string): string {
  return relative(ancestor, start).split(sep)[0] ?? '';
}

function hasPlanning(dir: string, bounds: SearchBounds): boolean {
  const planning = join(dir, '.planning');
  return isDirectory(planning) && bounds.trusts(planning);
}
