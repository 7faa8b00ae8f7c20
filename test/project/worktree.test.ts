import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { type SearchBounds, mainWorktree } from '../../src/project/root.ts';
import { tempDir } from '../helpers/support.ts';

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
