import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gatesWithin } from '../../src/gates/fd-budget.ts';

test('gates at once within a descriptor limit: at least one, unbounded when unknown', () => {
  assert.equal(gatesWithin(undefined), Infinity);
  assert.equal(gatesWithin(30), 1);
  assert.equal(gatesWithin(1024), 141);
  assert.ok(gatesWithin(1024) * 7 + 32 <= 1024);
});
