import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findProjectRoot } from '../../src/project/root.ts';
import { project, writeTree } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

test('the start directory wins when it has .planning', (t) => {
  const root = project(t, { 'p/.planning': null, 'p/sub/.planning': null });
  assert.equal(findProjectRoot(join(root, 'p/sub'), undefined), join(root, 'p/sub'));
});

test('the nearest ancestor with .planning', (t) => {
  const root = project(t, { 'p/.planning': null, 'p/.git': null, 'p/src/deep/er': null });
  assert.equal(findProjectRoot(join(root, 'p/src/deep/er'), undefined), join(root, 'p'));
});

test('at most 10 levels up', (t) => {
  const ten = 'a/b/c/d/e/f/g/h/i/j';
  const root = project(t, { 'p/.planning': null, [`p/${ten}`]: null, [`p/x/${ten}`]: null });
  assert.equal(findProjectRoot(join(root, 'p', ten), undefined), join(root, 'p'));
  assert.equal(findProjectRoot(join(root, 'p/x', ten), undefined), join(root, 'p/x', ten));
});

test('the home directory and what lies above it are never candidates', (t) => {
  const root = project(t, { '.planning': null, 'home/u/.planning': null, 'home/u/work/proj': null });
  const home = join(root, 'home/u');
  assert.equal(findProjectRoot(join(home, 'work/proj'), home), join(home, 'work/proj'));
  // but --cwd itself may be the home directory
  assert.equal(findProjectRoot(home, home), home);
});

test('a nested git repository between start and ancestor stops the search', (t) => {
  const root = project(t, { 'p/.planning': null, 'p/vendor/lib/.git': null, 'p/vendor/lib/src': null });
  assert.equal(findProjectRoot(join(root, 'p/vendor/lib/src'), undefined), join(root, 'p/vendor/lib/src'));
  // a .git entry in the start directory itself counts too, file or directory
  const other = project(t, { 'p/.planning': null, 'p/mod/.git': 'gitdir: ../.git/modules/mod\n' });
  assert.equal(findProjectRoot(join(other, 'p/mod'), undefined), join(other, 'p/mod'));
});

test('unless the ancestor lists the first path segment in sub_repos', (t) => {
  const root = project(t, {
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
  const root = project(t, { 'p/.planning/config.json': '{nope', 'p/backend/.git': null });
  assert.equal(findProjectRoot(join(root, 'p/backend'), undefined), join(root, 'p/backend'));
});

// A linked worktree entry as git writes it: `gitdir` points back at the
// worktree's `.git` file, `commondir` at the main repository's `.git`.
const linked = (main: string, name: string, worktree: string): Record<string, string> => ({
  [`${main}/.git/worktrees/${name}/commondir`]: '../..\n',
  [`${main}/.git/worktrees/${name}/gitdir`]: `${worktree}/.git\n`,
});

test('a linked worktree without .planning of its own is searched from its main worktree', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'main/.planning': null,
    ...linked('main', 'feature', join(root, 'wt/feature')),
    'wt/feature/.git': 'gitdir: ../../main/.git/worktrees/feature\n',
    'wt/feature/src': null,
  });
  assert.equal(findProjectRoot(join(root, 'wt/feature/src'), undefined), join(root, 'main'));
  assert.equal(findProjectRoot(join(root, 'wt/feature'), undefined), join(root, 'main'));
});

test('the main worktree stands in even without .planning, and the search goes on above it', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'ws/.planning/config.json': JSON.stringify({ sub_repos: ['main'] }),
    ...linked('ws/main', 'f', join(root, 'wt/f')),
    'wt/f/.git': `gitdir: ${join(root, 'ws/main/.git/worktrees/f')}\n`,
    'lone/.git/worktrees/g/commondir': '../..\n',
    'lone/.git/worktrees/g/gitdir': `${join(root, 'wt/g')}/.git\n`,
    'wt/g/.git': 'gitdir: ../../lone/.git/worktrees/g\n',
  });
  assert.equal(findProjectRoot(join(root, 'wt/f'), undefined), join(root, 'ws'));
  assert.equal(findProjectRoot(join(root, 'wt/g'), undefined), join(root, 'lone'));
});

test('a worktree entry that does not point back at the .git file is not followed', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'evil/.planning': null,
    ...linked('evil', 'x', join(root, 'elsewhere')),
    'shared/.git': 'gitdir: ../evil/.git/worktrees/x\n',
    'shared/proj/src': null,
  });
  assert.equal(findProjectRoot(join(root, 'shared/proj/src'), undefined), join(root, 'shared/proj/src'));
});

test('a submodule (no commondir) stays where it started', (t) => {
  const root = tempDir(t);
  writeTree(root, { 'sub/.planning': null, 'sub/.git/modules/m/HEAD': 'ref\n', 'sub/m/.git': 'gitdir: ../.git/modules/m\n' });
  assert.equal(findProjectRoot(join(root, 'sub/m'), undefined), join(root, 'sub/m'));
});

test('the worktree step obeys the same bounds: 10 levels, never HOME or above', (t) => {
  const root = tempDir(t);
  const eleven = 'a/b/c/d/e/f/g/h/i/j/k';
  writeTree(root, {
    'main/.planning': null,
    ...linked('main', 'w', join(root, 'home/w')),
    'home/w/.git': `gitdir: ${join(root, 'main/.git/worktrees/w')}\n`,
    [`home/w/${eleven}`]: null,
  });
  const w = join(root, 'home/w');
  assert.equal(findProjectRoot(join(w, 'a/b/c/d/e/f/g/h/i/j'), undefined), join(root, 'main'));
  assert.equal(findProjectRoot(join(w, eleven), undefined), join(w, eleven));
  // HOME holding the .git file: a start below it is not adopted...
  assert.equal(findProjectRoot(join(w, 'a'), w), join(w, 'a'));
  // ...but HOME itself, as the start, may be a linked worktree.
  assert.equal(findProjectRoot(w, w), join(root, 'main'));
});

test('legacy multiRepo adopts a nested repository; planning.sub_repos names one', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'm/.planning/config.json': JSON.stringify({ multiRepo: true }),
    'm/svc/.git': null,
    'm/svc/src': null,
    'n/.planning/config.json': JSON.stringify({ planning: { sub_repos: ['api'] } }),
    'n/api/.git': null,
    'o/.planning/config.json': JSON.stringify({ multiRepo: 'true' }),
    'o/svc/.git': null,
  });
  assert.equal(findProjectRoot(join(root, 'm/svc/src'), undefined), join(root, 'm'));
  assert.equal(findProjectRoot(join(root, 'n/api'), undefined), join(root, 'n'));
  assert.equal(findProjectRoot(join(root, 'o/svc'), undefined), join(root, 'o/svc'));
});

test('an outer sub_repos claim wins over the repository\'s own parent .planning', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'outer/.planning/config.json': JSON.stringify({ sub_repos: ['inner'] }),
    'outer/inner/.planning': null,
    'outer/inner/.git': null,
    'outer/inner/src': null,
    'plain/.planning': null,
    'plain/.git': null,
    'plain/src': null,
  });
  assert.equal(findProjectRoot(join(root, 'outer/inner/src'), undefined), join(root, 'outer'));
  assert.equal(findProjectRoot(join(root, 'plain/src'), undefined), join(root, 'plain'));
});

test('a config that gives sub_repos twice, or is a FIFO, claims nothing', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'd/.planning/config.json': '{"sub_repos": ["svc"], "sub_repos": ["svc"]}',
    'd/svc/.git': null,
    'f/.planning': null,
    'f/svc/.git': null,
  });
  spawnSync('mkfifo', [join(root, 'f/.planning/config.json')]);
  assert.equal(findProjectRoot(join(root, 'd/svc'), undefined), join(root, 'd/svc'));
  assert.equal(findProjectRoot(join(root, 'f/svc'), undefined), join(root, 'f/svc'));
});

test('HOME reached through a symbolic link bounds the search by its real path', (t) => {
  const root = tempDir(t);
  // The link lives apart from the project, so only its real path can stop the search.
  writeTree(root, { 'a/.planning': null, 'a/real/u/proj': null, links: null });
  symlinkSync(join(root, 'a/real/u'), join(root, 'links/homelink'));
  assert.equal(findProjectRoot(join(root, 'a/real/u/proj'), join(root, 'links/homelink')), join(root, 'a/real/u/proj'));
  assert.equal(findProjectRoot(join(root, 'a/real/u/proj'), undefined), join(root, 'a'));
});

test('a repository whose own parent has .planning stays there, whatever an ancestor further up says short of a sub_repos claim', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'outer/.planning/config.json': JSON.stringify({ multiRepo: true }),
    'outer/inner/.planning': null,
    'outer/inner/.git': null,
    'outer/inner/src': null,
  });
  assert.equal(findProjectRoot(join(root, 'outer/inner/src'), undefined), join(root, 'outer/inner'));
});

test('an ancestor of HOME is no candidate even from outside HOME', (t) => {
  const root = tempDir(t);
  writeTree(root, { '.planning': null, 'users/me': null, 'proj/src': null });
  assert.equal(findProjectRoot(join(root, 'proj/src'), join(root, 'users/me')), join(root, 'proj/src'));
});

test('nothing found: the start directory itself', (t) => {
  const root = project(t, { 'x/y': null });
  assert.equal(findProjectRoot(join(root, 'x/y'), undefined), join(root, 'x/y'));
});

test('a .planning file is not a project', (t) => {
  const root = project(t, { 'p/.planning': '', 'p/q': null });
  assert.equal(findProjectRoot(join(root, 'p/q'), undefined), join(root, 'p/q'));
});

test('a .planning or .git planted by another user in a shared ancestor claims nothing', { skip: process.getuid?.() !== 0 && 'chown needs root' }, (t) => {
  const root = tempDir(t);
  writeTree(root, { 'shared/.planning': null, 'shared/proj/src': null, 'mine/.planning': null, 'mine/.git': null, 'mine/src': null });
  chownSync(join(root, 'shared/.planning'), 2000, 2000);
  chownSync(join(root, 'mine/.planning'), 1000, 1000);
  chownSync(join(root, 'mine/.git'), 1000, 1000);
  assert.equal(findProjectRoot(join(root, 'shared/proj/src'), undefined, 1000), join(root, 'shared/proj/src'));
  assert.equal(findProjectRoot(join(root, 'shared/proj/src'), undefined, 2000), join(root, 'shared'));
  assert.equal(findProjectRoot(join(root, 'mine/src'), undefined, 1000), join(root, 'mine'));
  // /tmp-like: world-writable and sticky; another's .planning there is ignored even by root.
  chmodSync(join(root, 'shared'), 0o1777);
  assert.equal(findProjectRoot(join(root, 'shared/proj/src'), undefined, 0), join(root, 'shared/proj/src'));
});

test('multiRepo owns only a start that a repository leads to: without one, an outer sub_repos claim wins', (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'outer/.planning/config.json': JSON.stringify({ sub_repos: ['inner'] }),
    'outer/inner/.planning/config.json': JSON.stringify({ multiRepo: true }),
    'outer/inner/src': null,
  });
  assert.equal(findProjectRoot(join(root, 'outer/inner/src'), undefined), join(root, 'outer'));
});
