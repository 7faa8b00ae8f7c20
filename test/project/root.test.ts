import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from '../helpers/bounded.ts';
import { MAX_INPUT_BYTES } from '../../src/io/input.ts';
import { findProjectRoot, explicitProjectRoot, workspaceConfig, type SearchBounds, mainWorktree, trustedEntry } from '../../src/project/root.ts';
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

test("an outer sub_repos claim wins over the repository's own parent .planning", (t) => {
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

const root = (given: string, current: string) => {
  const result = explicitProjectRoot(given, () => current);
  return result.ok ? result.value : `${result.failure.reason}: ${result.failure.message}`;
};

test('--project-dir is the root itself, relative to the current directory', (t) => {
  const base = project(t, { 'p/.planning': null, 'p/sub': null });
  assert.equal(root('p', base), join(base, 'p'));
  assert.equal(root(join(base, 'p/sub/..'), '/nowhere'), join(base, 'p'));
  assert.equal(root('.', join(base, 'p')), join(base, 'p'));
});

test('a directory without .planning is refused as a usage error, even below a project: no search up', (t) => {
  // q's .planning is a file, not a directory.
  const base = project(t, { 'p/.planning': null, 'p/sub': null, file: '', 'q/.planning': '' });
  assert.equal(
    root('p/sub', base),
    `usage: --project-dir ${join(base, 'p/sub')} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)`,
  );
  assert.equal(
    root('q', base),
    `usage: --project-dir ${join(base, 'q')} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)`,
  );
  assert.equal(root('missing', base), `usage: --project-dir ${join(base, 'missing')}: no such directory`);
  assert.equal(root('file', base), `usage: --project-dir ${join(base, 'file')}: not a directory`);
});

test('a relative --project-dir needs the current directory', () => {
  const result = explicitProjectRoot('p', () => {
    throw new Error('ENOENT');
  });
  assert.deepEqual(result.ok ? 'accepted' : result.failure.message, 'the current directory no longer exists; give --project-dir p as an absolute path');
});

// A directory whose .planning/config.json holds `text`.
const withConfig = (t: TestContext, text: string): string => project(t, { '.planning/config.json': text });

const NOTHING = { subRepos: [], multiRepo: false };

test('sub_repos at the top or under planning, strings only; multiRepo only when true', (t) => {
  assert.deepEqual(workspaceConfig(withConfig(t, '{"sub_repos": ["api", 7, "web"], "multiRepo": true}')), { subRepos: ['api', 'web'], multiRepo: true });
  assert.deepEqual(workspaceConfig(withConfig(t, '{"planning": {"sub_repos": ["api"]}, "multiRepo": "true"}')), { subRepos: ['api'], multiRepo: false });
});

test('a top-level sub_repos wins even when it is not a list', (t) => {
  assert.deepEqual(workspaceConfig(withConfig(t, '{"sub_repos": "api", "planning": {"sub_repos": ["web"]}}')), NOTHING);
  assert.deepEqual(workspaceConfig(withConfig(t, '{"planning": ["sub_repos"]}')), NOTHING);
});

test('a config that is missing, not strict JSON or not an object says nothing', (t) => {
  assert.deepEqual(workspaceConfig(project(t)), NOTHING);
  for (const text of ['{nope', '{"multiRepo": true, "multiRepo": true}', 'null', '[{"multiRepo": true}]', '"multiRepo"']) {
    assert.deepEqual(workspaceConfig(withConfig(t, text)), NOTHING, text);
  }
});

test('the root search reads the config by the rule activation reads it by: up to 1 MiB', (t) => {
  const padded = (size: number) => {
    const head = '{"sub_repos": ["api"], "pad": "';
    return `${head}${'x'.repeat(size - head.length - 2)}"}`;
  };
  // Past the old 256 KiB of the root search, within activation's 1 MiB: both use it.
  assert.deepEqual(workspaceConfig(withConfig(t, padded(512 * 1024))), { subRepos: ['api'], multiRepo: false });
  assert.deepEqual(workspaceConfig(withConfig(t, padded(MAX_INPUT_BYTES + 1))), NOTHING);
});

const UNBOUNDED: SearchBounds = { maxLevels: 10, stopsAt: () => false, trusts: () => true };

// A main repository at `main/` and a linked worktree at `wt/`, its entry
// `main/.git/worktrees/wt` holding the files given (null: left out).
function worktree(t: TestContext, entry: { gitdir: string | null; commondir: string | null }): string {
  const root = tempDir(t);
  const dir = join(root, 'main/.git/worktrees/wt');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, 'wt/src'), { recursive: true });
  writeFileSync(join(root, 'wt/.git'), 'gitdir: ../main/.git/worktrees/wt\n');
  const files = { gitdir: entry.gitdir?.replace('WT', join(root, 'wt')), commondir: entry.commondir };
  for (const [name, text] of Object.entries(files)) if (text !== null && text !== undefined) writeFileSync(join(dir, name), text);
  return root;
}

test('a linked worktree leads to its main worktree, from the worktree or below it', (t) => {
  const root = worktree(t, { gitdir: 'WT/.git\n', commondir: '../..\n' });
  assert.equal(mainWorktree(join(root, 'wt'), UNBOUNDED), join(root, 'main'));
  assert.equal(mainWorktree(join(root, 'wt/src'), UNBOUNDED), join(root, 'main'));
});

test('a worktree entry without a gitdir that points back, or without a commondir, leads nowhere', (t) => {
  const cases = [
    { gitdir: null, commondir: '../..\n' },
    { gitdir: '\n', commondir: '../..\n' },
    { gitdir: 'WT/.git\n', commondir: null },
    { gitdir: 'WT/.git\n', commondir: ' \n' },
  ];
  for (const entry of cases) {
    const root = worktree(t, entry);
    assert.equal(mainWorktree(join(root, 'wt'), UNBOUNDED), undefined, JSON.stringify(entry));
  }
});

// Owners are set with chown, which needs root: the CI machine runs as root.
const canChown = process.getuid?.() === 0;

test("ours or root's counts; another user's only when we are root", { skip: !canChown && 'chown needs root' }, (t) => {
  const dir = tempDir(t);
  for (const [name, owner] of [
    ['mine', 1000],
    ['roots', 0],
    ['theirs', 2000],
  ] as const) {
    mkdirSync(join(dir, name));
    chownSync(join(dir, name), owner, owner);
  }
  assert.deepEqual(
    ['mine', 'roots', 'theirs'].map((n) => trustedEntry(join(dir, n), 1000)),
    [true, true, false],
  );
  assert.deepEqual(
    ['mine', 'roots', 'theirs'].map((n) => trustedEntry(join(dir, n), 0)),
    [true, true, true],
  );
  assert.equal(trustedEntry(join(dir, 'theirs'), undefined), true);
  assert.equal(trustedEntry(join(dir, 'missing'), 1000), false);
});

test('in a world-writable directory: only our own, and only if it is sticky', { skip: !canChown && 'chown needs root' }, (t) => {
  const dir = tempDir(t);
  const sticky = join(dir, 'tmp');
  const open = join(dir, 'open');
  for (const shared of [sticky, open]) {
    mkdirSync(shared);
    for (const [name, owner] of [
      ['mine', 1000],
      ['roots', 0],
    ] as const) {
      mkdirSync(join(shared, name));
      chownSync(join(shared, name), owner, owner);
    }
  }
  chmodSync(sticky, 0o1777);
  chmodSync(open, 0o777);
  assert.deepEqual([trustedEntry(join(sticky, 'mine'), 1000), trustedEntry(join(sticky, 'roots'), 1000)], [true, false]);
  // Even root does not trust another's entry where anyone may plant one.
  assert.deepEqual([trustedEntry(join(sticky, 'mine'), 0), trustedEntry(join(sticky, 'roots'), 0)], [false, true]);
  assert.deepEqual([trustedEntry(join(open, 'mine'), 1000), trustedEntry(join(open, 'roots'), 0)], [false, false]);
});
