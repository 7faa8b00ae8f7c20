import assert from 'node:assert/strict';
import { test } from 'node:test';
import { now } from '../src/clock.ts';

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
