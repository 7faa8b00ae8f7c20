import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { argumentPath } from '../../src/commands/argument-path.ts';
import { ok } from '../../src/failure.ts';

const here = () => '/home/u/proj';
const deleted = (): string => {
  throw Object.assign(new Error('uv_cwd'), { code: 'ENOENT' });
};

test('relative to --cwd, else to the current directory; - and absolute paths as given', () => {
  assert.deepEqual(argumentPath('p.json', undefined, here), ok('/home/u/proj/p.json'));
  assert.deepEqual(argumentPath('p.json', 'sub', here), ok('/home/u/proj/sub/p.json'));
  assert.deepEqual(argumentPath('p.json', '/abs', here), ok('/abs/p.json'));
  assert.deepEqual(argumentPath('/x/p.json', 'sub', here), ok('/x/p.json'));
  assert.deepEqual(argumentPath('-', 'sub', here), ok('-'));
});

test('a deleted current directory only matters to a relative path', () => {
  assert.deepEqual(argumentPath('/x/p.json', undefined, deleted), ok('/x/p.json'));
  assert.deepEqual(argumentPath('p.json', '/abs', deleted), ok('/abs/p.json'));
  const failed = argumentPath('p.json', undefined, deleted);
  assert.equal(failed.ok, false);
  assert.equal(!failed.ok && failed.failure.reason, 'bad-cwd');
});
