import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnErrorCode } from '../../src/run/spawn-error.ts';
import { tempDir } from '../support.ts';

const error = (code: string): Error => Object.assign(new Error(code), { code });

test('ENOENT is a missing cwd when the cwd is not a directory, else a missing sh', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'file'), '');
  assert.equal(spawnErrorCode(error('ENOENT'), join(dir, 'gone')), 'cwd-missing');
  assert.equal(spawnErrorCode(error('ENOENT'), join(dir, 'file')), 'cwd-missing');
  assert.equal(spawnErrorCode(error('ENOENT'), dir), 'ENOENT');
});

test('EACCES is a cwd we may not enter when it cannot be searched, else an sh we may not run', (t) => {
  const dir = tempDir(t);
  assert.equal(spawnErrorCode(error('EACCES'), join(dir, 'gone')), 'cwd-denied');
  assert.equal(spawnErrorCode(error('EACCES'), dir), 'EACCES');
});

test('any other code is passed on as it is', (t) => {
  assert.equal(spawnErrorCode(error('EMFILE'), join(tempDir(t), 'gone')), 'EMFILE');
});
