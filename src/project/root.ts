import { lstatSync, statSync } from 'node:fs';
import { dirname, join, relative, sep, isAbsolute, resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { exists, isDirectory, entryKind, realPath, contains } from '../fs/entry.ts';
import { readSmallFile } from '../fs/read.ts';
import { isJsonObject } from '../json/parse.ts';
import { readConfigFile } from './config-file.ts';

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

// --project-dir names the project root itself, as in GSD 1.14: no search
// up from it, so it must hold `.planning/` (an ancestor to search from is
// what --cwd is for). Relative to the current directory, as GSD takes it.
// A value that names no project root is a usage error, as GSD routes it
// (`--json-errors` reason `usage`); a directory that was there and is gone
// or shut is bad-cwd, as for --cwd.
export function explicitProjectRoot(given: string, current: () => string): Result<string> {
  let root: string;
  try {
    root = isAbsolute(given) ? resolve(given) : resolve(current(), given);
  } catch {
    return fail('bad-cwd', `the current directory no longer exists; give --project-dir ${given} as an absolute path`);
  }
  const kind = entryKind(root);
  if (kind !== 'dir') return fail('usage', `--project-dir ${root}: ${kind === undefined ? 'no such directory' : 'not a directory'}`);
  if (entryKind(join(root, '.planning')) !== 'dir') {
    return fail(
      'usage',
      `--project-dir ${root} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)`,
    );
  }
  return ok(root);
}

interface WorkspaceConfig {
  // Top-level directories of the workspace that are repositories of its own
  // project: `sub_repos` at the top or under `planning` (GSD documents the
  // latter, still reads the former).
  readonly subRepos: readonly string[];
  // The legacy switch for the same thing: any nested repository belongs.
  readonly multiRepo: boolean;
}

const NONE: WorkspaceConfig = { subRepos: [], multiRepo: false };

// What `<dir>/.planning/config.json` says about the repositories below it. A
// config that is missing or cannot be read (not strict JSON, a key given
// twice included, not an object) says nothing, as in GSD, where the search
// then goes on; activation reads the same file by the same rule and fails.
export function workspaceConfig(dir: string): WorkspaceConfig {
  const path = join(dir, '.planning', 'config.json');
  const read = readConfigFile(path, `config ${path}`);
  if (!read.ok || read.value === undefined) return NONE;
  const config = read.value;
  const planning = config.planning;
  // GSD: the top-level key wins when it is there at all, even if not a list.
  const list = config.sub_repos ?? (isJsonObject(planning) ? planning.sub_repos : undefined);
  return {
    subRepos: Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [],
    multiRepo: config.multiRepo === true,
  };
}

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

// How far up the root search may look: GSD's 10 levels, and never at the
// home directory or anything above it, which hold a user's other work, not
// this project. HOME is compared as written and as its real path, so a HOME
// reached through a symbolic link still stops the search.
export interface SearchBounds {
  readonly maxLevels: number;
  stopsAt(dir: string): boolean;
  // Whether a .planning or .git entry may claim the start (see trustedEntry).
  trusts(entry: string): boolean;
}

const MAX_LEVELS = 10;

function searchBounds(home: string | undefined, uid?: number): SearchBounds {
  const trusts = (entry: string): boolean => trustedEntry(entry, uid);
  if (home === undefined || home === '') return { maxLevels: MAX_LEVELS, stopsAt: () => false, trusts };
  const homes = [...new Set([resolve(home), realPath(home) ?? resolve(home)])];
  return { maxLevels: MAX_LEVELS, stopsAt: (dir) => homes.some((h) => contains(dir, h)), trusts };
}

// Whether a `.planning` or `.git` entry may steer the root search towards
// itself. A shared ancestor (/tmp, a CI workspace, /home) is where someone
// else can plant one, so an entry counts only when nobody else could have put
// it there:
// - its directory is not world-writable, or is sticky and the entry is ours;
// - and it is ours or root's, unless we are root (a root CI job in a checkout
//   owned by another uid must still find its project).
// `uid` undefined (no owners on this platform): every entry counts.
export function trustedEntry(path: string, uid: number | undefined): boolean {
  if (uid === undefined) return true;
  let owner: number;
  let parentMode: number;
  try {
    owner = lstatSync(path).uid;
    parentMode = statSync(dirname(path)).mode;
  } catch {
    return false;
  }
  const worldWritable = (parentMode & 0o002) !== 0;
  if (worldWritable) return (parentMode & 0o1000) !== 0 && owner === uid;
  return owner === uid || owner === 0 || uid === 0;
}
