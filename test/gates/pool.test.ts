import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from '../helpers/bounded.ts';
import { gatesWithin, mapPool } from '../../src/gates/pool.ts';
import { systemRunner } from '../../src/run/runner.ts';

const runCommand = (systemRunner(undefined, () => false) as { ok: true; value: import('../../src/run/runner.ts').Runner }).value;
import { Stop } from '../../src/failure.ts';
import { killSurvivors, marker, ROOT, running, sleep, until } from '../helpers/support.ts';

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

const LIMITS = Array.from({ length: 4097 }, (_, limit) => limit);

// The budget as gatesWithin applies it, read from its answers: the
// descriptors each further gate takes (`share`), and those kept back for
// gsd-check itself (`reserve`): n gates (n > 1) run at once from a limit of
// reserve + n * share.
function budget(): { share: number; reserve: number } {
  const from = (gates: number) => LIMITS.find((limit) => gatesWithin(limit) >= gates)!;
  const share = from(3) - from(2);
  return { share, reserve: from(2) - 2 * share };
}

test('gates at once within a descriptor limit: at least one, unbounded when unknown', () => {
  assert.equal(gatesWithin(undefined), Infinity);
  // A limit too small for the budget still runs the gates, one by one.
  assert.deepEqual([gatesWithin(0), gatesWithin(1)], [1, 1]);
});

test('more descriptors never mean fewer gates, each further gate takes the same share, and the gates fit', () => {
  const { share, reserve } = budget();
  for (const limit of LIMITS) {
    const gates = gatesWithin(limit);
    assert.ok(Number.isInteger(gates) && gates >= 1, `${limit}: ${gates}`);
    // One more descriptor admits at most one more gate, never takes one away.
    assert.ok([0, 1].includes(gatesWithin(limit + 1) - gates), `${limit}: ${gates} then ${gatesWithin(limit + 1)}`);
    if (gates > 1) {
      assert.ok(reserve + gates * share <= limit, `${limit}: ${gates} gates of ${share} and ${reserve} kept back do not fit`);
      assert.ok(reserve + (gates + 1) * share > limit, `${limit}: room for ${gates + 1} gates, ${gates} run`);
    }
  }
});

// The budget against what is really held: a command the real runner runs
// keeps descriptors open while it runs (the read ends of its pipes), and
// more while it starts (the child's ends and the pipe that reports a failed
// exec, until the exec), so a gate's share must be above what a running
// command is seen to hold; the reserve must cover what a Node process holds
// at rest (this one, which runs the test harness besides).
test('the share of a gate covers what a running command holds, the reserve what Node holds', async (t) => {
  const { share, reserve } = budget();
  const open = () => readdirSync('/proc/self/fd').length;
  const atRest = open();
  assert.ok(atRest <= reserve, `this process holds ${atRest} descriptors at rest, the reserve is ${reserve}`);
  const mark = marker();
  t.after(() => killSurvivors(mark));
  const stop = new AbortController();
  const commands = 4;
  const runs = Array.from({ length: commands }, () =>
    runCommand({ command: `exec sleep 30.${mark}`, cwd: ROOT, env: process.env, timeoutMs: 600_000, killAfterMs: 1000, signal: stop.signal }),
  );
  await until(() => running(`sleep 30.${mark}`).length === commands, `${commands} commands running`);
  const held = (open() - atRest) / commands;
  stop.abort(new Stop('SIGTERM'));
  await Promise.all(runs);
  assert.ok(held >= 1 && held < share, `a running command holds ${held} descriptors, a gate's share is ${share}`);
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
