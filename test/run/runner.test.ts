import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCommand, type RunOptions } from '../../src/run/runner.ts';
import { killSurvivors, marker, survivors, tempDir, until } from '../support.ts';

function run(command: string, options: Partial<RunOptions> = {}) {
  return runCommand({ command, cwd: process.cwd(), env: process.env, timeoutMs: 10_000, killAfterMs: 1000, ...options });
}

// A sleep whose command line carries a marker, so its survivors can be found.
function sleeper(t: TestContext, seconds = 30): { cmd: string; mark: string } {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  return { cmd: `sleep ${seconds}.${mark}`, mark };
}

test('exit status and output, stdout and stderr in arrival order', async () => {
  const result = await run('echo out; sleep 0.05; echo err >&2; sleep 0.05; echo out2; exit 3');
  assert.equal(result.exitCode, 3);
  assert.equal(result.signal, null);
  assert.equal(result.timedOut, false);
  assert.equal(result.output.text, 'out\nerr\nout2\n');
  assert.equal(result.output.stdoutBytes, 9);
  assert.equal(result.output.stderrBytes, 4);
  assert.equal(result.output.truncated, false);
});

test('stdin is empty and the environment is the one given', async () => {
  const result = await run('cat; test "$GSD_TEST_VALUE" = "a b"', { env: { ...process.env, GSD_TEST_VALUE: 'a b' } });
  assert.equal(result.exitCode, 0);
});

test('a death by signal is a signal, not an exit code', async () => {
  const result = await run('kill -KILL $$');
  assert.equal(result.exitCode, null);
  assert.equal(result.signal, 'SIGKILL');
  assert.equal(result.timedOut, false);
});

test('a timeout ends the whole group with SIGTERM and keeps the output', async (t) => {
  const { cmd, mark } = sleeper(t);
  const result = await run(`echo before; ${cmd} & ${cmd}`, { timeoutMs: 300 });
  assert.equal(result.timedOut, true);
  assert.equal(result.signal, 'SIGTERM');
  assert.equal(result.output.text, 'before\n');
  assert.deepEqual(survivors(mark), []);
});

test('a command that ignores SIGTERM is killed after the grace', async (t) => {
  const { cmd, mark } = sleeper(t);
  const started = Date.now();
  // An ignored signal stays ignored across exec, so sleep ignores it too.
  const result = await run(`trap '' TERM; ${cmd} & ${cmd}`, { timeoutMs: 200, killAfterMs: 300 });
  const elapsed = Date.now() - started;
  assert.equal(result.timedOut, true);
  assert.equal(result.signal, 'SIGKILL');
  assert.ok(elapsed < 200 + 300 + 1000, `took ${elapsed} ms`);
  assert.deepEqual(survivors(mark), []);
});

test('a sub-millisecond timeout is enforced', async () => {
  const result = await run('true', { timeoutMs: 0.1 });
  assert.equal(result.timedOut, true);
});

test('a huge timeout neither overflows nor fires early', async () => {
  const result = await run('sleep 0.05', { timeoutMs: 1e308 * 1000 });
  assert.equal(result.timedOut, false);
  assert.equal(result.exitCode, 0);
  const big = await run('sleep 0.05', { timeoutMs: 2 ** 31 + 1 });
  assert.equal(big.timedOut, false);
});

test('a background process holding the pipes neither delays the verdict nor survives', async (t) => {
  const { cmd, mark } = sleeper(t);
  const started = Date.now();
  const result = await run(`${cmd} & echo started`, { timeoutMs: 5000 });
  const elapsed = Date.now() - started;
  assert.equal(result.exitCode, 0);
  assert.equal(result.timedOut, false);
  assert.equal(result.output.text, 'started\n');
  assert.ok(elapsed < 2000, `took ${elapsed} ms for a 30 s background sleep`);
  assert.deepEqual(survivors(mark), []);
});

test('a background process that closed its pipes is ended too', async (t) => {
  const { cmd, mark } = sleeper(t);
  const result = await run(`${cmd} >/dev/null 2>&1 &`);
  assert.equal(result.exitCode, 0);
  assert.deepEqual(survivors(mark), []);
});

test('a background process that ignores SIGTERM is killed after the short grace', async (t) => {
  const { cmd, mark } = sleeper(t);
  const result = await run(`trap '' TERM; ${cmd} >/dev/null 2>&1 &`);
  assert.equal(result.exitCode, 0);
  assert.deepEqual(survivors(mark), []);
});

test('an abort ends the group and is reported as an interruption', async (t) => {
  const { cmd, mark } = sleeper(t);
  const stop = new AbortController();
  const pending = run(`${cmd} & ${cmd}`, { signal: stop.signal });
  await until(() => survivors(mark).length >= 2, 'the sleeps are seen running before the abort');
  stop.abort('SIGINT');
  const result = await pending;
  assert.equal(result.interrupted, 'SIGINT');
  assert.equal(result.signal, 'SIGTERM');
  assert.deepEqual(survivors(mark), []);
});

test('a second, forcing abort kills at once', async (t) => {
  const { cmd, mark } = sleeper(t);
  const stop = new AbortController();
  const force = new AbortController();
  const started = Date.now();
  const termed = join(tempDir(t), 'termed');
  // The sleep ignores SIGTERM; sh notes the group's SIGTERM in a file.
  const pending = run(`(trap '' TERM; exec ${cmd}) & trap 'touch ${termed}' TERM; wait; wait`, { signal: stop.signal, force: force.signal, killAfterMs: 60_000 });
  await until(() => survivors(mark).length >= 1, 'the sleep is running');
  stop.abort('SIGTERM');
  await until(() => existsSync(termed), 'the group got SIGTERM');
  force.abort();
  const result = await pending;
  assert.equal(result.interrupted, 'SIGTERM');
  assert.equal(result.signal, 'SIGKILL');
  assert.ok(Date.now() - started < 10_000);
  assert.deepEqual(survivors(mark), []);
});

test('an abort before the start starts nothing', async (t) => {
  const dir = tempDir(t);
  const stop = new AbortController();
  stop.abort('SIGHUP');
  const result = await run(`touch ${join(dir, 'ran')}`, { signal: stop.signal, cwd: dir });
  assert.equal(result.interrupted, 'SIGHUP');
  assert.equal(result.exitCode, null);
  assert.deepEqual(survivors(join(dir, 'ran')), []);
});

test('a lot of output is read to the end, keeps its tail and never changes the exit code', async () => {
  const size = 256 * 1024 * 1024;
  const result = await run(`head -c ${size} /dev/zero; printf 'END'; exit 0`);
  assert.equal(result.exitCode, 0);
  assert.equal(result.output.stdoutBytes, size + 3);
  assert.equal(result.output.truncated, true);
  // The ring holds 64 KiB, as the docs say.
  assert.equal(result.output.text.length, 65536);
  assert.ok(result.output.text.endsWith('\0\0END'));
  const failing = await run(`head -c ${2 * 1024 * 1024} /dev/zero >&2; exit 4`);
  assert.equal(failing.exitCode, 4);
  assert.equal(failing.output.stderrBytes, 2 * 1024 * 1024);
});

test('characters split across reads stay whole; invalid bytes become U+FFFD', async () => {
  const result = await run(`printf '\\342'; sleep 0.05; printf 'E' >&2; sleep 0.05; printf '\\202\\254 \\377'`);
  assert.equal(result.output.text, 'E€ \ufffd');
});

test('sh missing or not executable answers like a shell would', async (t) => {
  const dir = tempDir(t);
  const missing = await run('true', { env: { PATH: dir } });
  assert.equal(missing.spawnError, 'ENOENT');
  writeFileSync(join(dir, 'sh'), '#!/bin/sh\n');
  chmodSync(join(dir, 'sh'), 0o644);
  const notExecutable = await run('true', { shell: join(dir, 'sh') });
  assert.equal(notExecutable.spawnError, 'EACCES');
});

test('a missing cwd is told apart from a missing sh', async (t) => {
  const dir = tempDir(t);
  const result = await run('true', { cwd: join(dir, 'gone') });
  assert.equal(result.spawnError, 'cwd-missing');
});
