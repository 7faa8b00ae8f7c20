import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestsDeeperThan } from '../../src/json/parse.ts';

test('scalars nest 0 deep, each container one more; the deepest branch counts', () => {
  assert.equal(nestsDeeperThan(0, 0), false);
  assert.equal(nestsDeeperThan([], 0), true);
  assert.equal(nestsDeeperThan({}, 1), false);
  assert.equal(nestsDeeperThan([0], 0), true);
  assert.equal(nestsDeeperThan([0], 1), false);
  assert.equal(nestsDeeperThan({ a: [1, { b: 0 }], c: 2 }, 3), false);
  assert.equal(nestsDeeperThan({ a: [1, { b: [] }], c: 2 }, 3), true);
});

test('a million-deep value and a million-wide one: no stack overflow', () => {
  let deep: unknown = 0;
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  assert.equal(nestsDeeperThan(deep, 64), true);
  assert.equal(nestsDeeperThan(Array(1_000_000).fill([0]), 2), false);
});
