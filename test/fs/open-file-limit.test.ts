import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openFileLimit } from '../../src/fs/read.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

const noReport = (): never => assert.fail('the report is asked only without a limits line');

test('the soft limit of the limits file, and the report is not asked', () => {
  assert.equal(openFileLimit(() => LIMITS, noReport), 1024);
  assert.equal(openFileLimit(() => LIMITS.replace('1024     ', 'unlimited'), noReport), undefined);
});

test('without the file, or a file without the line, the report says', () => {
  const report = { userLimits: { open_files: { soft: 256, hard: 4096 } } };
  const missing = (): never => {
    throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  };
  assert.equal(openFileLimit(missing, () => report), 256);
  assert.equal(openFileLimit(() => 'Max processes 100 100\n', () => report), 256);
  // The report writes "unlimited" as a string: no limit to keep within.
  assert.equal(openFileLimit(missing, () => ({ userLimits: { open_files: { soft: 'unlimited' } } })), undefined);
  assert.equal(openFileLimit(missing, () => undefined), undefined);
});

test('the line must start a line: a value elsewhere is not taken', () => {
  assert.equal(openFileLimit(() => `x Max open files 7 7 files\n`, () => ({ userLimits: { open_files: { soft: 9 } } })), 9);
});
