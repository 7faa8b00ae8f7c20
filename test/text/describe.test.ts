import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describe } from '../../src/text/describe.ts';

test('describes received values as a message should show them', () => {
  assert.equal(describe(Infinity), 'Infinity');
  assert.equal(describe(-0), '-0');
  assert.equal(describe(0.5), '0.5');
  assert.equal(describe('5'), '"5"');
  assert.equal(describe(null), 'null');
  assert.equal(describe(true), 'true');
  assert.equal(describe(undefined), 'nothing');
  assert.equal(describe([1, 2]), '[1,2]');
  assert.equal(describe('x'.repeat(100)), `"${'x'.repeat(56)}...`);
});
