import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { findProjectRoot } from '../../src/project/root.ts';
import { tempDir } from '../support.ts';

// Builds a tree from paths: "a/.planning/" makes a directory, "a/.git" a file.
function tree(t: TestContext, paths: Record<string, string | null>): string {
  const root = tempDir(t);
  for (const [path, content] of Object.entries(paths)) {
    const full = join(root, path);
    if (content === null) mkdirSync(full, { recursive: true });
    else {
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, content);
    }
  }
  return root;
}

test('the start directory wins when it has .planning', (t) => {
  const root = tree(t, { 'p/.planning': null, 'p/sub/.planning': null });
  assert.equal(findProjectRoot(join(root, 'p/sub'), undefined), join(root, 'p/sub'));
});

test('the nearest ancestor with .planning', (t) => {
  const root = tree(t, { 'p/.planning': null, 'p/.git': null, 'p/src/deep/er': null });
  assert.equal(findProjectRoot(join(root, 'p/src/deep/er'), undefined), join(root, 'p'));
});

test('at most 10 levels up', (t) => {
  const ten = 'a/b/c/d/e/f/g/h/i/j';
  const root = tree(t, { 'p/.planning': null, [`p/${ten}`]: null, [`p/x/${ten}`]: null });
  assert.equal(findProjectRoot(join(root, 'p', ten), undefined), join(root, 'p'));
  assert.equal(findProjectRoot(join(root, 'p/x', ten), undefined), join(root, 'p/x', ten));
});

test('the home directory and what lies above it are never candidates', (t) => {
  const root = tree(t, { '.planning': null, 'home/u/.planning': null, 'home/u/work/proj': null });
  const home = join(root, 'home/u');
  assert.equal(findProjectRoot(join(home, 'work/proj'), home), join(home, 'work/proj'));
  // but --cwd itself may be the home directory
  assert.equal(findProjectRoot(home, home), home);
});

test('a nested git repository between start and ancestor stops the search', (t) => {
  const root = tree(t, { 'p/.planning': null, 'p/vendor/lib/.git': null, 'p/vendor/lib/src': null });
  assert.equal(findProjectRoot(join(root, 'p/vendor/lib/src'), undefined), join(root, 'p/vendor/lib/src'));
  // a .git entry in the start directory itself counts too, file or directory
  const other = tree(t, { 'p/.planning': null, 'p/mod/.git': 'gitdir: ../.git/modules/mod\n' });
  assert.equal(findProjectRoot(join(other, 'p/mod'), undefined), join(other, 'p/mod'));
});

test('unless the ancestor lists the first path segment in sub_repos', (t) => {
  const root = tree(t, {
    'p/.planning/config.json': JSON.stringify({ sub_repos: ['backend', 7] }),
    'p/backend/.git': null,
    'p/backend/src': null,
    'p/frontend/.git': null,
    'p/frontend/src': null,
  });
  assert.equal(findProjectRoot(join(root, 'p/backend/src'), undefined), join(root, 'p'));
  assert.equal(findProjectRoot(join(root, 'p/frontend/src'), undefined), join(root, 'p/frontend/src'));
});

test('a broken config.json means no sub_repos', (t) => {
  const root = tree(t, { 'p/.planning/config.json': '{nope', 'p/backend/.git': null });
  assert.equal(findProjectRoot(join(root, 'p/backend'), undefined), join(root, 'p/backend'));
});

test('a linked worktree falls back to the main worktree when it has .planning', (t) => {
  const root = tree(t, {
    'main/.planning': null,
    'main/.git/worktrees/feature/commondir': '../..\n',
    'wt/feature/.git': 'gitdir: ../../main/.git/worktrees/feature\n',
    'wt/feature/src': null,
  });
  assert.equal(findProjectRoot(join(root, 'wt/feature/src'), undefined), join(root, 'main'));
  assert.equal(findProjectRoot(join(root, 'wt/feature'), undefined), join(root, 'main'));
});

test('a worktree whose main has no .planning, or a submodule, stays where it started', (t) => {
  const root = tree(t, {
    'main/.git/worktrees/feature/commondir': '../..\n',
    'wt/feature/.git': 'gitdir: ../../main/.git/worktrees/feature\n',
    'sub/.planning': null,
    'sub/.git/modules/m/HEAD': 'ref\n',
    'sub/m/.git': 'gitdir: ../.git/modules/m\n',
  });
  assert.equal(findProjectRoot(join(root, 'wt/feature'), undefined), join(root, 'wt/feature'));
  assert.equal(findProjectRoot(join(root, 'sub/m'), undefined), join(root, 'sub/m'));
});

test('nothing found: the start directory itself', (t) => {
  const root = tree(t, { 'x/y': null });
  assert.equal(findProjectRoot(join(root, 'x/y'), undefined), join(root, 'x/y'));
});

test('a .planning file is not a project', (t) => {
  const root = tree(t, { 'p/.planning': '', 'p/q': null });
  assert.equal(findProjectRoot(join(root, 'p/q'), undefined), join(root, 'p/q'));
});
