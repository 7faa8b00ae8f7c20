import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { installedCapabilities, installedFolder, type InstalledCapability } from '../../src/project/installed-capabilities.ts';
import { project } from '../helpers/project.ts';

const CAPS = '.gsd/capabilities';
const row = (root: string, c: InstalledCapability): string[] => [c.scope, c.id, c.path.slice(root.length + 1)];
const listed = (root: string, env: Record<string, string | undefined>, home: string | undefined) =>
  installedCapabilities(join(root, 'proj'), env, home).map((c) => row(root, c));
const sorted = (rows: string[][]) => [...rows].sort((a, b) => (a[0]! + a[1]!).localeCompare(b[0]! + b[1]!));

test("GSD's home first, then the project's; each folder a capability named for it", (t) => {
  const root = project(t, {
    [`home/${CAPS}/alpha/capability.json`]: '{}',
    [`home/${CAPS}/beta/capability.json`]: '{}',
    [`proj/.planning`]: null,
    [`proj/${CAPS}/gamma/capability.json`]: '{}',
    // Found as GSD finds it, though it has no manifest: GSD warns and skips it.
    [`proj/${CAPS}/empty`]: null,
    // A file is no capability.
    [`proj/${CAPS}/stray.json`]: '{}',
  });
  const rows = listed(root, {}, join(root, 'home'));
  assert.deepEqual(sorted(rows.filter((r) => r[0] === 'global')), [
    ['global', 'alpha', `home/${CAPS}/alpha/capability.json`],
    ['global', 'beta', `home/${CAPS}/beta/capability.json`],
  ]);
  assert.deepEqual(sorted(rows.filter((r) => r[0] === 'project')), [
    ['project', 'empty', `proj/${CAPS}/empty/capability.json`],
    ['project', 'gamma', `proj/${CAPS}/gamma/capability.json`],
  ]);
  assert.deepEqual(
    rows.map((r) => r[0]),
    ['global', 'global', 'project', 'project'],
    "the home's come first",
  );
});

test('GSD_HOME over the home directory, an empty one ignored; none, nothing of the home', (t) => {
  const root = project(t, { [`gsd/${CAPS}/a/capability.json`]: '{}', [`home/${CAPS}/b/capability.json`]: '{}', proj: null });
  assert.deepEqual(
    listed(root, { GSD_HOME: join(root, 'gsd') }, join(root, 'home')).map((r) => r[1]),
    ['a'],
  );
  assert.deepEqual(
    listed(root, { GSD_HOME: '' }, join(root, 'home')).map((r) => r[1]),
    ['b'],
  );
  assert.deepEqual(listed(root, {}, undefined), []);
});

test('no capabilities folder, or none readable, lists nothing; a link to a folder is no folder', (t) => {
  const root = project(t, { proj: null, [`elsewhere/x/capability.json`]: '{}', [`home/${CAPS}`]: null });
  assert.deepEqual(listed(root, {}, join(root, 'home')), []);
  symlinkSync(join(root, 'elsewhere/x'), join(root, `home/${CAPS}/x`));
  assert.deepEqual(listed(root, {}, join(root, 'home')), []);
});

test("one directory that is both is read once: the project's when there is a project", (t) => {
  const root = project(t, { [`proj/${CAPS}/a/capability.json`]: '{}' });
  assert.deepEqual(listed(root, {}, join(root, 'proj')), [['global', 'a', `proj/${CAPS}/a/capability.json`]]);
  const marked = project(t, { 'proj/.planning': null, [`proj/${CAPS}/a/capability.json`]: '{}' });
  assert.deepEqual(listed(marked, {}, join(marked, 'proj')), [['project', 'a', `proj/${CAPS}/a/capability.json`]]);
  // GSD's home as a link to the project: one directory still.
  const linked = project(t, { 'proj/.git': null, [`proj/${CAPS}/a/capability.json`]: '{}' });
  symlinkSync(join(linked, 'proj'), join(linked, 'home'));
  assert.deepEqual(listed(linked, {}, join(linked, 'home')), [['project', 'a', `home/${CAPS}/a/capability.json`]]);
});

test("a home whose capabilities folder leads nowhere lists nothing; the project's are still found", (t) => {
  const root = project(t, { 'proj/.planning': null, [`proj/${CAPS}/p/capability.json`]: '{}', 'home/.gsd': null });
  symlinkSync(join(root, 'gone'), join(root, `home/${CAPS}`));
  assert.deepEqual(listed(root, {}, join(root, 'home')), [['project', 'p', `proj/${CAPS}/p/capability.json`]]);
});

test("beside a project, GSD's home is global only where it is provably another directory", (t) => {
  // The project has no capabilities folder: nothing to be an alias of.
  const bare = project(t, { 'proj/.planning': null, [`home/${CAPS}/h/capability.json`]: '{}' });
  assert.deepEqual(listed(bare, {}, join(bare, 'home')), [['global', 'h', `home/${CAPS}/h/capability.json`]]);
  // Both there, and two directories.
  const both = project(t, { 'proj/.planning': null, [`proj/${CAPS}/p/capability.json`]: '{}', [`home/${CAPS}/h/capability.json`]: '{}' });
  assert.deepEqual(listed(both, {}, join(both, 'home')), [
    ['global', 'h', `home/${CAPS}/h/capability.json`],
    ['project', 'p', `proj/${CAPS}/p/capability.json`],
  ]);
  // The project's folder cannot be resolved (a loop of links), so it could be the home's: the home's needs consent too.
  const loop = project(t, { 'proj/.gsd': null, 'proj/.planning': null, [`home/${CAPS}/h/capability.json`]: '{}' });
  symlinkSync(join(loop, `proj/${CAPS}`), join(loop, `proj/${CAPS}`));
  assert.deepEqual(listed(loop, {}, join(loop, 'home')), [['project', 'h', `home/${CAPS}/h/capability.json`]]);
});

test("the folder a file at GSD's layout sits in", () => {
  assert.equal(installedFolder('/p/.gsd/capabilities/release/capability.json'), 'release');
  assert.equal(installedFolder('.gsd/capabilities/x/capability.json'), 'x');
  for (const path of [
    '/p/capabilities/release.json',
    '/p/.gsd/capabilities/capability.json',
    '/p/gsd/capabilities/x/capability.json',
    '/p/.gsd/caps/x/capability.json',
    '/p/.gsd/capabilities/x/manifest.json',
    '/p/.gsd/capabilities/x/y/capability.json',
  ]) {
    assert.equal(installedFolder(path), undefined, path);
  }
});
