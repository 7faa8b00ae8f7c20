// The artefact under faults: each has a defined outcome.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONCURRENTLY, describe, test } from './helpers/bounded.ts';
import { project } from './helpers/project.ts';
import {
  catches,
  cli,
  ended,
  holdsOpen,
  killSurvivors,
  marker,
  predicate,
  running,
  survivors,
  tempDir,
  unprivileged,
  until,
  within,
} from './helpers/support.ts';

const check = (fields: Record<string, unknown>, ...flags: string[]) => ['check', 'predicate', '--predicate', predicate(fields), ...flags];
const message = async (command: string, options: Parameters<typeof cli>[1] = {}) => (await cli(check({ command }, '--pick', 'message'), options)).stdout;

describe('faults', CONCURRENTLY, () => {
  test('stdout closed by the reader: no crash, exit 74, and the command group is still ended', async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    const result = await cli(check({ command: `sleep 30.${mark} >/dev/null 2>&1 & echo x; exit 1` }), { onSpawn: (c) => c.stdout?.destroy() });
    assert.deepEqual([result.status, result.stderr], [74, 'gsd-check: cannot write the output: EPIPE\n']);
    assert.deepEqual(survivors(`sleep 30.${mark}`), []);
  });

  test('the project root deleted while the command runs: the verdict stands', async (t) => {
    const root = project(t, { '.planning': null });
    const result = await cli(check({ command: 'rm -rf "$PWD"; echo gone; exit 3' }, '--raw'), { cwd: root });
    const envelope = JSON.parse(result.stdout);
    assert.deepEqual([envelope.message, envelope.details.cwd], ['command exited 3: gone', root]);
  });

  test('--predicate-file a directory, 100 MiB of JSON, a FIFO: clear errors, never a hang', async (t) => {
    const dir = tempDir(t);
    assert.deepEqual(await cli(['check', 'predicate', '--predicate-file', dir]), {
      status: 2,
      signal: null,
      stdout: '',
      stderr: `gsd-check: cannot read --predicate-file ${dir}: is a directory\n`,
    });
    const big = join(dir, 'big.json');
    assert.equal(spawnSync('sh', ['-c', `head -c 104857600 /dev/zero | tr '\\0' ' ' > ${big}`]).status, 0);
    assert.deepEqual(await cli(['check', 'predicate', '--predicate-file', big]), {
      status: 2,
      signal: null,
      stdout: '',
      stderr: `gsd-check: --predicate-file ${big} is larger than 1048576 bytes\n`,
    });
    // A FIFO with a writer works; with none, a stop signal ends the wait at once.
    const fifo = join(dir, 'fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const writer = spawn('sh', ['-c', `printf '%s' '${predicate({ command: 'exit 4' })}' > ${fifo}`], { stdio: 'ignore' });
    t.after(() => writer.kill());
    assert.equal((await cli(['check', 'predicate', '--predicate-file', fifo, '--pick', 'message'])).stdout, 'command exited 4\n');
    const started = Date.now();
    let reader: import('node:child_process').ChildProcess | undefined;
    const waiting = cli(['check', 'predicate', '--predicate-file', fifo], { onSpawn: (c) => (reader = c) });
    // Ready when it waits on the FIFO: its stop handlers are installed by then.
    await until(() => reader?.pid !== undefined && catches(reader.pid, 'SIGINT') && holdsOpen(reader.pid, fifo), 'gsd-check waits on the FIFO');
    reader!.kill('SIGINT');
    const result = await waiting;
    assert.deepEqual([result.status, result.stdout], [130, '']);
    // Not after the 30 s a FIFO may take: the stop ended the wait.
    assert.ok(Date.now() - started < 30_000);
  });

  test('a --predicate-file FIFO removed while gsd-check waits for its writer: a stop signal still ends it at once', async (t) => {
    const dir = tempDir(t);
    const fifo = join(dir, 'fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    let reader: import('node:child_process').ChildProcess | undefined;
    const waiting = cli(['check', 'predicate', '--predicate-file', fifo], { onSpawn: (c) => (reader = c) });
    t.after(() => reader?.kill('SIGKILL'));
    await until(() => reader?.pid !== undefined && catches(reader.pid, 'SIGTERM') && holdsOpen(reader.pid, fifo), 'gsd-check waits on the FIFO');
    rmSync(fifo);
    reader!.kill('SIGTERM');
    const result = await waiting;
    assert.deepEqual([result.status, result.stdout], [143, '']);
  });

  test('an unreadable --predicate-file', async (t) => {
    // As root (CI) the check runs as an unprivileged user, for whom modes count.
    const wrap = unprivileged(t);
    if (wrap === undefined) return;
    const dir = tempDir(t);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'p.json'), '{}');
    chmodSync(join(dir, 'p.json'), 0);
    const result = await cli(['check', 'predicate', '--predicate-file', join(dir, 'p.json')], { wrap });
    assert.deepEqual([result.status, result.stderr], [2, `gsd-check: cannot read --predicate-file ${join(dir, 'p.json')}: permission denied\n`]);
  });

  test('sh that is not executable: exit 126 as a shell would say', async (t) => {
    const bin = tempDir(t);
    writeFileSync(join(bin, 'sh'), '#!/bin/sh\n');
    chmodSync(join(bin, 'sh'), 0o644);
    symlinkSync(process.execPath, join(bin, 'node'));
    assert.equal(await message('true', { env: { PATH: bin } }), 'command exited 126: sh: permission denied\n');
  });

  test('odd output: stdout closed early, no final newline, carriage-return progress, a flood on stderr', async () => {
    assert.equal(await message('exec 1>&-; sleep 0.1; echo late >&2; exit 2'), 'command exited 2: late\n');
    assert.equal(await message('printf abc; exit 1'), 'command exited 1: abc\n');
    assert.equal(await message("printf '10%%\\r20%%\\r100%%\\r'; exit 1"), 'command exited 1: 100%\n');
    const flood = await cli(check({ command: 'head -c 20000000 /dev/zero | tr "\\0" e >&2; exit 5' }, '--raw'));
    const envelope = JSON.parse(flood.stdout);
    assert.deepEqual([envelope.details.exitCode, envelope.details.stdoutBytes, envelope.details.stderrBytes], [5, 0, 20_000_000]);
    assert.equal(envelope.message, `command exited 5: ${'e'.repeat(2000)}`);
  });

  test('a process that leaves the group with setsid: out of reach, as documented, but no wait for it', async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    const started = Date.now();
    const result = await cli(check({ command: `setsid sleep 30.${mark} & echo escaped`, timeout: 5 }, '--pick', 'message'));
    assert.equal(result.stdout, 'command exited 0\n');
    assert.ok(Date.now() - started < 5000, 'gsd-check did not wait for the escaped process');
    assert.equal(running(`sleep 30.${mark}`).length, 1, 'the escaped process is still running: the documented limit');
  });

  test('a stop signal at the very start: the process ends and leaves nothing behind', async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const result = await cli(check({ command: `sleep 30.${mark}` }), { onSpawn: (c) => c.kill(name) });
      // Before its handlers are installed, Node dies of the signal; after, it exits 128+N.
      assert.ok(result.signal === name || (result.status !== null && result.status > 128), `${name}: ${JSON.stringify(result)}`);
      assert.equal(result.stdout, '');
    }
    await until(() => survivors(`sleep 30.${mark}`).length === 0, 'every command process has ended');
  });

  test("a stop signal during a timeout's grace: the group ends by the grace, then 128+N", async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    const termed = join(tempDir(t), 'termed');
    const started = Date.now();
    let child: import('node:child_process').ChildProcess | undefined;
    // The sleep ignores SIGTERM; sh notes the timeout's SIGTERM in a file: the grace has begun.
    const command = `(trap '' TERM; exec sleep 30.${mark}) & trap 'touch ${termed}' TERM; wait; wait`;
    const pending = cli(check({ command, timeout: 0.2 }, '--kill-after', '1'), { onSpawn: (c) => (child = c) });
    await until(() => existsSync(termed), 'the timeout sent SIGTERM to the group');
    child!.kill('SIGINT');
    const result = await pending;
    assert.deepEqual([result.status, result.stdout], [130, '']);
    // Ended by the grace, not by the sleep's own 30 s.
    assert.ok(Date.now() - started < 30_000);
    await ended(`sleep 30.${mark}`);
  });

  test('many gates under a low descriptor limit: all run, and a blocking gate still blocks', async (t) => {
    const dir = tempDir(t);
    const gate = (command: string) => ({ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command } }, blocking: true, onError: 'skip' });
    // The last gate blocks; had its start failed with EMFILE and been routed by
    // onError, it would be skipped and the point would pass.
    writeFileSync(join(dir, 'cap.json'), JSON.stringify({ id: 'c', gates: [...Array(39).fill(gate('true')), gate('exit 1')] }));
    const result = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--concurrency', '1000', '--raw'], {
      cwd: dir,
      // ulimit applies to the shell and what it execs: gsd-check itself.
      wrap: (argv) => ['sh', ['-c', 'ulimit -n 30; exec "$0" "$@"', ...argv]],
    });
    assert.deepEqual([result.status, result.stderr], [0, '']);
    const envelope = JSON.parse(result.stdout);
    const gates = envelope.details.gates as { status: string; envelope?: { message: string } }[];
    assert.deepEqual(
      gates.map((g) => g.status),
      [...Array(39).fill('pass'), 'halt'],
    );
    assert.deepEqual([envelope.block, gates[39]!.envelope?.message], [true, 'command exited 1']);
  });

  test('a bug inside gsd-check: exit 70, one line saying so, no verdict on stdout', async (t) => {
    if (process.env.GSD_CHECK_BIN !== undefined) return t.skip('needs node to preload the fault into the bundle');
    // The fault: the envelope cannot be turned into JSON, as if a bug threw
    // while the output was made. Preloaded, so the bundle itself is unchanged.
    const dir = tempDir(t);
    const hook = join(dir, 'break-stringify.cjs');
    writeFileSync(hook, "JSON.stringify = () => { throw new TypeError('injected fault'); };\n");
    const result = await cli(check({ command: 'true' }), { wrap: (argv) => [process.execPath, ['--require', hook, ...argv]] });
    assert.equal(result.status, 70);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^gsd-check: internal error \(a bug; please report it\): TypeError: injected fault\n/);
  });

  test('a bug in one gate of gates run: no gate starts after it, every running command is ended, then exit 70', async (t) => {
    if (process.env.GSD_CHECK_BIN !== undefined) return t.skip('needs node to preload the fault into the bundle');
    const mark = marker();
    t.after(() => killSurvivors(mark));
    const dir = project(t, { '.planning/phases/01-faults': null });
    // The fault: reading the answer of one query throws, as if a bug did. The
    // answer comes once the other gate's command runs (a FIFO between them).
    const hook = join(dir, 'break-answer.cjs');
    writeFileSync(
      hook,
      "const parse = JSON.parse;\nJSON.parse = (...args) => { const value = parse(...args); if (value && value.inject === true) Object.defineProperty(value, 'block', { get() { throw new TypeError('injected fault'); } }); return value; };\n",
    );
    const fifo = join(dir, 'fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const command = (text: string) => ({
      point: 'ship:pre',
      check: { predicate: { kind: 'command-exit-zero', command: text, timeout: 600 } },
      blocking: true,
      onError: 'halt',
    });
    writeFileSync(
      join(dir, 'cap.json'),
      JSON.stringify({
        id: 'c',
        gates: [
          command(`echo > ${fifo}; sleep 300.${mark}`),
          { point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' },
          command(`touch ${join(dir, 'third')}`),
        ],
      }),
    );
    const answer = `read x < ${fifo}; echo '{"block":false,"inject":true}'`;
    const pending = cli(
      ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--concurrency', '2', '--phase-number', '01', '--query-command', answer],
      {
        cwd: dir,
        wrap: (argv) => [process.execPath, ['--require', hook, ...argv]],
      },
    );
    // Long before the sleep would end by itself: a running group left alone keeps gsd-check waiting.
    const result = await within(pending, 60_000, 'gsd-check ends the running command and exits');
    assert.equal(result.status, 70, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /gsd-check: internal error \(a bug; please report it\): TypeError: injected fault\n/);
    assert.deepEqual(survivors(mark), []);
    assert.equal(existsSync(join(dir, 'third')), false, 'a gate started after the bug');
  });
});
