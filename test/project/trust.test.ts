import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { trustedEntry } from '../../src/project/root.ts';
import { tempDir } from '../helpers/support.ts';

// Owners are set with chown, which needs root: the CI machine runs as root.
const canChown = process.getuid?.() === 0;

test('ours or root\'s counts; another user\'s only when we are root', { skip: !canChown && 'chown needs root' }, (t) => {
  const dir = tempDir(t);
  for (const [name, owner] of [['mine', 1000], ['roots', 0], ['theirs', 2000]] as const) {
    mkdirSync(join(dir, name));
    chownSync(join(dir, name), owner, owner);
  }
  assert.deepEqual(['mine', 'roots', 'theirs'].map((n) => trustedEntry(join(dir, n), 1000)), [true, true, false]);
  assert.deepEqual(['mine', 'roots', 'theirs'].map((n) => trustedEntry(join(dir, n), 0)), [true, true, true]);
  assert.equal(trustedEntry(join(dir, 'theirs'), undefined), true);
  assert.equal(trustedEntry(join(dir, 'missing'), 1000), false);
});

test('in a world-writable directory: only our own, and only if it is sticky', { skip: !canChown && 'chown needs root' }, (t) => {
  const dir = tempDir(t);
  const sticky = join(dir, 'tmp');
  const open = join(dir, 'open');
  for (const shared of [sticky, open]) {
    mkdirSync(shared);
    for (const [name, owner] of [['mine', 1000], ['roots', 0]] as const) {
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
