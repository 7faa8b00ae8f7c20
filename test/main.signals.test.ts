// The shipped artefact and the signals that stop it: every fatal signal that
// can be caught ends the commands' processes, wherever they moved in sh's
// session, and a stop with no command running still stops.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { CONCURRENTLY, describe, test, type TestContext } from './helpers/bounded.ts';
import { cli, ended, killSurvivors, marker, predicate, running, sleep, survivors, tempDir, within } from './helpers/support.ts';

const check = (fields: Record<string, unknown>, ...flags: string[]) => ['check', 'predicate', '--predicate', predicate(fields), ...flags];

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGALRM', 'SIGUSR1', 'SIGUSR2', 'SIGXCPU', 'SIGVTALRM', 'SIGPROF'] as const;
const stopped = (name: string) => `gsd-check: stopped by ${name}; any command it started was ended\n`;

// Readiness: gsd-check installs its stop handlers in one go, SIGPROF last, and
// Node catches no SIGPROF of its own. (SIGUSR1 cannot tell: Node catches it
// from the start, to open its inspector.)
async function handlersInstalled(child: ChildProcess): Promise<void> {
  const bit = 1n << BigInt(constants.signals.SIGPROF - 1);
  for (let started = Date.now(); ; ) {
    let caught = 0n;
    try {
      caught = BigInt(`0x${/^SigCgt:\s*([0-9a-f]+)/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? '0'}`);
    } catch {
      // not started yet
    }
    if ((caught & bit) !== 0n) return;
    assert.ok(Date.now() - started < 30_000, 'gsd-check never installed its SIGPROF handler');
    await sleep(5);
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await sleep(20);
  assert.ok(condition(), what);
}

function fifo(t: TestContext): string {
  const path = join(tempDir(t), 'fifo');
  assert.equal(spawnSync('mkfifo', [path]).status, 0);
  return path;
}

describe('signals', CONCURRENTLY, () => {
  for (const name of STOP_SIGNALS) {
    test(`${name} while a command runs: its group is ended, then exit 128+${constants.signals[name]}`, async (t) => {
      const mark = marker();
      t.after(() => killSurvivors(mark));
      let child: ChildProcess | undefined;
      // `sleep 2; touch` is how the leak was seen: the file appeared after gsd-check died.
      const pending = cli(check({ command: `sleep 300.${mark} & sleep 300.${mark}`, timeout: 600 }), { cwd: tempDir(t), onSpawn: (c) => (child = c) });
      await until(() => running(`sleep 300.${mark}`).length === 2, 'the command is running');
      child!.kill(name);
      // Long before the sleeps would end by themselves: a runner that ignored
      // the stop would still exit 128+N, once they had.
      const result = await within(pending, 60_000, `${name} ends the command and gsd-check`);
      assert.deepEqual(result, { status: 128 + constants.signals[name], signal: null, stdout: '', stderr: stopped(name) });
      assert.deepEqual(survivors(mark), []);
    });
  }

  test('a stop signal while no command runs (waiting on a FIFO): 128+N and nothing on stdout, in every command', async (t) => {
    const path = fifo(t);
    const dir = tempDir(t);
    const commands = [
      ['check', 'predicate', '--predicate-file', path],
      ['gates', 'run', '--point', 'ship:pre', '--capability', path],
      ['validate', path],
    ];
    for (const argv of commands) {
      for (const name of STOP_SIGNALS) {
        let child: ChildProcess | undefined;
        const pending = cli(argv, { cwd: dir, onSpawn: (c) => (child = c) });
        await handlersInstalled(child!);
        const started = Date.now();
        child!.kill(name);
        const result = await pending;
        // Not after the 30 s a FIFO may take: a stop ends the wait at once.
        assert.ok(Date.now() - started < 30_000, `${argv[0]} ${name}: ${Date.now() - started} ms`);
        assert.deepEqual([result.status, result.signal, result.stdout], [128 + constants.signals[name], null, ''], `${argv[0]} ${name}: ${result.stderr}`);
      }
    }
  });

  test("children that changed process group but stayed in sh's session are ended", async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    if (spawnSync('sh', ['-c', 'command -v bash && command -v perl'], { stdio: 'ignore' }).status !== 0) {
      return t.skip('SKIPPED: needs bash and perl to move a child to a group of its own');
    }
    // bash's job control and perl's setpgrp both put the sleep in a group of its
    // own; neither leaves the session. Output closed, so nothing holds the pipes.
    const movers = `bash -c 'set -m; sleep 30.${mark} >/dev/null 2>&1 &'; perl -e 'setpgrp(0, 0); exec "sleep", "31.${mark}"' >/dev/null 2>&1 &`;
    const exited = await cli(check({ command: `${movers} echo started` }, '--pick', 'message'), { cwd: tempDir(t) });
    assert.deepEqual([exited.status, exited.stdout, exited.stderr], [0, 'command exited 0\n', '']);
    assert.deepEqual(survivors(mark), []);

    // On a timeout, and on a stop signal, with the movers ignoring SIGTERM.
    const timedOut = await cli(check({ command: `trap '' TERM; ${movers} sleep 32.${mark}`, timeout: 0.5 }, '--pick', 'message', '--kill-after', '0.5'), {
      cwd: tempDir(t),
    });
    assert.equal(timedOut.stdout, 'command timed out after 0.5s\n');
    await ended(mark);
    let child: ChildProcess | undefined;
    const pending = cli(check({ command: `trap '' TERM; ${movers} sleep 32.${mark}` }, '--kill-after', '0.5'), {
      cwd: tempDir(t),
      onSpawn: (c) => (child = c),
    });
    await until(() => running(`sleep 3`).filter((line) => line.includes(mark)).length === 3, 'all three sleeps run');
    child!.kill('SIGINT');
    assert.deepEqual(await pending, { status: 130, signal: null, stdout: '', stderr: stopped('SIGINT') });
    await ended(mark);
  });

  test('eleven or more command gates at once: no MaxListenersExceededWarning', async (t) => {
    const dir = tempDir(t);
    const gate = { point: 'verify:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' };
    writeFileSync(join(dir, 'cap.json'), JSON.stringify({ id: 'c', gates: Array(16).fill(gate) }));
    const result = await cli(['gates', 'run', '--point', 'verify:pre', '--capability', 'cap.json', '--concurrency', '16', '--pick', 'block'], { cwd: dir });
    assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'false\n', '']);
  });
});
