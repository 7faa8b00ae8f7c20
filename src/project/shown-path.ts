import { relative } from 'node:path';
import { canonicalPath, contains } from '../fs/entry.ts';

// How a run names the files it read, in its messages and annotations.
// check predicate speaks as GSD's does: the artifact a verdict is about
// relative to the project root, any other place (a directory searched in
// vain, a file that cannot be read) as an absolute path.
// gates run speaks to a CI log and a pull request: every path relative to
// the repository's checkout (GITHUB_WORKSPACE) when it is inside it, else
// to the project root, never the runner's /home/runner/work/….
export interface PathShower {
  readonly artifact: (absolute: string) => string;
  readonly place: (absolute: string) => string;
}

export const gsdPaths = (root: string): PathShower => ({ artifact: (path) => relative(root, path), place: (path) => path });

export function workspacePaths(root: string, workspace: string | undefined): PathShower {
  const shown = workspaceRelative(root, workspace);
  return { artifact: shown, place: shown };
}

// Both compared as real paths, as the project root is one. `workspace` is
// absolute, as report/github-environment.ts takes it from the runner.
export function workspaceRelative(root: string, workspace: string | undefined): (absolute: string) => string {
  const base = workspace === undefined ? undefined : (canonicalPath(workspace) ?? workspace);
  return (path) => relative(base !== undefined && contains(base, path) ? base : root, path) || '.';
}
