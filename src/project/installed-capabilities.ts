import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { exists, isDirectory, systemCode } from '../fs/entry.ts';

// Where GSD 1.14 keeps the capabilities installed beside its own, and finds
// them (capability-loader.cjs's overlayRoots and loadRegistry): a folder
// per capability, named for its id, holding capability.json, under
// `.gsd/capabilities/` of GSD's home (GSD_HOME, else the home directory),
// then of the project.

const LAYOUT = ['.gsd', 'capabilities'] as const;
const MANIFEST = 'capability.json';

export interface InstalledCapability {
  // The folder's name, which GSD takes for the id.
  readonly id: string;
  readonly path: string;
  // Where GSD found it: a project's capability loads only once its user has
  // consented to it on this machine; one in GSD's home needs no consent.
  readonly scope: 'global' | 'project';
}

// Every folder GSD would read a capability from, in the order it reads
// them: GSD's home first (whose capabilities win a clash of ids), each
// directory in the order it lists them. A folder without capability.json
// is listed too: GSD finds it, and skips it with a warning.
export function installedCapabilities(projectRoot: string, env: Readonly<Record<string, string | undefined>>, home: string | undefined): InstalledCapability[] {
  const gsdHome = env.GSD_HOME || home;
  const project = join(projectRoot, ...LAYOUT);
  const roots: { dir: string; scope: InstalledCapability['scope'] }[] = [];
  const marked = isDirectory(join(projectRoot, '.planning')) || exists(join(projectRoot, '.git'));
  if (gsdHome !== undefined && gsdHome !== '') {
    const global = join(gsdHome, ...LAYOUT);
    // One directory is read once, as the project's when there is a project.
    if (canonical(global).path === canonical(project).path) return listed([{ dir: resolve(global), scope: marked ? 'project' : 'global' }]);
    roots.push({ dir: resolve(global), scope: marked ? globalScope(global, project) : 'global' });
  }
  roots.push({ dir: resolve(project), scope: 'project' });
  return listed(roots);
}

// The folder a capability file sits in when it is where GSD keeps one
// (`.gsd/capabilities/<folder>/capability.json`), which its id must equal.
export function installedFolder(path: string): string | undefined {
  const folder = dirname(path);
  const root = dirname(folder);
  return basename(path) === MANIFEST && basename(root) === LAYOUT[1] && basename(dirname(root)) === LAYOUT[0] ? basename(folder) : undefined;
}

function listed(roots: readonly { dir: string; scope: InstalledCapability['scope'] }[]): InstalledCapability[] {
  return roots.flatMap(({ dir, scope }) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    // A link to a directory is no folder of GSD's.
    return entries.filter((entry) => entry.isDirectory()).map((entry) => ({ id: entry.name, path: join(dir, entry.name, MANIFEST), scope }));
  });
}

function canonical(dir: string): { path: string; failed: boolean; absent: boolean } {
  try {
    return { path: realpathSync(dir), failed: false, absent: false };
  } catch (error) {
    const code = systemCode(error);
    return { path: resolve(dir), failed: true, absent: code === 'ENOENT' || code === 'ENOTDIR' };
  }
}

// Beside a project (with .planning/ or .git) that has capabilities, GSD's
// home is trusted only where it is provably another directory: one that
// could be an alias of the project's needs consent as the project's does.
function globalScope(global: string, project: string): InstalledCapability['scope'] {
  const theirs = canonical(project);
  if (theirs.failed && theirs.absent) return 'global';
  const ours = canonical(global);
  return !ours.failed && !theirs.failed ? 'global' : 'project';
}
