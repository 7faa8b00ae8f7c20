import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from '../../helpers/bounded.ts';
import { texts } from '../../helpers/deps.ts';
import type { GatesOptions } from '../../../src/cli/gates-options.ts';
import type { GatesDeps } from '../../../src/commands/deps.ts';
import { testGatesDeps } from '../../helpers/deps.ts';
import { gatesRun } from '../../../src/commands/gates-run/command.ts';
import { fail, ok } from '../../../src/failure.ts';
import { gatesWithin } from '../../../src/gates/pool.ts';
import { runResult } from '../../helpers/fake-runner.ts';
import { project, writeTree } from '../../helpers/project.ts';
import { tempDir } from '../../helpers/support.ts';

const capability = JSON.stringify({
  id: 'cap',
  gates: [
    { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'ok' } }, blocking: true, onError: 'halt' },
    { point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'skip' },
  ],
});

function deps(dir: string, lines: { progress: string[]; warn: string[] }, tty: boolean): GatesDeps {
  return testGatesDeps(dir, {
    readInput: texts(async (path, label) => (path.endsWith('cap.json') ? ok(capability) : fail('unreadable-file', `cannot read ${label}: no such file`))),
    progress: tty ? (line) => lines.progress.push(line) : undefined,
    warn: (line) => lines.warn.push(line),
  });
}

// A project with the directory of options' phase, which its gates read.
const phased = (t: TestContext): string => project(t, { '.planning/phases/01-ship': null });

const options: GatesOptions = {
  points: ['ship:pre'],
  printed: 'point',
  phaseNumber: '01',
  capabilities: ['cap.json'],
  consent: [],
  builtin: false,
  render: false,
  reached: false,
  ship: false,
  requireTestedGsd: false,
  killAfter: 1,
  currentPhase: false,
  queryTimeout: 30,
  reports: [],
  raw: true,
  exitCode: false,
  jsonErrors: false,
};

test('on a terminal, one progress line per gate as it finishes', async (t) => {
  const lines = { progress: [] as string[], warn: [] as string[] };
  const outcome = await gatesRun(options, deps(phased(t), lines, true));
  assert.equal(outcome.exitCode, 0);
  assert.equal(lines.progress.length, 2);
  assert.match(lines.progress.find((l) => l.includes('cap#0'))!, /^gsd-check: ship:pre cap#0 \[predicate command-exit-zero\] pass \(\d+ ms\)$/);
  assert.match(
    lines.progress.find((l) => l.includes('cap#1'))!,
    /^gsd-check: ship:pre cap#1 \[query q\] skipped \(\d+ ms\): query q: no query command: give --query-command \(or GSD_CHECK_QUERY_COMMAND\), or put gsd-tools on PATH$/,
  );
  assert.deepEqual(lines.warn, []);
});

test('elsewhere, only what failed', async (t) => {
  const lines = { progress: [] as string[], warn: [] as string[] };
  await gatesRun(options, deps(phased(t), lines, false));
  assert.deepEqual(lines.progress, []);
  assert.equal(lines.warn.length, 1);
  assert.match(lines.warn[0]!, /cap#1 \[query q\] skipped/);
});

test('a capability that is not an object, or whose gates are not a list, fails the command', async (t) => {
  const dir = tempDir(t);
  for (const [text, message] of [
    ['[]', 'gsd-check: capability file cap.json is not a JSON object\n'],
    ['{"gates":{}}', 'gsd-check: capability file cap.json: gates must be an array\n'],
    ['{', 'gsd-check: capability file cap.json is not valid JSON: '],
  ] as const) {
    const outcome = await gatesRun(options, { ...deps(dir, { progress: [], warn: [] }, false), readInput: texts(async () => ok(text)) });
    assert.equal(outcome.exitCode, 2);
    assert.ok(outcome.stderr.startsWith(message), outcome.stderr);
  }
});

// A runner that counts how many commands run at once. Every gate of the
// pool starts before any finishes (each yields once before ending), so the
// peak is the pool's size.
function counting() {
  let running = 0;
  const stats = { peak: 0, runs: 0 };
  const run = async () => {
    stats.runs++;
    stats.peak = Math.max(stats.peak, ++running);
    await new Promise((resolve) => setImmediate(resolve));
    running--;
    return runResult();
  };
  return { run, stats };
}

const many = JSON.stringify({
  id: 'many',
  gates: Array.from({ length: 8 }, () => ({
    point: 'ship:pre',
    check: { predicate: { kind: 'command-exit-zero', command: 'ok' } },
    blocking: true,
    onError: 'halt',
  })),
});

test('gates run at once: --concurrency, else as many as CPUs, within the descriptor limit', async (t) => {
  const dir = tempDir(t);
  const peak = async (extra: Partial<GatesOptions>, world: Partial<GatesDeps>) => {
    const { run, stats } = counting();
    const base = deps(dir, { progress: [], warn: [] }, false);
    const outcome = await gatesRun({ ...options, ...extra }, { ...base, readInput: texts(async () => ok(many)), run, ...world });
    assert.equal(outcome.exitCode, 0, outcome.stderr);
    assert.equal(stats.runs, 8);
    return stats.peak;
  };
  assert.equal(await peak({}, { cpus: 3 }), 3);
  assert.equal(await peak({}, { cpus: 5 }), 5);
  assert.equal(await peak({}, { cpus: 1 }), 1);
  assert.equal(await peak({ concurrency: 2 }, { cpus: 6 }), 2);
  // A descriptor limit in which two gates fit (test/gates/pool.test.ts
  // checks that budget) caps what --concurrency and the CPUs would allow.
  const fdLimit = Array.from({ length: 1024 }, (_, limit) => limit).find((limit) => gatesWithin(limit) === 2)!;
  assert.equal(await peak({ concurrency: 6 }, { cpus: 6, fdLimit }), 2);
  assert.equal(await peak({ concurrency: 6 }, { cpus: 6, fdLimit: fdLimit - 1 }), 1);
});

test("capability, config and hooks files are taken from --cwd, not the process's directory", async (t) => {
  const dir = phased(t);
  mkdirSync(join(dir, 'sub'));
  const read: string[] = [];
  const world: Partial<GatesDeps> = {
    cwd: () => dir,
    readInput: texts(async (path) => {
      read.push(path);
      return ok(path.endsWith('hooks.json') ? JSON.stringify({ point: 'ship:pre', activeHooks: [] }) : path.endsWith('conf.json') ? '{}' : capability);
    }),
  };
  const withCapability = await gatesRun({ ...options, cwd: 'sub', config: 'conf.json' }, { ...deps(dir, { progress: [], warn: [] }, false), ...world });
  assert.equal(withCapability.exitCode, 0, withCapability.stderr);
  const withHooks = await gatesRun(
    { ...options, capabilities: [], hooks: 'hooks.json', cwd: 'sub' },
    { ...deps(dir, { progress: [], warn: [] }, false), ...world },
  );
  assert.equal(withHooks.exitCode, 0, withHooks.stderr);
  assert.deepEqual(read, [join(dir, 'sub/cap.json'), join(dir, 'sub/conf.json'), join(dir, 'sub/hooks.json')]);
});

test('a capability that is not an object is reason invalid-capability, as JSON too', async (t) => {
  const outcome = await gatesRun(
    { ...options, jsonErrors: true },
    { ...deps(tempDir(t), { progress: [], warn: [] }, false), readInput: texts(async () => ok('[]')) },
  );
  assert.deepEqual(
    [outcome.exitCode, JSON.parse(outcome.stderr)],
    [2, { ok: false, reason: 'invalid-capability', message: 'capability file cap.json is not a JSON object' }],
  );
});

test('--hooks: a file from --cwd or - for standard input, each named as such when it cannot be read or parsed', async (t) => {
  const dir = phased(t);
  const asked: [string, string][] = [];
  const reading = (text: string | undefined): Partial<GatesDeps> => ({
    readInput: texts(async (path, label) => (asked.push([path, label]), text === undefined ? fail('unreadable-file', `cannot read ${label}`) : ok(text))),
  });
  const run = (hooks: string, text: string | undefined) =>
    gatesRun({ ...options, capabilities: [], hooks }, { ...deps(dir, { progress: [], warn: [] }, false), ...reading(text) });
  assert.deepEqual((await run('-', undefined)).stderr, 'gsd-check: cannot read the hooks on standard input\n');
  assert.deepEqual((await run('h.json', undefined)).stderr, 'gsd-check: cannot read --hooks h.json\n');
  assert.deepEqual((await run('-', '{')).stderr, 'gsd-check: the hooks on standard input is not valid JSON: unexpected end at line 1, column 2\n');
  assert.deepEqual(asked, [
    ['-', 'the hooks on standard input'],
    [join(dir, 'h.json'), '--hooks h.json'],
    ['-', 'the hooks on standard input'],
  ]);
  const fine = await run(
    '-',
    JSON.stringify({ point: 'ship:pre', activeHooks: [{ capId: 'c', kind: 'gate', check: { query: 'q' }, blocking: false, onError: 'skip' }] }),
  );
  assert.deepEqual([fine.exitCode, JSON.parse(fine.stdout).message], [0, 'ship:pre: passed (1 skipped)']);
});

test('--hooks that are empty say so: the producer before the pipe printed nothing (it failed, or is not installed)', async (t) => {
  const dir = tempDir(t);
  const run = (hooks: string, text: string) =>
    gatesRun({ ...options, capabilities: [], hooks }, { ...deps(dir, { progress: [], warn: [] }, false), readInput: texts(async () => ok(text)) });
  const piped = await run('-', '');
  assert.deepEqual(
    [piped.exitCode, piped.stdout, piped.stderr],
    [
      2,
      '',
      'gsd-check: the hooks on standard input are empty: whatever was to print them (gsd_run loop render-hooks ship:pre --raw) printed nothing; did it fail?\n',
    ],
  );
  assert.equal(
    (await run('h.json', ' \n')).stderr,
    'gsd-check: --hooks h.json is empty: it should hold the output of gsd_run loop render-hooks ship:pre --raw\n',
  );
});

test("--builtin: GSD 1.14's own ship:pre gates, switched by GSD's keys, before the capability files", async (t) => {
  const dir = phased(t);
  const gates = async (config?: unknown) => {
    if (config !== undefined) writeTree(dir, { '.planning/config.json': config });
    const outcome = await gatesRun(
      { ...options, builtin: true },
      {
        ...deps(dir, { progress: [], warn: [] }, false),
        readInput: texts(async (path) => (path.endsWith('cap.json') ? ok(capability) : ok(config === undefined ? '{}' : JSON.stringify(config)))),
      },
    );
    assert.equal(outcome.exitCode, 0, outcome.stderr);
    const envelope = JSON.parse(outcome.stdout) as { details: { gates: { capability: string; status: string; activation?: { key: string } }[] } };
    return envelope.details.gates.map((g) => `${g.capability} ${g.status === 'inactive' ? `inactive (${g.activation?.key})` : 'active'}`);
  };
  // windows_enforce is off by default, security_enforcement on.
  assert.deepEqual(await gates(), ['broken-windows inactive (workflow.windows_enforce)', 'security active', 'cap active', 'cap active']);
  assert.deepEqual(await gates({ workflow: { windows_enforce: true, security_enforcement: false } }), [
    'broken-windows active',
    'security inactive (workflow.security_enforcement)',
    'cap active',
    'cap active',
  ]);
});

test('each config warning is one line on stderr, whatever the config holds', async (t) => {
  const lines = { progress: [] as string[], warn: [] as string[] };
  const world = deps(phased(t), lines, false);
  const config = JSON.stringify({ 'workflow.on': true, 'a.\ngsd-check: forged': 1 });
  const outcome = await gatesRun(
    { ...options, config: 'c.json' },
    { ...world, readInput: async (path, label) => (path.endsWith('c.json') ? ok(Buffer.from(config)) : world.readInput(path, label)) },
  );
  assert.equal(outcome.exitCode, 0, outcome.stderr);
  assert.deepEqual(
    lines.warn.filter((line) => line.includes('warning')),
    [
      'gsd-check: warning: --config c.json has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): workflow.on, a.\\ngsd-check: forged',
    ],
  );
});

test('the JUnit report times the whole run: never longer than the call that made it', async (t) => {
  const dir = phased(t);
  let written = '';
  const before = performance.now();
  const outcome = await gatesRun(
    { ...options, reports: [{ format: 'junit', file: 'gates.xml' }] },
    { ...deps(dir, { progress: [], warn: [] }, false), writeFile: (_, text) => ((written = text), { ok: true, value: undefined }) },
  );
  const elapsed = (performance.now() - before) / 1000;
  assert.equal(outcome.exitCode, 0, outcome.stderr);
  const time = Number(/<testsuites [^>]*time="([\d.]+)"/.exec(written)?.[1]);
  assert.ok(time >= 0 && time <= elapsed, `time="${time}" against ${elapsed} s`);
});

test("at a terminal, several points print a table each under the point's name, then the run's message; progress lines name the point", async (t) => {
  const lines = { progress: [] as string[], warn: [] as string[] };
  const d = { ...deps(phased(t), lines, true), terminal: { colour: false } };
  const outcome = await gatesRun({ ...options, points: ['plan:pre', 'ship:pre'], printed: 'run', raw: false }, d);
  assert.equal(outcome.exitCode, 0);
  const shown = outcome.stdout.replace(/ +\d+ ms/g, ' N ms');
  assert.match(
    shown,
    /^plan:pre\nplan:pre: no gates\n\nship:pre\nSTATUS +GATE +CHECK +TIME +REASON\npass +cap#0 +predicate command-exit-zero N ms\nskipped +cap#1 +query q N ms +onError skip: query q: no query command/,
  );
  assert.ok(shown.endsWith('\nship:pre: passed (1 pass, 1 skipped)\n\n2 points: passed (1 pass, 1 skipped)\n'), shown);
  assert.deepEqual(lines.progress.map((line) => line.split(' ').slice(0, 3).join(' ')).sort(), ['gsd-check: ship:pre cap#0', 'gsd-check: ship:pre cap#1']);
  // Piped, the same run is the envelope.
  const piped = await gatesRun({ ...options, points: ['plan:pre', 'ship:pre'], printed: 'run' }, deps(phased(t), { progress: [], warn: [] }, false));
  assert.equal((JSON.parse(piped.stdout) as { details: { kind: string } }).details.kind, 'points');
});

test("--hooks for several points: the first one missing is not evaluated, and the run's envelope still says what the next gave", async (t) => {
  const dir = phased(t);
  const hooksOf = (point: string) =>
    JSON.stringify({ point, activeHooks: [{ capId: 'c', kind: 'gate', check: { query: 'q' }, blocking: false, onError: 'skip' }] });
  const run = (text: string) =>
    gatesRun(
      { ...options, points: ['plan:pre', 'ship:pre'], printed: 'run', capabilities: [], hooks: '-' },
      { ...deps(dir, { progress: [], warn: [] }, false), readInput: texts(async () => ok(text)) },
    );
  const first = await run(`${hooksOf('ship:pre')}\n`);
  const envelope = JSON.parse(first.stdout) as { details: { points: { point: string; reason?: string }[] } };
  assert.deepEqual(
    envelope.details.points.map((p) => [p.point, p.reason ?? 'evaluated']),
    [
      ['plan:pre', 'invalid-json'],
      ['ship:pre', 'evaluated'],
    ],
  );
  assert.equal(first.exitCode, 2);
  // One --point given several documents: another point's, or its own twice, are refused whole.
  const one = (text: string) =>
    gatesRun({ ...options, capabilities: [], hooks: '-' }, { ...deps(dir, { progress: [], warn: [] }, false), readInput: texts(async () => ok(text)) });
  for (const text of [`${hooksOf('ship:pre')}\n${hooksOf('plan:pre')}\n`, `${hooksOf('ship:pre')}\n${hooksOf('ship:pre')}\n`]) {
    const refused = await one(text);
    assert.deepEqual([refused.exitCode, refused.stdout], [2, ''], text);
  }
});
