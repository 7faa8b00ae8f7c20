import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { tempDir } from '../helpers/support.ts';
import { gsdPaths, workspacePaths, workspaceRelative } from '../../src/project/shown-path.ts';

test("check predicate's paths are GSD's: the artifact from the project root, any other place absolute", () => {
  const paths = gsdPaths('/r/app');
  assert.deepEqual([paths.artifact('/r/app/.planning/X.md'), paths.place('/r/app/.planning')], ['.planning/X.md', '/r/app/.planning']);
});

test("gates run's are relative to the checkout when inside it, else to the project root; the root itself is .", (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'repo', 'app'), { recursive: true });
  const root = join(dir, 'repo', 'app');
  const inside = workspacePaths(root, join(dir, 'repo'));
  assert.deepEqual([inside.artifact(join(root, 'X.md')), inside.place(root), inside.place(join(root, '.planning'))], ['app/X.md', 'app', 'app/.planning']);
  const alone = workspacePaths(root, undefined);
  assert.deepEqual([alone.artifact(join(root, 'X.md')), alone.place(root)], ['X.md', '.']);
  // A workspace elsewhere is none; one reached through a link is its real path.
  assert.equal(workspaceRelative(root, join(dir, 'elsewhere'))(join(root, 'X.md')), 'X.md');
  symlinkSync(join(dir, 'repo'), join(dir, 'link'));
  assert.equal(workspaceRelative(root, join(dir, 'link'))(join(root, 'X.md')), 'app/X.md');
});
