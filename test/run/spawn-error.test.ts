import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnErrorOf } from '../../src/run/runner.ts';
import { tempDir } from '../helpers/support.ts';

const error = (code: string): Error => Object.assign(new Error(code), { code });

test('ENOENT is a missing cwd when the cwd is not a directory, else a missing sh', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'file'), '');
  assert.deepEqual(spawnErrorOf(error('ENOENT'), join(dir, 'gone')), { kind: 'cwd-missing' });
  assert.deepEqual(spawnErrorOf(error('ENOENT'), join(dir, 'file')), { kind: 'cwd-missing' });
  assert.deepEqual(spawnErrorOf(error('ENOENT'), dir), { kind: 'system', code: 'ENOENT' });
});

test('EACCES is a cwd we may not enter when it cannot be searched, else an sh we may not run', (t) => {
  const dir = tempDir(t);
  assert.deepEqual(spawnErrorOf(error('EACCES'), join(dir, 'gone')), { kind: 'cwd-denied' });
  assert.deepEqual(spawnErrorOf(error('EACCES'), dir), { kind: 'system', code: 'EACCES' });
});

test('any other code is passed on as it is', (t) => {
  assert.deepEqual(spawnErrorOf(error('EMFILE'), join(tempDir(t), 'gone')), { kind: 'system', code: 'EMFILE' });
});
