// `gates run` through the shipped artefact, spawned as a user would: exit
// status, stdout and stderr.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CONCURRENTLY, describe, test } from './helpers/bounded.ts';
import { artifact, project } from './helpers/project.ts';
import { cli, ENV, killSurvivors, marker, running, survivors, tempDir, until } from './helpers/support.ts';

describe('gates run', CONCURRENTLY, () => {
  test("gates run: a stop signal ends every running gate's group", async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    const dir = tempDir(t);
    const sleeper = { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: `sleep 30.${mark}` } }, blocking: true, onError: 'halt' };
    writeFileSync(join(dir, 'cap.json'), JSON.stringify({ gates: [sleeper, sleeper] }));
    let child: import('node:child_process').ChildProcess | undefined;
    const pending = cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--concurrency', '2'], { cwd: dir, onSpawn: (c) => (child = c) });
    await until(() => running(`sleep 30.${mark}`).length === 2, 'both gates are running');
    child!.kill('SIGTERM');
    const result = await pending;
    assert.deepEqual([result.status, result.stdout, result.stderr], [143, '', 'gsd-check: stopped by SIGTERM; any command it started was ended\n']);
    assert.deepEqual(survivors(mark), []);
  });

  test('gates run: the two-step contract over real gates, in declaration order', async (t) => {
    const root = project(t, {
      '.planning/config.json': { workflow: { extra: true } },
      '.planning/phases/02-api/02-SECURITY.md': artifact({ threats_open: 0 }),
      'caps/sec/cap.json': {
        id: 'security',
        config: { 'workflow.extra': { type: 'boolean', default: false }, 'workflow.never': { type: 'boolean', default: false } },
        gates: [
          {
            point: 'ship:pre',
            check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } },
            blocking: true,
            onError: 'halt',
          },
          {
            point: 'ship:pre',
            check: { predicate: { kind: 'command-exit-zero', command: 'test "$GSD_CAP_DIR" = "$(pwd)/caps/sec"' } },
            when: 'workflow.extra',
            blocking: true,
            onError: 'halt',
          },
          { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'echo lint warnings; exit 1' } }, blocking: false, onError: 'halt' },
          { point: 'ship:pre', check: { query: 'phase.ready' }, blocking: true, onError: 'skip' },
          { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'false' } }, when: 'workflow.never', blocking: true, onError: 'halt' },
        ],
      },
    });
    const args = ['gates', 'run', '--point', 'ship:pre', '--capability', 'caps/sec/cap.json', '--phase-dir', '.planning/phases/02-api', '--raw'];
    const result = await cli(args, { cwd: root });
    assert.equal(result.status, 0, result.stderr);
    const envelope = JSON.parse(result.stdout);
    assert.deepEqual(
      envelope.details.gates.map((g: { index: number; status: string }) => [g.index, g.status]),
      [
        [0, 'pass'],
        [1, 'pass'],
        [2, 'advisory'],
        [3, 'skipped'],
        [4, 'inactive'],
      ],
    );
    assert.equal(envelope.block, false);
    assert.equal(envelope.message, 'ship:pre: passed (2 pass, 1 advisory, 1 skipped, 1 inactive)');
    // Not a terminal: stderr only tells what failed (the skipped query gate).
    assert.match(
      result.stderr,
      /^gsd-check: ship:pre security#3 \[query phase\.ready\] skipped \(\d+ ms\): query phase\.ready: no query command: give --query-command \(or GSD_CHECK_QUERY_COMMAND\), or put gsd-tools on PATH\n$/,
    );

    writeFileSync(join(root, '.planning/phases/02-api/02-SECURITY.md'), '---\nthreats_open: 2\n---\n');
    const halted = await cli([...args, '--exit-code', '--pick', 'message'], { cwd: root });
    assert.deepEqual(
      [halted.status, halted.stdout],
      [
        1,
        'ship:pre: halted by security#0 (security#0: Frontmatter field "threats_open" in .planning/phases/02-api/02-SECURITY.md is 2, expected 0); 1 advisory\n',
      ],
    );

    const missingConfig = await cli([...args, '--config', 'nope.json'], { cwd: root });
    assert.deepEqual([missingConfig.status, missingConfig.stdout, missingConfig.stderr], [2, '', 'gsd-check: cannot read --config nope.json: no such file\n']);
    const badCapability = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'nope.json'], { cwd: root });
    assert.deepEqual([badCapability.status, badCapability.stderr], [2, 'gsd-check: cannot read capability file nope.json: no such file\n']);
  });

  test('gates run: gates of one point run in parallel, each in its own group', async (t) => {
    const root = tempDir(t);
    const log = join(root, 'log');
    const wanted = join(root, 'wanted');
    const step = (name: string) => ({
      point: 'verify:pre',
      // Each gate ends once `wanted` gates have started (or after 30 s): in
      // parallel all three start first, whatever the machine's load.
      check: {
        predicate: {
          kind: 'command-exit-zero',
          command: `echo "start ${name}" >> ${log}; i=0; while [ "$(grep -c start ${log})" -lt "$(cat ${wanted})" ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i + 1)); done; echo "end ${name}" >> ${log}`,
        },
      },
      blocking: true,
      onError: 'halt',
    });
    writeFileSync(join(root, 'cap.json'), JSON.stringify({ id: 'c', gates: [step('a'), step('b'), step('c')] }));
    const run = async (concurrency: string) => {
      writeFileSync(log, '');
      writeFileSync(wanted, concurrency);
      const result = await cli(['gates', 'run', '--point', 'verify:pre', '--capability', 'cap.json', '--concurrency', concurrency, '--pick', 'block'], {
        cwd: root,
      });
      assert.equal(result.stdout, 'false\n', result.stderr);
      return readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]);
    };
    // In parallel every gate starts before any ends; one at a time they alternate.
    assert.deepEqual(await run('3'), ['start', 'start', 'start', 'end', 'end', 'end']);
    assert.deepEqual(await run('1'), ['start', 'end', 'start', 'end', 'start', 'end']);
  });

  test("gates run --hooks -: GSD's rendered gates from standard input, queries answered by a command", async (t) => {
    const root = project(t, { '.planning/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 0 }) });
    const hooks = JSON.stringify({
      point: 'ship:pre',
      activeHooks: [
        {
          capId: 'security',
          kind: 'gate',
          when: 'workflow.security_enforcement',
          check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } },
          blocking: true,
          onError: 'halt',
        },
        { capId: 'ui', kind: 'gate', check: { query: 'ui.plan-gate' }, blocking: true, onError: 'halt' },
        { capId: 'notes', kind: 'step', body: 'not a gate' },
      ],
    });
    // The query command sees the query and the phase as variables, never as text.
    const answer = 'test "$GSD_QUERY|$PHASE_NUMBER" = "ui.plan-gate|04" && echo \'{"block":false,"frontend":false}\'';
    const run = (env: Record<string, string | undefined>, ...flags: string[]) =>
      cli(['gates', 'run', '--point', 'ship:pre', '--hooks', '-', '--phase-number', '04', '--raw', ...flags], {
        cwd: root,
        input: hooks,
        env: { ...ENV, ...env },
      });
    const result = await run({}, '--query-command', answer);
    assert.equal(result.status, 0, result.stderr);
    const envelope = JSON.parse(result.stdout);
    assert.deepEqual([envelope.block, envelope.message], [false, 'ship:pre: passed (2 pass)']);
    assert.deepEqual(
      envelope.details.gates.map((g: { capability: string; status: string }) => [g.capability, g.status]),
      [
        ['security', 'pass'],
        ['ui', 'pass'],
      ],
    );
    assert.deepEqual(envelope.details.gates[1].envelope.details, {
      kind: 'query',
      query: 'ui.plan-gate',
      command: answer,
      exitCode: 0,
      answer: { block: false, frontend: false },
    });
    // The same from the environment; a failing answer halts, naming the query.
    const fromEnv = await run({ GSD_CHECK_QUERY_COMMAND: 'echo nope; exit 3' });
    // (ui's two gates are at plan:pre and execute:wave:post in GSD's registry:
    // one rendered at ship:pre is counted after them.)
    assert.deepEqual(JSON.parse(fromEnv.stdout).message, 'ship:pre: halted by ui#2 (ui#2: query ui.plan-gate: the query command exited 3: nope)');
    // Hooks rendered for another point are refused.
    const other = await cli(['gates', 'run', '--point', 'plan:pre', '--hooks', '-'], { cwd: root, input: hooks });
    assert.deepEqual([other.status, other.stderr], [2, 'gsd-check: the hooks on standard input: rendered for point "ship:pre", not for --point plan:pre\n']);
  });

  test("gates run: with gsd-tools on PATH and no query command, GSD's own form answers", async (t) => {
    const root = tempDir(t);
    const bin = join(root, 'bin');
    mkdirSync(bin);
    // A stand-in gsd-tools that records how it was called.
    writeFileSync(join(bin, 'gsd-tools'), `#!/bin/sh\nprintf '%s|' "$@" > ${join(root, 'called')}\necho '{"block":true,"message":"ui spec missing"}'\n`);
    chmodSync(join(bin, 'gsd-tools'), 0o755);
    mkdirSync(join(root, '.planning/phases/04-ui'), { recursive: true });
    writeFileSync(
      join(root, 'cap.json'),
      JSON.stringify({ id: 'ui', gates: [{ point: 'plan:pre', check: { query: 'ui.plan-gate' }, blocking: false, onError: 'halt' }] }),
    );
    const result = await cli(['gates', 'run', '--point', 'plan:pre', '--capability', 'cap.json', '--phase-number', '4', '--pick', 'message'], {
      cwd: root,
      env: { ...ENV, PATH: `${bin}:${ENV.PATH}` },
    });
    assert.deepEqual([result.status, result.stdout], [0, 'plan:pre: passed (1 advisory)\n']);
    assert.equal(readFileSync(join(root, 'called'), 'utf8'), 'check|ui.plan-gate|4|--raw|');
  });

  test('gates run: the gsd-tools found on PATH is the one run, never one a relative PATH entry finds in the project', async (t) => {
    const root = tempDir(t);
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'gsd-tools'), `#!/bin/sh\necho '{"block":true,"message":"the real gsd-tools"}'\n`);
    chmodSync(join(bin, 'gsd-tools'), 0o755);
    // Planted in the repository, where a relative PATH entry finds it from the project root.
    mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
    writeFileSync(join(root, 'node_modules/.bin/gsd-tools'), `#!/bin/sh\necho '{"block":false,"message":"planted"}'\n`);
    chmodSync(join(root, 'node_modules/.bin/gsd-tools'), 0o755);
    mkdirSync(join(root, '.planning/phases/04-ui'), { recursive: true });
    writeFileSync(
      join(root, 'cap.json'),
      JSON.stringify({ id: 'ui', gates: [{ point: 'plan:pre', check: { query: 'ui.plan-gate' }, blocking: true, onError: 'halt' }] }),
    );
    const result = await cli(['gates', 'run', '--point', 'plan:pre', '--capability', 'cap.json', '--phase-number', '4', '--pick', 'message'], {
      cwd: root,
      env: { ...ENV, PATH: `node_modules/.bin:${bin}:${ENV.PATH}` },
    });
    assert.deepEqual([result.status, result.stdout], [0, 'plan:pre: halted by ui#0 (ui#0: the real gsd-tools)\n']);
  });

  test('gates run on a terminal: a progress line per gate on stderr; off a terminal, none for gates that ran', async (t) => {
    if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) return t.skip('needs util-linux script for a terminal');
    const dir = tempDir(t);
    const gate = { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' };
    writeFileSync(join(dir, 'cap.json'), JSON.stringify({ id: 'cap', gates: [gate] }));
    const args = ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json'];
    const quoted = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
    // Under script(1) all three are a terminal; stdout goes to /dev/null inside
    // it, so what script passes on is stderr's.
    const onTerminal = await cli(args, { cwd: dir, wrap: (argv) => ['script', ['-qec', `exec ${argv.map(quoted).join(' ')} >/dev/null`, '/dev/null']] });
    assert.equal(onTerminal.status, 0);
    assert.match(onTerminal.stdout, /^gsd-check: ship:pre cap#0 \[predicate command-exit-zero\] pass \(\d+ ms\)\r?\n$/);
    const offTerminal = await cli(args, { cwd: dir });
    assert.deepEqual([offTerminal.status, offTerminal.stderr], [0, '']);
  });

  test("gates run --builtin: GSD 1.14's own ship:pre gates; --pick takes list items in brackets", async (t) => {
    const root = project(t, { '.planning/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 2 }) });
    const env = { PATH: ENV.PATH, HOME: join(root, 'home') };
    const run = (...args: string[]) => cli(['gates', 'run', '--point', 'ship:pre', '--builtin', '--phase-number', '04', ...args], { cwd: root, env });
    assert.deepEqual(await run('--pick', 'details.gates[-1].envelope.message'), {
      status: 0,
      signal: null,
      stdout: 'Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0\n',
      stderr: '',
    });
    assert.equal((await run('--pick', 'details.gates[0].status')).stdout, 'inactive\n');
    assert.equal((await run('--pick', 'details.gates[0].capability')).stdout, 'broken-windows\n');
    assert.equal((await run('--pick', 'details.gates[2]')).stderr, 'gsd-check: --pick details.gates[2]: the envelope has no such field\n');
    assert.equal(
      (await run('--pick', 'details.point[0]')).stderr,
      'gsd-check: --pick details.point[0]: details.point is a single value, with nothing below it (see gsd-check --help)\n',
    );
    assert.equal(
      (await run('--hooks', '-')).stderr,
      'gsd-check: --hooks and --builtin cannot be used together: rendered hooks are already resolved by GSD (see gsd-check --help)\n',
    );
  });

  test("gates run --phase-number of a phase with no directory: an error naming it and the directories there are, when a gate past discuss:pre reads the phase; discuss:pre's gates and STATE.md's phase run as GSD's loop has them", async (t) => {
    const gate = (point: string, check: unknown) => ({ point, check, blocking: true, onError: 'halt' });
    const root = project(t, {
      '.planning/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 0 }),
      '.planning/phases/05-docs': null,
      'cap.json': {
        id: 'c',
        gates: [
          gate('discuss:pre', { query: 'spec.ready' }),
          gate('ship:pre', { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } }),
          gate('verify:pre', { predicate: { kind: 'command-exit-zero', command: 'true' } }),
        ],
      },
    });
    const run = (...flags: string[]) =>
      cli(['gates', 'run', '--capability', 'cap.json', '--query-command', 'echo \'{"block":false}\'', '--pick', 'message', ...flags], { cwd: root });
    const missing =
      "gsd-check: --phase-number 7: no directory of .planning/phases is that phase's (whose phase directories are 04-ship, 05-docs); give the number of one, or --phase-dir\n";
    for (const points of [['--point', 'ship:pre'], ['--point', 'discuss:pre', '--point', 'ship:pre'], ['--reached']]) {
      assert.deepEqual(await run(...points, '--phase-number', '7'), { status: 2, signal: null, stdout: '', stderr: missing }, points.join(' '));
    }
    assert.deepEqual(await run('--point', 'ship:pre', '--phase-number', '4'), { status: 0, signal: null, stdout: 'ship:pre: passed (1 pass)\n', stderr: '' });
    // discuss-phase renders discuss:pre before it makes the phase's directory.
    assert.deepEqual(await run('--point', 'discuss:pre', '--phase-number', '7'), {
      status: 0,
      signal: null,
      stdout: 'discuss:pre: passed (1 pass)\n',
      stderr: '',
    });
    // A point whose gates read no phase needs no directory.
    assert.deepEqual(await run('--point', 'verify:pre', '--phase-number', '7'), {
      status: 0,
      signal: null,
      stdout: 'verify:pre: passed (1 pass)\n',
      stderr: '',
    });
    // The next phase STATE.md names, before its discussion, has none yet: its gates run as they always did.
    writeFileSync(join(root, '.planning/STATE.md'), '---\ncurrent_phase: 07\n---\n# Project State\n');
    assert.deepEqual(await run('--point', 'ship:pre', '--current-phase'), {
      status: 0,
      signal: null,
      stdout:
        'ship:pre: halted by c#1 (c#1: Artifact matching SECURITY.md not found in . (no phase directory of .planning/phases matches --phase-number 07))\n',
      stderr: '',
    });
  });
});
