import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigKeys } from '../../src/gates/activation.ts';

test('a miss names the closest key, or a few keys and a count', () => {
  const keys = new ConfigKeys(['workflow.tdd', 'workflow.security']);
  assert.equal(keys.has('workflow.tdd'), true);
  assert.equal(keys.has('constructor'), false);
  assert.equal(keys.miss('workflow.td'), '"workflow.td" is not a key of the capability\'s config; did you mean "workflow.tdd"?');
  assert.equal(keys.miss('other'), '"other" is not a key of the capability\'s config (keys: workflow.tdd, workflow.security)');
});

test('past its comparison budget, a huge config names a few keys: bounded time and text', () => {
  const keys = new ConfigKeys(Array.from({ length: 30_000 }, (_, i) => `k${i}`));
  const started = Date.now();
  const messages = Array.from({ length: 3000 }, (_, i) => keys.miss(`x${i}`));
  assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
  assert.ok(messages.every((m) => m.endsWith('(keys: k0, k1, k2, k3, k4 and 29995 more)')));
  // A long `when` is cut, not repeated whole.
  assert.ok(keys.miss('w'.repeat(100_000)).length < 200);
});

test('the budget is 20,000 key comparisons per capability: each hinted miss spends the number of keys', () => {
  const keys = (n: number) => new ConfigKeys(Array.from({ length: n }, (_, i) => `k${i}`));
  const hinted = (message: string) => message.includes('did you mean');
  const ten = keys(10_000);
  assert.deepEqual(['k12x', 'k13x', 'k14x'].map((when) => hinted(ten.miss(when))), [true, true, false]);
  // The same miss again is told the same, at no cost.
  assert.equal(ten.miss('k12x'), '"k12x" is not a key of the capability\'s config; did you mean "k12"?');
  assert.equal(hinted(keys(20_000).miss('k12x')), true);
  assert.equal(keys(20_001).miss('k12x'), '"k12x" is not a key of the capability\'s config (keys: k0, k1, k2, k3, k4 and 19996 more)');
});
