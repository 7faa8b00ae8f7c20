import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isResourceLimit, retryingResourceLimits } from '../../src/run/resource-retry.ts';
import type { RunOptions, RunResult } from '../../src/run/runner.ts';
import { runResult } from '../support.ts';

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
  assert.deepEqual([result.spawnError, result.exitCode, fake.calls()], [null, 0, 4]);
});

test('other start failures are not retried; a lasting limit is given up after the retry time', async () => {
  const other = failingFirst(['ENOENT']);
  assert.equal((await retryingResourceLimits(other.run)(options)).spawnError, 'ENOENT');
  assert.equal(other.calls(), 1);
  const lasting = failingFirst(Array(1000).fill('EMFILE'));
  const started = Date.now();
  assert.equal((await retryingResourceLimits(lasting.run, 200)(options)).spawnError, 'EMFILE');
  assert.ok(Date.now() - started < 2000);
  assert.ok(lasting.calls() > 2);
});

test('a stop signal ends the pause between tries at once', async () => {
  const stop = new AbortController();
  let calls = 0;
  const run = async (o: RunOptions): Promise<RunResult> => {
    calls++;
    if (o.signal?.aborted) return runResult({ exitCode: null, interrupted: 'SIGTERM' });
    setImmediate(() => stop.abort('SIGTERM'));
    return runResult({ exitCode: null, spawnError: 'EMFILE' });
  };
  const started = Date.now();
  const result = await retryingResourceLimits(run, 60_000)({ ...options, signal: stop.signal });
  assert.deepEqual([result.interrupted, calls], ['SIGTERM', 2]);
  assert.ok(Date.now() - started < 1000);
});

test('which start failures are resource limits', () => {
  assert.deepEqual(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM', 'ENOENT', 'EACCES', null].map(isResourceLimit), [true, true, true, true, false, false, false]);
});
