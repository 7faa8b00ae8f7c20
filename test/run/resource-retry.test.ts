import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isResourceLimit, retryingResourceLimits } from '../../src/run/resource-retry.ts';
import type { RunOptions, RunResult } from '../../src/run/runner.ts';
import { FakeTime } from '../fake-time.ts';
import { runResult, sketchOf } from '../support.ts';

const options: RunOptions = { command: 'true', cwd: '/', env: {}, timeoutMs: 1000, killAfterMs: 100 };

// A runner whose first starts fail with `codes`, in turn.
function failingFirst(codes: (string | null)[]) {
  let calls = 0;
  const run = async (): Promise<RunResult> => {
    const code = codes[calls++] ?? null;
    return code === null ? runResult() : runResult({ exitCode: null, spawnError: code });
  };
  return { run, calls: () => calls };
}

test('a start that failed for a resource limit is tried again until it starts', async () => {
  const fake = failingFirst(['EMFILE', 'ENFILE', 'EAGAIN']);
  const result = await retryingResourceLimits(fake.run)(options);
  assert.deepEqual([sketchOf(result).spawnError, sketchOf(result).exitCode, fake.calls()], [null, 0, 4]);
});

test('other start failures are not retried', async () => {
  const other = failingFirst(['ENOENT']);
  assert.equal(sketchOf(await retryingResourceLimits(other.run)(options)).spawnError, 'ENOENT');
  assert.equal(other.calls(), 1);
});

// Lets every promise callback run, so the retry is waiting on its timer.
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('the pauses start at 10 ms and double up to 250 ms; a limit that lasts the whole retry time is given up at it', async () => {
  const time = new FakeTime();
  const lasting = failingFirst(Array(1000).fill('EMFILE'));
  let answer: RunResult | undefined;
  // 10 + 20 + 40 + 80 + 160 + 250 + 250 = 810: the eighth start ends the retry time exactly.
  void retryingResourceLimits(lasting.run, 810, time)(options).then((result) => (answer = result));
  const pauses: number[][] = [];
  for (;;) {
    await settled();
    if (answer !== undefined) break;
    const pending = time.pending();
    pauses.push(pending);
    time.advance(pending[0]!);
  }
  assert.deepEqual(pauses, [[10], [20], [40], [80], [160], [250], [250]]);
  assert.deepEqual([sketchOf(answer).spawnError, lasting.calls()], ['EMFILE', 8]);
});

test('a stop signal ends the pause between tries at once', async () => {
  const time = new FakeTime();
  const stop = new AbortController();
  let calls = 0;
  const run = async (o: RunOptions): Promise<RunResult> => {
    calls++;
    if (o.signal?.aborted) return runResult({ exitCode: null, interrupted: 'SIGTERM' });
    setImmediate(() => stop.abort('SIGTERM'));
    return runResult({ exitCode: null, spawnError: 'EMFILE' });
  };
  // The clock never moves: only the stop can end the pause.
  const result = await retryingResourceLimits(run, 60_000, time)({ ...options, signal: stop.signal });
  assert.deepEqual([sketchOf(result).interrupted, calls, time.pending()], ['SIGTERM', 2, []]);
});

test('which start failures are resource limits', () => {
  assert.deepEqual(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM', 'ENOENT', 'EACCES', undefined].map((spawnError) => isResourceLimit(runResult(spawnError === undefined ? {} : { spawnError }))), [true, true, true, true, false, false, false]);
});
