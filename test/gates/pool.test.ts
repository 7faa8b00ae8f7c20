import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gatesWithin, mapPool } from '../../src/gates/pool.ts';
import { sleep } from '../helpers/support.ts';

test('keeps the order of the items, never more than the limit at once', async () => {
  let running = 0;
  let most = 0;
  const results = await mapPool([30, 5, 20, 1, 10, 2], 3, async (ms, index) => {
    running++;
    most = Math.max(most, running);
    await sleep(ms);
    running--;
    return `${index}:${ms}`;
  });
  assert.deepEqual(results, ['0:30', '1:5', '2:20', '3:1', '4:10', '5:2']);
  assert.equal(most, 3);
});

test('no items, and a limit above the count', async () => {
  assert.deepEqual(await mapPool([], 4, async () => 1), []);
  let most = 0;
  let running = 0;
  await mapPool([1, 2], 10, async () => {
    most = Math.max(most, ++running);
    await sleep(5);
    running--;
  });
  assert.equal(most, 2);
});

test('gates at once within a descriptor limit: at least one, unbounded when unknown', () => {
  assert.equal(gatesWithin(undefined), Infinity);
  assert.equal(gatesWithin(30), 1);
  assert.equal(gatesWithin(1024), 141);
  assert.ok(gatesWithin(1024) * 7 + 32 <= 1024);
});

test('a work that throws starts nothing more, is heard of at once, and is thrown once the running ones settled', async () => {
  const started: number[] = [];
  const settled: number[] = [];
  const heard: unknown[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const pending = mapPool(
    [0, 1, 2, 3],
    2,
    async (item) => {
      started.push(item);
      if (item === 1) throw new Error('bug');
      await held;
      settled.push(item);
      return item;
    },
    (error) => {
      heard.push(error);
      release();
    },
  );
  await assert.rejects(pending, /bug/);
  assert.deepEqual(started, [0, 1]);
  assert.deepEqual(settled, [0]);
  assert.equal(heard.length, 1);
});
