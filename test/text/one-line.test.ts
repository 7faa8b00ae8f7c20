import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oneLine } from '../../src/text/format.ts';

test('folds whitespace and cuts to the limit', () => {
  assert.equal(oneLine('  command exited 1:\n  FAIL\t2 tests \n', 100), 'command exited 1: FAIL 2 tests');
  assert.equal(oneLine('x'.repeat(10), 10), 'x'.repeat(10));
  assert.equal(oneLine('x'.repeat(11), 10), `${'x'.repeat(7)}...`);
  assert.equal(oneLine('', 10), '');
});
