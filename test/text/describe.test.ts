import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describe } from '../../src/text/format.ts';

test('describes received values as a message should show them', () => {
  assert.equal(describe(Infinity), 'Infinity');
  assert.equal(describe(-0), '-0');
  assert.equal(describe(0.5), '0.5');
  assert.equal(describe('5'), '"5"');
  assert.equal(describe('a\nb'), '"a\\nb"');
  assert.equal(describe(null), 'null');
  assert.equal(describe(true), 'true');
  assert.equal(describe(undefined), 'nothing');
  assert.equal(describe([]), '[]');
  assert.equal(describe([1, 2]), 'an array of 2');
  assert.equal(describe({ a: 1 }), 'an object');
  assert.equal(describe('x'.repeat(100)), `"${'x'.repeat(40)}"...`);
  assert.equal(describe('x'.repeat(40)), `"${'x'.repeat(40)}"`);
  assert.equal(describe('x'.repeat(41)), `"${'x'.repeat(40)}"...`);
});

test('a container nested past the stack limit is still described', () => {
  let deep: unknown[] = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.equal(describe(deep), 'an array of 1');
});
