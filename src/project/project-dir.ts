import { isAbsolute, join, resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { entryKind } from '../fs/entry.ts';

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
    return fail('usage', `--project-dir ${root} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)`);
  }
  return ok(root);
}
