import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { after, now } from '../../src/run/time.ts';
import { sleep } from '../helpers/support.ts';

test('now() counts milliseconds, as performance.now() does', () => {
  // Each reading of now() is bracketed by two of performance.now(): both are
  // monotonic, so the span now() measures lies between the inner and the
  // outer span, however loaded the machine.
  const p0 = performance.now();
  const a = now();
  const p1 = performance.now();
  while (performance.now() < p1 + 20);
  const p2 = performance.now();
  const b = now();
  const p3 = performance.now();
  assert.ok(b - a >= p2 - p1 - 0.01 && b - a <= p3 - p0 + 0.01, `${b - a} ms, not within [${p2 - p1}, ${p3 - p0}]`);
});

test('a sub-millisecond delay fires, and not before it returns', async () => {
  let fired = false;
  after(0.0001, () => (fired = true));
  assert.equal(fired, false);
  await sleep(20);
  assert.equal(fired, true);
});

test('a zero delay fires asynchronously', async () => {
  let fired = false;
  after(0, () => (fired = true));
  assert.equal(fired, false);
  await sleep(20);
  assert.equal(fired, true);
});

test('a delay past setTimeout’s limit is not turned into 1 ms', async () => {
  let fired = false;
  const cancel = after(2 ** 31 + 5, () => (fired = true));
  await sleep(30);
  cancel();
  assert.equal(fired, false);
});

test('a huge delay re-arms in steps setTimeout accepts, then fires when due', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = 0;
  let fired = false;
  after(
    2 ** 32,
    () => (fired = true),
    () => now,
  );
  const step = 2 ** 31 - 1;
  now += step;
  t.mock.timers.tick(step);
  assert.equal(fired, false, 'fired after one step of 2^31-1 ms');
  now += step;
  t.mock.timers.tick(step);
  assert.equal(fired, false, 'fired 2 ms early');
  now += 2;
  t.mock.timers.tick(2);
  assert.equal(fired, true);
});

test('an early wake-up re-arms instead of firing', async () => {
  let now = 0;
  let fired = false;
  const cancel = after(
    5,
    () => (fired = true),
    () => now,
  );
  now = 4.5; // setTimeout woke, but the clock says 0.5 ms are left
  await sleep(15);
  assert.equal(fired, false);
  now = 5;
  await sleep(15);
  assert.equal(fired, true);
  cancel();
});

test('cancel stops it', async () => {
  let fired = false;
  const cancel = after(1, () => (fired = true));
  cancel();
  await sleep(20);
  assert.equal(fired, false);
});

test('Infinity never fires', async () => {
  let fired = false;
  const cancel = after(Infinity, () => (fired = true));
  await sleep(20);
  cancel();
  assert.equal(fired, false);
});
