import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test, type TestContext } from '../helpers/bounded.ts';
import { fail, Stop } from '../../src/failure.ts';

const usageFailure = (message: string) => fail('usage', message);
import type { ChildPipe, Start } from '../../src/run/child.ts';
import { bindingStart, processBinding } from '../../src/run/child-binding.ts';
import { childProcessStart } from '../../src/run/child-process.ts';
import { isResourceLimit, makeRunner, retryingResourceLimits, type RunOptions, type RunResult, spawnErrorOf, systemRunner } from '../../src/run/runner.ts';
import { realTime, type Time } from '../../src/run/time.ts';
import { runResult, sketchOf } from '../helpers/fake-runner.ts';
import { FakeTime } from '../helpers/fake-time.ts';
import { ended, killSurvivors, marker, running, survivors, tempDir, until } from '../helpers/support.ts';

// A sleep whose command line carries a marker, so its survivors can be found.
function sleeper(t: TestContext, seconds = 30): { cmd: string; mark: string } {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  return { cmd: `sleep ${seconds}.${mark}`, mark };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// A FIFO the command waits on (`read x < fifo`) until the test lets it go on.
function gate(t: TestContext): { path: string; open: () => Promise<void> } {
  const path = join(tempDir(t), 'gate');
  execFileSync('mkfifo', [path]);
  return { path, open: () => writeFile(path, 'go\n') };
}

// The whole suite, once per way of starting sh: node:child_process, and
// Node's process binding, which the standalone binary uses, where this Node
// has the binding of the binary's (CI runs the suite on that Node).
const binding = bindingStart(processBinding);
if (binding === undefined)
  process.stderr.write(
    `\n*** the runner suite through the process binding is not run: Node ${process.version}'s binding has not the form of the standalone binary's Node ***\n\n`,
  );
const STARTS: (readonly [string, Start])[] = [['through node:child_process', childProcessStart]];
if (binding !== undefined) STARTS.unshift(['through the process binding', binding]);

// `start`, with each read of the child's pipes also told to `seen`.
function observed(start: Start, seen: (stream: 0 | 1, bytes: Uint8Array) => void): Start {
  const watch = (pipe: ChildPipe, stream: 0 | 1): ChildPipe => ({
    read: (onBytes, onEnd) =>
      pipe.read((bytes) => {
        onBytes(bytes);
        seen(stream, bytes);
      }, onEnd),
    close: () => pipe.close(),
  });
  return (request, events) =>
    start(request, {
      failed: events.failed,
      started: (child) => events.started({ pid: child.pid, stdout: watch(child.stdout, 0), stderr: watch(child.stderr, 1), status: child.status }),
    });
}

for (const [path, start] of STARTS) {
  describe(`starting ${path}`, () => {
    // Like runCommand, with `start`; `seen` hears each read as it arrives.
    function runner(time: Time = realTime, seen?: (stream: 0 | 1, bytes: Uint8Array) => void) {
      return retryingResourceLimits(makeRunner({ time, start: seen === undefined ? start : observed(start, seen) }));
    }
    const options = (command: string, more: Partial<RunOptions>): RunOptions => ({
      command,
      cwd: process.cwd(),
      env: process.env,
      // Only the tests of timeouts give one that can fire: under load, 256 MiB
      // through a pipe can take longer than any short default.
      timeoutMs: 600_000,
      killAfterMs: 1000,
      ...more,
    });
    const run = async (command: string, more: Partial<RunOptions> = {}) => sketchOf(await runner()(options(command, more)));

    test('exit status and output, stdout and stderr in arrival order', async (t) => {
      const [first, second] = [gate(t), gate(t)];
      let text = '';
      const pending = runner(
        realTime,
        (_, bytes) => (text += Buffer.from(bytes).toString()),
      )(options(`echo out; read x < ${first.path}; echo err >&2; read x < ${second.path}; echo out2; exit 3`, {}));
      await until(() => text === 'out\n', 'stdout was read');
      await first.open();
      await until(() => text === 'out\nerr\n', 'stderr was read');
      await second.open();
      const result = sketchOf(await pending);
      assert.equal(result.exitCode, 3);
      assert.equal(result.signal, null);
      assert.equal(result.timedOut, false);
      assert.equal(result.output.text, 'out\nerr\nout2\n');
      assert.equal(result.output.stdoutBytes, 9);
      assert.equal(result.output.stderrBytes, 4);
      assert.equal(result.output.truncated, false);
    });

    test('characters split across reads stay whole; invalid bytes become U+FFFD', async (t) => {
      const [first, second] = [gate(t), gate(t)];
      const bytes: [number, number] = [0, 0];
      const pending = runner(
        realTime,
        (stream, chunk) => (bytes[stream] += chunk.length),
      )(options(`printf '\\342'; read x < ${first.path}; printf 'E' >&2; read x < ${second.path}; printf '\\202\\254 \\377'`, {}));
      await until(() => bytes[0] === 1, 'the lead byte was read');
      await first.open();
      await until(() => bytes[1] === 1, 'stderr was read');
      await second.open();
      const result = sketchOf(await pending);
      assert.equal(result.output.text, 'E€ \ufffd');
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

    // Node reports these deaths to an asynchronous start as exit 0 with no
    // signal: only the report of the runner's own sh tells them apart.
    test('a death by any signal Node cannot name (32 to 64) blocks: by sh itself, or by the whole group', { timeout: 60_000 }, async () => {
      const sh = spawnSync('sh', ['-c', 'kill -l 34'], { encoding: 'utf8' });
      // Where sh cannot send real-time signals (macOS), there are none to lose.
      if (sh.status !== 0) return;
      for (let n = 32; n <= 64; n++) {
        const own = await run(`kill -s ${n} $$; exit 7`);
        assert.deepEqual([own.exitCode, own.signal === null], [null, false], `kill -s ${n} $$`);
        const group = await run(`kill -s ${n} 0; exit 7`);
        assert.deepEqual([group.exitCode, group.signal, group.timedOut], [null, null, false], `kill -s ${n} 0`);
      }
      assert.equal((await run('kill -s 34 $$')).signal, 'SIGRTMIN');
      // A command's own exit status passes through whole, 0 and 255 among them.
      assert.deepEqual(
        [(await run('exit 0')).exitCode, (await run('exit 125')).exitCode, (await run('exit 200')).exitCode, (await run('exit 255')).exitCode],
        [0, 125, 200, 255],
      );
      // sh reports a death by signal N as 128+N, and so does exit 128+N: both read as the death.
      assert.deepEqual([(await run('exit 130')).exitCode, (await run('exit 130')).signal], [null, 'SIGINT']);
    });

    // What a command could do where the kernel lets it take its parent's
    // descriptors (pidfd_getfd): write "0" on the runner's sh's descriptor 3,
    // then kill that sh by a signal Node reports as exit 0. A shell of the
    // test's own does both to itself: it must not read as a pass.
    test('a report of "0" from a runner\'s sh that then dies by a signal Node cannot name is no pass', async (t) => {
      if (spawnSync('sh', ['-c', 'kill -l 34']).status !== 0) return t.skip('no real-time signals here');
      const forger = join(tempDir(t), 'forger');
      writeFileSync(forger, '#!/bin/sh\nprintf 0 >&3\nkill -s 34 $$\n', { mode: 0o755 });
      const result = await run('exit 1', { shell: forger });
      assert.deepEqual([result.exitCode, result.signal, result.timedOut], [null, null, false]);
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
      // An ignored signal stays ignored across exec, so sleep ignores it too.
      const result = await run(`trap '' TERM; ${cmd} & ${cmd}`, { timeoutMs: 200, killAfterMs: 300 });
      assert.equal(result.timedOut, true);
      assert.equal(result.signal, 'SIGKILL');
      await ended(mark);
    });

    test('a sub-millisecond timeout is enforced', async () => {
      const result = await run('true', { timeoutMs: 0.1 });
      assert.equal(result.timedOut, true);
    });

    test('a huge timeout neither overflows nor fires early', async () => {
      const result = await run('exit 0', { timeoutMs: 1e308 * 1000 });
      assert.equal(result.timedOut, false);
      assert.equal(result.exitCode, 0);
      const big = await run('exit 0', { timeoutMs: 2 ** 31 + 1 });
      assert.equal(big.timedOut, false);
    });

    test('a background process holding the pipes neither delays the verdict nor survives', async (t) => {
      const { cmd, mark } = sleeper(t);
      const result = await run(`${cmd} & echo started`, { timeoutMs: 5000 });
      assert.equal(result.exitCode, 0);
      assert.equal(result.timedOut, false);
      assert.equal(result.output.text, 'started\n');
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
      await ended(mark);
    });

    test('an abort ends the group and is reported as an interruption', async (t) => {
      const { cmd, mark } = sleeper(t);
      const stop = new AbortController();
      const pending = run(`${cmd} & ${cmd}`, { signal: stop.signal });
      await until(() => running(cmd).length === 2, 'the sleeps are seen running before the abort');
      stop.abort(new Stop('SIGINT'));
      const result = await pending;
      assert.equal(result.interrupted, 'SIGINT');
      assert.equal(result.signal, 'SIGTERM');
      assert.deepEqual(survivors(mark), []);
    });

    test('a second, forcing abort kills at once', async (t) => {
      const { cmd, mark } = sleeper(t);
      const stop = new AbortController();
      const force = new AbortController();
      const termed = join(tempDir(t), 'termed');
      // The sleep ignores SIGTERM; sh notes the group's SIGTERM in a file.
      const pending = run(`(trap '' TERM; exec ${cmd}) & trap 'touch ${termed}' TERM; wait; wait`, {
        signal: stop.signal,
        force: force.signal,
        killAfterMs: 60_000,
      });
      // sh's own command line carries the marker too: wait for the sleep itself,
      // which ignores SIGTERM once it runs.
      await until(() => running(cmd).length === 1, 'the sleep is running');
      stop.abort(new Stop('SIGTERM'));
      await until(() => existsSync(termed), 'the group got SIGTERM');
      force.abort();
      const result = await pending;
      assert.equal(result.interrupted, 'SIGTERM');
      assert.equal(result.signal, 'SIGKILL');
      await ended(mark);
    });

    test('an abort before the start starts nothing', async (t) => {
      const dir = tempDir(t);
      const stop = new AbortController();
      stop.abort(new Stop('SIGHUP'));
      const result = await run(`touch ${join(dir, 'ran')}`, { signal: stop.signal, cwd: dir });
      assert.equal(result.interrupted, 'SIGHUP');
      assert.equal(result.exitCode, null);
      assert.equal(result.timedOut, false);
      assert.equal(existsSync(join(dir, 'ran')), false);
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

    test('with keepStdout, the head of stdout comes apart from the tail', async () => {
      const result = await run(`printf '{"a":1}'; echo noise >&2`, { keepStdout: 4 });
      assert.deepEqual(result.stdout, { text: '{"a"', complete: false });
      assert.equal(result.output.text, '{"a":1}noise\n');
      assert.equal((await run('true')).stdout, undefined);
    });

    test('sh missing or not executable answers like a shell would', async (t) => {
      const dir = tempDir(t);
      const missing = await run('true', { env: { PATH: dir } });
      assert.equal(missing.spawnError, 'ENOENT');
      assert.equal(missing.timedOut, false);
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

    // The timing rules, on a fake clock: the test moves time, nothing sleeps.

    test('a command that ends at or after its deadline timed out, though the timer had no chance to fire', async () => {
      const late = new FakeTime();
      const pending = runner(late)(options('exit 0', { timeoutMs: 5 }));
      late.skip(5);
      const result = sketchOf(await pending);
      assert.equal(result.timedOut, true);
      assert.equal(result.exitCode, 0);
      assert.equal(result.durationMs, 5);
      const early = new FakeTime();
      const inTime = runner(early)(options('exit 0', { timeoutMs: 5 }));
      early.skip(4.5);
      assert.equal(sketchOf(await inTime).timedOut, false);
    });

    test('the duration ends at sh’s exit: the 100 ms drain of a pipe held open is not in it', async (t) => {
      const { cmd, mark } = sleeper(t);
      const time = new FakeTime();
      let settled = false;
      const pending = runner(time)(options(`${cmd} & exit 0`, {})).finally(() => (settled = true));
      time.skip(7);
      await until(() => time.pending().join() === '100', 'sh exited and the drain began');
      time.advance(99);
      await tick();
      assert.equal(settled, false, 'stopped reading before 100 ms');
      time.advance(1);
      // The sleep dies of the SIGTERM; the ending looks every 10 ms.
      while (!settled) {
        time.advance(10);
        await tick();
      }
      const result = sketchOf(await pending);
      assert.equal(result.durationMs, 7);
      assert.equal(result.exitCode, 0);
      await until(() => survivors(mark).length === 0, 'the sleep is gone');
    });

    test('what sh leaves behind gets 200 ms between SIGTERM and SIGKILL', async (t) => {
      const { cmd, mark } = sleeper(t);
      const go = gate(t);
      const time = new FakeTime();
      let settled = false;
      const pending = runner(time)(options(`(trap '' TERM; exec ${cmd}) >/dev/null 2>&1 & read x < ${go.path}`, {})).finally(() => (settled = true));
      await until(() => running(cmd).length === 1, 'the TERM-ignoring sleep runs');
      await go.open();
      await until(() => time.pending().join() === '10', 'sh exited and the group got SIGTERM');
      time.advance(199);
      await tick();
      assert.equal(settled, false);
      assert.equal(running(cmd).length, 1, 'killed before 200 ms');
      time.advance(1);
      await tick();
      assert.equal(settled, true, 'not killed at 200 ms');
      const result = sketchOf(await pending);
      assert.equal(result.exitCode, 0);
      assert.equal(result.timedOut, false);
      await until(() => survivors(mark).length === 0, 'the sleep was killed');
    });

    test('a timed-out group gets --kill-after, not the 200 ms of a group sh left behind', async (t) => {
      const { cmd, mark } = sleeper(t);
      const time = new FakeTime();
      let settled = false;
      const pending = runner(time)(options(`(trap '' TERM; exec ${cmd}) >/dev/null 2>&1 & exec ${cmd}`, { timeoutMs: 50, killAfterMs: 1000 })).finally(
        () => (settled = true),
      );
      await until(() => running(cmd).length === 2, 'both sleeps run');
      time.advance(50);
      await until(() => time.pending().join() === '10', 'sh died of the SIGTERM and the rest is looked after');
      time.advance(999);
      await tick();
      assert.equal(settled, false);
      assert.equal(running(cmd).length, 1, 'killed before --kill-after');
      time.advance(1);
      await tick();
      assert.equal(settled, true, 'not killed at --kill-after');
      const result = sketchOf(await pending);
      assert.equal(result.timedOut, true);
      assert.equal(result.signal, 'SIGTERM');
      await until(() => survivors(mark).length === 0, 'the TERM-ignoring sleep was killed');
    });
  });
}

// Starts that fail for a resource limit, tried again.
const retryOptions: RunOptions = { command: 'true', cwd: '/', env: {}, timeoutMs: 1000, killAfterMs: 100 };

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
  const result = await retryingResourceLimits(fake.run)(retryOptions);
  assert.deepEqual([sketchOf(result).spawnError, sketchOf(result).exitCode, fake.calls()], [null, 0, 4]);
});

test('other start failures are not retried', async () => {
  const other = failingFirst(['ENOENT']);
  assert.equal(sketchOf(await retryingResourceLimits(other.run)(retryOptions)).spawnError, 'ENOENT');
  assert.equal(other.calls(), 1);
});

// Lets every promise callback run, so the retry is waiting on its timer.
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('the pauses start at 10 ms and double up to 250 ms; a limit that lasts the whole retry time is given up at it', async () => {
  const time = new FakeTime();
  const lasting = failingFirst(Array(1000).fill('EMFILE'));
  let answer: RunResult | undefined;
  // 10 + 20 + 40 + 80 + 160 + 250 + 250 = 810: the eighth start ends the retry time exactly.
  void retryingResourceLimits(lasting.run, 810, time)(retryOptions).then((result) => (answer = result));
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
  const result = await retryingResourceLimits(run, 60_000, time)({ ...retryOptions, signal: stop.signal });
  assert.deepEqual([sketchOf(result).interrupted, calls, time.pending()], ['SIGTERM', 2, []]);
});

test('which start failures are resource limits', () => {
  assert.deepEqual(
    ['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM', 'ENOENT', 'EACCES', undefined].map((spawnError) =>
      isResourceLimit(runResult(spawnError === undefined ? {} : { spawnError })),
    ),
    [true, true, true, true, false, false, false],
  );
});

test('ENOENT is a missing cwd when the cwd is not a directory, else a missing sh', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'file'), '');
  assert.deepEqual(spawnErrorOf('ENOENT', join(dir, 'gone')), { kind: 'cwd-missing' });
  assert.deepEqual(spawnErrorOf('ENOENT', join(dir, 'file')), { kind: 'cwd-missing' });
  assert.deepEqual(spawnErrorOf('ENOENT', dir), { kind: 'system', code: 'ENOENT' });
});

test('EACCES is a cwd we may not enter when it cannot be searched, else an sh we may not run', (t) => {
  const dir = tempDir(t);
  assert.deepEqual(spawnErrorOf('EACCES', join(dir, 'gone')), { kind: 'cwd-denied' });
  assert.deepEqual(spawnErrorOf('EACCES', dir), { kind: 'system', code: 'EACCES' });
});

test('any other code is passed on as it is', (t) => {
  assert.deepEqual(spawnErrorOf('EMFILE', join(tempDir(t), 'gone')), { kind: 'system', code: 'EMFILE' });
});

test('a stop after a command ended signals nothing: its group id may be another group by then', async (t) => {
  const run = makeRunner({ time: realTime, start: binding ?? childProcessStart });
  const stop = new AbortController();
  const force = new AbortController();
  const result = await run({
    command: 'true',
    cwd: process.cwd(),
    env: process.env,
    timeoutMs: 600_000,
    killAfterMs: 1000,
    signal: stop.signal,
    force: force.signal,
  });
  assert.equal(result.status, 'ended');
  const kill = t.mock.method(process, 'kill', () => true);
  stop.abort(new Stop('SIGTERM'));
  force.abort(new Stop('SIGTERM'));
  assert.deepEqual(
    kill.mock.calls.map((call) => call.arguments),
    [],
  );
});

test('GSD_CHECK_SPAWN: unset, empty or child_process give a runner; any other value is a usage error naming it', async () => {
  for (const spawn of [undefined, '', 'child_process']) {
    for (const standalone of [false, true]) {
      const runner = systemRunner(spawn, () => standalone);
      assert.ok(runner.ok, String(spawn));
      assert.equal(
        sketchOf(await runner.value({ command: 'exit 3', cwd: process.cwd(), env: process.env, timeoutMs: 600_000, killAfterMs: 1000 })).exitCode,
        3,
      );
    }
  }
  for (const spawn of ['child-process', 'binding', ' child_process']) {
    assert.deepEqual(
      systemRunner(spawn, () => true),
      usageFailure(`GSD_CHECK_SPAWN ${JSON.stringify(spawn)} is not a way to start commands; give child_process, or leave it unset`),
    );
  }
});

test('whether it is the standalone binary is asked at the first start, once, and not under GSD_CHECK_SPAWN=child_process', async () => {
  for (const spawn of [undefined, '', 'child_process']) {
    let asked = 0;
    const runner = systemRunner(spawn, () => (asked++, false));
    assert.ok(runner.ok);
    assert.equal(asked, 0, 'nothing is asked before a start');
    for (let i = 0; i < 2; i++)
      assert.equal(
        sketchOf(await runner.value({ command: 'exit 3', cwd: process.cwd(), env: process.env, timeoutMs: 600_000, killAfterMs: 1000 })).exitCode,
        3,
      );
    assert.equal(asked, spawn === 'child_process' ? 0 : 1, String(spawn));
  }
});
