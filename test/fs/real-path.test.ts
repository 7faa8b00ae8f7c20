import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { canonicalPath, realPath } from '../../src/fs/real-path.ts';
import { tempDir } from '../support.ts';

test('realPath: the canonical path, or undefined when there is none', (t) => {
  const base = tempDir(t);
  mkdirSync(join(base, 'real'));
  symlinkSync('real', join(base, 'link'));
  assert.equal(realPath(join(base, 'link')), join(base, 'real'));
  assert.equal(realPath(join(base, 'missing')), undefined);
});

test("canonicalPath: a missing path gets its nearest existing ancestor's real path; a dangling link none", (t) => {
  const base = tempDir(t);
  mkdirSync(join(base, 'real/a'), { recursive: true });
  symlinkSync('real', join(base, 'link'));
  symlinkSync('nowhere', join(base, 'real/dangling'));
  assert.equal(canonicalPath(join(base, 'link/a')), join(base, 'real/a'));
  assert.equal(canonicalPath(join(base, 'link/a/b/c')), join(base, 'real/a/b/c'));
  assert.equal(canonicalPath(join(base, 'link/dangling')), undefined);
  assert.equal(canonicalPath('/'), '/');
});
