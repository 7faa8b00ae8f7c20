// Where a command runs: GSD's project-root search (project-root.cts) and its
// linked-worktree step (gsd-tools' resolveMainWorktreeCwd), case by case.
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { command } from '../case.mjs';

const pass = (name, c) => ({ name, gsd: 'pass', args: ['--predicate', command(), '--raw'], ...c });
const deep = (levels) => Array.from({ length: levels }, (_, i) => `l${i + 1}`).join('/');
const json = (value) => JSON.stringify(value);

function git(cwd, ...args) {
  const r = spawnSync('git', ['-c', 'user.name=compat', '-c', 'user.email=compat@example.invalid', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

// A main worktree `main` (with `.planning/` left untracked, so the linked
// worktree `wt` has none of its own unless `planningInWorktree`).
function worktrees({ planningInWorktree = false } = {}) {
  return (root) => {
    const main = join(root, 'main');
    mkdirSync(join(main, '.planning'), { recursive: true });
    mkdirSync(join(main, 'src'));
    writeFileSync(join(main, 'src', 'file'), 'x\n');
    git(main, 'init', '-q');
    git(main, 'add', 'src');
    git(main, 'commit', '-qm', 'init');
    git(main, 'worktree', 'add', '-q', join(root, 'wt'));
    const tree = { 'wt/src/deeper': {} };
    if (planningInWorktree) tree['wt/.planning'] = {};
    return tree;
  };
}

// A repository `evil` with a worktree entry whose worktree is gone, and a
// `.git` file in the shared ancestor naming that entry: git follows it, so
// everything below `shared` looks like a worktree of `evil`.
function plantedGitFile(root) {
  const evil = join(root, 'shared', 'evil');
  mkdirSync(join(evil, '.planning'), { recursive: true });
  writeFileSync(join(evil, 'file'), 'x\n');
  git(evil, 'init', '-q');
  git(evil, 'add', 'file');
  git(evil, 'commit', '-qm', 'init');
  git(evil, 'worktree', 'add', '-q', join(root, 'gone'));
  rmSync(join(root, 'gone'), { recursive: true });
  writeFileSync(join(root, 'shared', '.git'), 'gitdir: evil/.git/worktrees/gone\n');
  return { 'shared/proj/src': {} };
}

// A /tmp-like shared directory (world-writable, sticky) where another user
// planted a .planning above our project.
function plantedPlanning(root) {
  const shared = join(root, 'shared');
  mkdirSync(join(shared, '.planning'), { recursive: true });
  mkdirSync(join(shared, 'proj', 'src'), { recursive: true });
  chownSync(join(shared, '.planning'), 4242, 4242);
  chmodSync(shared, 0o1777);
  return {};
}

export const ROOT_CASES = [
  pass('own .planning', { tree: { 'proj/.planning': {} }, cwd: 'proj' }),
  pass('no .planning anywhere: the start directory', { tree: { 'proj/src': {} }, cwd: 'proj/src' }),
  pass('ancestor 1 level up, no git', { tree: { 'proj/.planning': {}, 'proj/src': {} }, cwd: 'proj/src' }),
  pass('ancestor 10 levels up, no git', { tree: { 'proj/.planning': {}, [`proj/${deep(10)}`]: {} }, cwd: `proj/${deep(10)}` }),
  pass('ancestor 11 levels up is out of reach', { tree: { 'proj/.planning': {}, [`proj/${deep(11)}`]: {} }, cwd: `proj/${deep(11)}` }),
  pass('ancestor with the repository root beside it', { tree: { 'proj/.planning': {}, 'proj/.git': {}, 'proj/src/lib': {} }, cwd: 'proj/src/lib' }),
  pass('a .git file at the project root', { tree: { 'proj/.planning': {}, 'proj/.git': 'gitdir: /nowhere\n', 'proj/src': {} }, cwd: 'proj/src' }),
  pass('nested .git between: a different project', { tree: { 'ws/.planning': {}, 'ws/svc/.git': {}, 'ws/svc/src': {} }, cwd: 'ws/svc/src' }),
  pass('top-level sub_repos claims the nested repository', {
    tree: { 'ws/.planning/config.json': json({ sub_repos: ['svc'] }), 'ws/svc/.git': {}, 'ws/svc/src': {} },
    cwd: 'ws/svc/src',
  }),
  pass('planning.sub_repos claims the nested repository', {
    tree: { 'ws/.planning/config.json': json({ planning: { sub_repos: ['svc'] } }), 'ws/svc/.git': {}, 'ws/svc/src': {} },
    cwd: 'ws/svc/src',
  }),
  pass('planning.sub_repos from the repository root itself', {
    tree: { 'ws/.planning/config.json': json({ planning: { sub_repos: ['svc'] } }), 'ws/svc/.git': {} },
    cwd: 'ws/svc',
  }),
  pass('sub_repos in a config with bytes that are not UTF-8 (a Latin-1 name)', {
    tree: { 'ws/.planning/config.json': { latin1: '{"sub_repos": ["svc"], "owner": "Jos\xe9"}' }, 'ws/svc/.git': {}, 'ws/svc/src': {} },
    cwd: 'ws/svc/src',
  }),
  pass('sub_repos naming another repository', {
    tree: { 'ws/.planning/config.json': json({ planning: { sub_repos: ['other'] } }), 'ws/svc/.git': {}, 'ws/svc/src': {} },
    cwd: 'ws/svc/src',
  }),
  pass('legacy multiRepo: true with the nested repository', {
    tree: { 'ws/.planning/config.json': json({ multiRepo: true }), 'ws/svc/.git': {}, 'ws/svc/src': {} },
    cwd: 'ws/svc/src',
  }),
  pass('legacy multiRepo: "true" is not true', {
    tree: { 'ws/.planning/config.json': json({ multiRepo: 'true' }), 'ws/svc/.git': {}, 'ws/svc/src': {} },
    cwd: 'ws/svc/src',
  }),
  pass('sub_repos in a config that is not JSON', {
    tree: { 'ws/.planning/config.json': '{"sub_repos": ["svc"],}', 'ws/svc/.git': {}, 'ws/svc/src': {} },
    cwd: 'ws/svc/src',
  }),
  pass('an outer workspace claims the repository past an inner .planning', {
    tree: {
      'outer/.planning/config.json': json({ sub_repos: ['inner'] }),
      'outer/inner/.planning': {},
      'outer/inner/.git': {},
      'outer/inner/src': {},
    },
    cwd: 'outer/inner/src',
  }),
  pass('an outer multiRepo workspace does not take a repository whose parent has .planning', {
    tree: {
      'outer/.planning/config.json': json({ multiRepo: true }),
      'outer/inner/.planning': {},
      'outer/inner/.git': {},
      'outer/inner/src': {},
    },
    cwd: 'outer/inner/src',
  }),
  pass('.planning that is a file is no project', { tree: { 'proj/.planning': {}, 'proj/sub/.planning': 'x', 'proj/sub/src': {} }, cwd: 'proj/sub/src' }),
  pass('HOME with a .planning of its own, from below it', {
    tree: { 'home/.planning': {}, 'home/proj/src': {} },
    cwd: 'home/proj/src',
    differs: 'D2',
    check: 'pass',
    expect: (gsd, check) => {
      assert.equal(gsd.ranIn, 'home');
      assert.equal(check.ranIn, 'home/proj/src');
    },
  }),
  pass('an ancestor of HOME, from outside HOME', {
    tree: { '.planning': {}, 'users/me': {}, 'proj/src': {} },
    home: 'users/me',
    cwd: 'proj/src',
    differs: 'D2',
    check: 'pass',
    expect: (gsd, check) => {
      assert.equal(gsd.ranIn, '.');
      assert.equal(check.ranIn, 'proj/src');
    },
  }),
  pass('HOME through a symbolic link still bounds the search', {
    tree: { '.planning': {}, 'realhome/proj/src': {}, homelink: { link: 'realhome' } },
    home: 'homelink',
    cwd: 'realhome/proj/src',
    differs: 'D2',
    check: 'pass',
    expect: (gsd, check) => {
      assert.equal(gsd.ranIn, '.');
      assert.equal(check.ranIn, 'realhome/proj/src');
    },
  }),
  pass('a .planning above HOME is never reached', { tree: { '.planning': {}, 'home/proj/src': {} }, cwd: 'home/proj/src' }),
  pass('HOME itself with .planning, nested repository between', {
    tree: { 'home/.planning': {}, 'home/proj/.git': {}, 'home/proj/src': {} },
    cwd: 'home/proj/src',
  }),
  pass('--cwd names where the search starts', {
    tree: { 'proj/.planning': {}, 'proj/src': {}, elsewhere: {} },
    cwd: 'elsewhere',
    args: ['--predicate', command(), '--cwd', '../proj/src', '--raw'],
  }),
  pass('a linked worktree without .planning runs in the main worktree', { tree: worktrees(), cwd: 'wt/src/deeper' }),
  pass('a linked worktree with its own .planning runs there', { tree: worktrees({ planningInWorktree: true }), cwd: 'wt/src/deeper' }),
  pass('the main worktree itself, from a subdirectory', { tree: worktrees(), cwd: 'main/src' }),
  pass('a linked worktree 11 levels below its top', {
    tree: (root) => ({ ...worktrees()(root), [`wt/${deep(11)}`]: {} }),
    cwd: `wt/${deep(11)}`,
    differs: 'D3',
    check: 'pass',
    expect: (gsd, check) => {
      assert.equal(gsd.ranIn, 'main');
      assert.equal(check.ranIn, `wt/${deep(11)}`);
    },
  }),
  pass('a .planning another user planted in a shared sticky directory', {
    tree: plantedPlanning,
    cwd: 'shared/proj/src',
    skip: process.getuid?.() !== 0 && "planting another user's .planning needs root",
    differs: 'D3',
    check: 'pass',
    expect: (gsd, check) => {
      assert.equal(gsd.ranIn, 'shared');
      assert.equal(check.ranIn, 'shared/proj/src');
    },
  }),
  pass('a planted .git file naming a worktree entry that is not its own', {
    tree: plantedGitFile,
    cwd: 'shared/proj/src',
    differs: 'D3',
    check: 'pass',
    expect: (gsd, check) => {
      assert.equal(gsd.ranIn, 'shared/evil');
      assert.equal(check.ranIn, 'shared/proj/src');
    },
  }),
];
