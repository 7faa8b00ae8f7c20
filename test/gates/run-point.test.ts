import { testGateContext } from '../helpers/deps.ts';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { fail, ok, REASONS, stopped, Stop } from '../../src/failure.ts';
import { parseCapability } from '../../src/gates/declaration.ts';
import { gatesAt, type Capability } from '../../src/gates/sources.ts';
import type { LoopPoint } from '../../src/gates/activation.ts';
import { runPoints, type GateReport, type PointDeps, type PointEnvelope, type PointGate, type PointResult } from '../../src/gates/run-point.ts';
import { KINDS } from '../../src/kinds/table.ts';
import type { RunOptions, RunResult } from '../../src/run/runner.ts';
import { now } from '../../src/run/time.ts';
import { runResult } from '../helpers/fake-runner.ts';
import { sleep, tempDir } from '../helpers/support.ts';
import { gsdPaths } from '../../src/project/shown-path.ts';

const predicate = (command: string, timeout?: number) => ({ predicate: { kind: 'command-exit-zero', command, ...(timeout === undefined ? {} : { timeout }) } });
const gate = (point: string, check: unknown, extra: Record<string, unknown> = {}) => ({ point, check, blocking: true, onError: 'halt', ...extra });

// A fake runner: the command's text says how it ends.
function fakeRun(seen: RunOptions[], delays: Record<string, number> = {}) {
  let running = 0;
  const stats = { most: 0 };
  const run = async (options: RunOptions): Promise<RunResult> => {
    seen.push(options);
    stats.most = Math.max(stats.most, ++running);
    await sleep(delays[options.command] ?? 1);
    running--;
    if (options.command.startsWith('fail'))
      return runResult({ exitCode: 1, output: { text: `${options.command} output`, stdoutBytes: 1, stderrBytes: 0, truncated: false } });
    if (options.command.startsWith('hang')) return runResult({ exitCode: null, signal: 'SIGTERM', timedOut: true });
    if (options.command.startsWith('stop')) return runResult({ exitCode: null, signal: 'SIGTERM', interrupted: 'SIGINT' });
    return runResult();
  };
  return { run, stats };
}

interface TestDeps extends PointDeps {
  readonly config: Record<string, unknown>;
}

function deps(run: PointDeps['context']['run'], config: Record<string, unknown> = {}, concurrency = 4, reports: GateReport[] = []): TestDeps {
  return {
    context: testGateContext('/p', run, { env: { PATH: '/bin' }, killAfterMs: 100 }),
    config,
    concurrency,
    onReport: (_, r) => reports.push(r),
  };
}

// The capabilities' gates at the point, resolved against the config, then run.
const runPoint = async (point: LoopPoint, capabilities: Capability[], d: TestDeps) => {
  const result = await runPoints([{ point, gates: ok(gatesAt(point, capabilities, { root: d.config }).gates) }], d);
  return result.ok ? ok(envelopeOf(result.value[0]!)) : result;
};

// A point that had its gates: its envelope.
const envelopeOf = (result: PointResult): PointEnvelope =>
  result.envelope.ok ? result.envelope.value : assert.fail(`${result.point} was not evaluated: ${result.envelope.failure.message}`);

function cap(file: string, data: Record<string, unknown>): Capability {
  const parsed = parseCapability(data, KINDS);
  assert.ok(parsed.ok);
  return { file, name: parsed.value.id ?? file, declaration: parsed.value };
}

test('mixed gates: statuses, order and the verdict', async () => {
  const seen: RunOptions[] = [];
  const { run } = fakeRun(seen);
  const a = cap('/caps/a/cap.json', {
    id: 'a',
    config: { 'x.on': { default: false }, 'x.def': { default: true } },
    gates: [
      gate('ship:pre', predicate('pass')),
      gate('ship:pre', predicate('fail-advisory'), { blocking: false }),
      gate('plan:post', predicate('not this point')),
      gate('ship:pre', predicate('pass-by-config'), { when: 'x.on' }),
      gate('ship:pre', predicate('inactive-by-default'), { when: 'x.off' }),
      gate('ship:pre', predicate('pass-by-default'), { when: 'x.def' }),
      gate('ship:pre', { query: 'phase.ready' }, { onError: 'skip' }),
      gate('ship:pre', { predicate: { kind: 'command-exit-zero', command: 'x', timeOut: 1 } }, { onError: 'skip' }),
    ],
  });
  const b = cap('/caps/b.json', {
    gates: [
      gate('ship:pre', predicate('hang', 0.1), { blocking: false }),
      gate('ship:pre', { agentVerdict: { prompt: 'p' } }, { blocking: false, onError: 'halt' }),
      gate('ship:pre', predicate('fail-blocking')),
    ],
  });
  const result = await runPoint('ship:pre', [a, b], deps(run, { x: { on: true } }));
  assert.equal(result.ok, true);
  if (!result.ok) return;
  const rows = (result.value.details.gates as GateReport[]).map((r) => [r.capability, r.index, r.status, r.error ?? r.envelope?.message ?? '']);
  assert.deepEqual(rows, [
    ['a', 0, 'pass', 'command exited 0'],
    ['a', 1, 'advisory', 'command exited 1: fail-advisory output'],
    ['a', 3, 'pass', 'command exited 0'],
    ['a', 4, 'inactive', ''],
    ['a', 5, 'pass', 'command exited 0'],
    ['a', 6, 'skipped', 'query phase.ready: no query command: give --query-command (or GSD_CHECK_QUERY_COMMAND), or put gsd-tools on PATH'],
    ['a', 7, 'skipped', 'invalid predicate: gates[7].check.predicate.timeOut: unknown field; did you mean "timeout"?'],
    ['/caps/b.json', 0, 'advisory', 'command timed out after 0.1s'],
    ['/caps/b.json', 1, 'halt', 'an agentVerdict check needs an agent to give the verdict; gsd-check cannot'],
    ['/caps/b.json', 2, 'halt', 'command exited 1: fail-blocking output'],
  ]);
  assert.equal(result.value.block, true);
  assert.equal(
    result.value.message,
    'ship:pre: halted by /caps/b.json#1, /caps/b.json#2 (/caps/b.json#1: an agentVerdict check needs an agent to give the verdict; gsd-check cannot; /caps/b.json#2: command exited 1: fail-blocking output); 2 advisory',
  );
  // Every report says what was declared; an inactive one says why.
  const inactive = (result.value.details.gates as GateReport[]).find((r) => r.status === 'inactive')!;
  assert.deepEqual(
    [inactive.check, inactive.when, inactive.blocking, inactive.onError, inactive.activation],
    [predicate('inactive-by-default'), 'x.off', true, 'halt', { key: 'x.off', value: null, source: 'absent' }],
  );
  const active = (result.value.details.gates as GateReport[])[0]!;
  assert.deepEqual([active.when, Object.hasOwn(active, 'activation')], [null, false]);
  assert.equal(result.value.details.point, 'ship:pre');
  // GSD_CAP_DIR is the capability's directory, for each gate.
  const byCommand = new Map(seen.map((o) => [o.command, o.env.GSD_CAP_DIR]));
  assert.equal(byCommand.get('pass'), '/caps/a');
  assert.equal(byCommand.get('hang'), '/caps');
  assert.equal(byCommand.has('inactive-by-default'), false);
  assert.equal(byCommand.has('not this point'), false);
});

test('a point that passes sums up; one with no gates says so', async () => {
  const { run } = fakeRun([]);
  const capability = cap('c.json', {
    id: 'c',
    gates: [
      gate('verify:pre', predicate('pass')),
      gate('verify:pre', predicate('fail'), { blocking: false }),
      gate('verify:pre', predicate('x'), { when: 'off' }),
    ],
  });
  const passed = await runPoint('verify:pre', [capability], deps(run));
  assert.deepEqual(passed.ok && [passed.value.block, passed.value.message], [false, 'verify:pre: passed (1 pass, 1 advisory, 1 inactive)']);
  const none = await runPoint('discuss:pre', [capability], deps(run));
  assert.deepEqual(none.ok && [none.value.block, none.value.message, none.value.details.gates], [false, 'discuss:pre: no gates', []]);
});

test('a gate that cannot say how to fail halts', async () => {
  const { run } = fakeRun([]);
  const capability = cap('c.json', {
    gates: [
      { point: 'ship:pre', check: predicate('pass'), blocking: true },
      { point: 'ship:pre', check: { query: 'q', predicate: predicate('pass').predicate }, blocking: true, onError: 'skip' },
      { point: 'ship:pre', check: predicate('pass'), blocking: 'yes', onError: 'skip', extra: 1 },
    ],
  });
  const result = await runPoint('ship:pre', [capability], deps(run));
  assert.equal(result.ok, true);
  if (!result.ok) return;
  assert.deepEqual(
    (result.value.details.gates as GateReport[]).map((r) => [r.status, r.error]),
    [
      ['halt', 'invalid gate: gates[0].onError: is required ("halt" or "skip")'],
      ['halt', 'invalid gate: gates[1].check: must have exactly one of query, predicate, agentVerdict, has query and predicate'],
      ['halt', 'invalid gate: gates[2].blocking: must be true or false, got "yes"'],
    ],
  );
});

test('slips outside check, blocking and onError do not stop a gate; a slip inside the check does', async () => {
  const { run } = fakeRun([]);
  const capability = cap('c.json', {
    config: { 'x.on': { default: true } },
    gates: [
      // An unknown field whose name starts like a known one is still only an unknown field.
      gate('ship:pre', predicate('pass'), { checks: 1 }),
      gate('ship:pre', predicate('pass'), { checkpoint: 'x', onErrors: 'skip', when: 'x.on' }),
      gate('ship:pre', predicate("test -f '${PHASE_DIR}/x'")),
      gate('ship:pre', { query: 'q', querry: 'x' }),
      gate('ship:pre', { agentVerdict: null }, { blocking: false }),
      gate('ship:pre', { agentVerdict: {} }),
    ],
  });
  const result = await runPoint('ship:pre', [capability], deps(run));
  assert.equal(result.ok, true);
  if (!result.ok) return;
  assert.deepEqual(
    (result.value.details.gates as GateReport[]).map((r) => [r.status, r.error]),
    [
      ['pass', undefined],
      ['pass', undefined],
      ['pass', undefined],
      ['halt', 'invalid gate: gates[3].check.querry: unknown field; did you mean "query"?'],
      ['halt', 'invalid gate: gates[4].check.agentVerdict: must not be null'],
      ['halt', 'invalid gate: gates[5].blocking: must not be true for an agentVerdict gate: an agent verdict is advisory'],
    ],
  );
});

test('gates run concurrently up to the limit, and report as they finish', async () => {
  const reports: GateReport[] = [];
  const { run, stats } = fakeRun([], { slow: 60, fast: 1 });
  const capability = cap('c.json', {
    gates: [gate('ship:pre', predicate('slow')), gate('ship:pre', predicate('fast')), gate('ship:pre', predicate('slow')), gate('ship:pre', predicate('fast'))],
  });
  const result = await runPoint('ship:pre', [capability], deps(run, {}, 3, reports));
  assert.equal(stats.most, 3);
  // Reported as they finish (a fast gate first), listed in declaration order.
  assert.equal(reports[0]?.index, 1);
  assert.deepEqual(result.ok && (result.value.details.gates as GateReport[]).map((r) => r.index), [0, 1, 2, 3]);
  const serial = fakeRun([], { slow: 5 });
  await runPoint('ship:pre', [capability], deps(serial.run, {}, 1));
  assert.equal(serial.stats.most, 1);
});

test('a stop signal during any gate makes the point interrupted', async () => {
  const { run } = fakeRun([]);
  const capability = cap('c.json', { gates: [gate('ship:pre', predicate('pass')), gate('ship:pre', predicate('stop'))] });
  assert.deepEqual(await runPoint('ship:pre', [capability], deps(run)), stopped(new Stop('SIGINT')));
});

test('after a stop, no gate that ends is reported as progress: there is no verdict to show it in', async () => {
  // The stop comes first; a slower gate ends after it.
  const { run } = fakeRun([], { stop: 1, 'slow pass': 30 });
  const reports: GateReport[] = [];
  const capability = cap('c.json', { gates: [gate('ship:pre', predicate('stop')), gate('ship:pre', predicate('slow pass'))] });
  assert.deepEqual(await runPoint('ship:pre', [capability], deps(run, {}, 4, reports)), stopped(new Stop('SIGINT')));
  assert.deepEqual(reports, []);
});

test('a gate that could not start for a resource limit halts, whatever its onError says', async () => {
  const run = async (): Promise<RunResult> => runResult({ exitCode: null, spawnError: 'EMFILE' });
  const result = await runPoint('ship:pre', [cap('/c.json', { gates: [gate('ship:pre', predicate('exit 1'), { onError: 'skip' })] })], deps(run));
  assert.equal(result.ok, true);
  const envelope = result.ok ? result.value : undefined;
  assert.equal(envelope?.block, true);
  assert.deepEqual(
    (envelope?.details.gates as GateReport[]).map((g) => [g.status, g.error]),
    [['halt', 'could not start sh: EMFILE, still after 10 s of retries']],
  );
  assert.equal(envelope?.message, 'ship:pre: halted by /c.json#0 (/c.json#0: could not start sh: EMFILE, still after 10 s of retries)');
});

test('a query gate whose command could not start for a resource limit halts too, whatever its onError says', async () => {
  const run = async (): Promise<RunResult> => runResult({ exitCode: null, spawnError: 'EAGAIN' });
  const result = await runPoint('ship:pre', [cap('/c.json', { gates: [gate('ship:pre', { query: 'q' }, { onError: 'skip' })] })], {
    ...deps(run),
    query: { command: 'answer', timeoutMs: 5000 },
  });
  assert.deepEqual(result.ok && (result.value.details.gates as GateReport[]).map((g) => [g.status, g.error]), [
    ['halt', "could not start query q's command: EAGAIN, still after 10 s of retries"],
  ]);
  assert.equal(result.ok && result.value.block, true);
});

test("a query gate's report is located where its answer names a file of the project, and only when the answer blocks", async (t) => {
  const root = tempDir(t);
  writeFileSync(join(root, 'schema.prisma'), 'model A {}\n');
  const answers: Record<string, unknown> = {
    drifted: { block: true, schema_files: ['schema.prisma'] },
    pushed: { block: false, schema_files: ['schema.prisma'] },
  };
  const run = async (options: RunOptions): Promise<RunResult> => runResult({ stdout: { text: JSON.stringify(answers[options.command]), complete: true } });
  const located = async (command: string) => {
    const d = deps(run);
    const result = await runPoint('ship:pre', [cap('/c.json', { gates: [gate('ship:pre', { query: 'verify.schema-drift' })] })], {
      ...d,
      context: { ...d.context, projectRoot: root, paths: gsdPaths(root) },
      query: { command, timeoutMs: 5000 },
    });
    return result.ok && (result.value.details.gates as GateReport[]).map((g) => [g.status, g.location]);
  };
  assert.deepEqual(await located('drifted'), [['halt', { file: 'schema.prisma', line: 1 }]]);
  assert.deepEqual(await located('pushed'), [['pass', undefined]]);
});

test('a report shows the declared check up to the deepest a valid predicate can nest, and names a deeper one', async () => {
  const { run } = fakeRun([]);
  const nested = (depth: number): unknown => (depth === 0 ? 0 : [nested(depth - 1)]);
  const check = (depth: number) => ({ predicate: { kind: 'artifact-frontmatter-equals', artifact: 'A.md', field: 'f', equals: nested(depth) } });
  const capability = cap('c.json', { gates: [gate('ship:pre', check(64), { onError: 'skip' }), gate('ship:pre', check(65), { onError: 'skip' })] });
  const result = await runPoint('ship:pre', [capability], deps(run));
  assert.equal(result.ok, true);
  if (!result.ok) return;
  const [valid, deeper] = result.value.details.gates as GateReport[];
  assert.deepEqual(valid?.check, check(64));
  assert.equal(deeper?.check, '(not shown: nests deeper than 66 levels)');
  assert.equal(deeper?.status, 'skipped');
});

test("a report's duration is the time its gate took, within what the whole point took", async () => {
  const { run } = fakeRun([]);
  const started = now();
  const result = await runPoint('ship:pre', [cap('c.json', { gates: [gate('ship:pre', predicate('pass'))] })], deps(run));
  const elapsed = now() - started;
  const [report] = result.ok ? (result.value.details.gates as GateReport[]) : [];
  assert.ok(report !== undefined && report.durationMs >= 0 && report.durationMs <= Math.ceil(elapsed), `${report?.durationMs} of ${elapsed} ms`);
});

// gates.md: a check that could not be evaluated halts with onError "halt" and
// is skipped with "skip", except when the system's limits made it fail (a stop
// is its own test above).
test('onError skips a check that failed for any reason but a resource limit, and halt halts each', async () => {
  const { run } = fakeRun([]);
  const reasons = (Object.keys(REASONS) as (keyof typeof REASONS)[]).filter((reason) => reason !== 'stopped');
  const gateFailing = (reason: Exclude<keyof typeof REASONS, 'stopped'>, onError: 'skip' | 'halt'): PointGate => ({
    capability: reason,
    index: 0,
    declaration: {
      declared: {},
      point: 'ship:pre',
      when: { on: 'always' },
      gate: { ok: true, value: { check: { shape: 'predicate', predicate: fail(reason, `failed for ${reason}`) }, blocking: true, onError } },
      issues: [],
      refusals: [],
    },
  });
  for (const onError of ['skip', 'halt'] as const) {
    const result = await runPoints([{ point: 'ship:pre', gates: ok(reasons.map((reason) => gateFailing(reason, onError))) }], deps(run));
    const statuses = result.ok ? envelopeOf(result.value[0]!).details.gates.map((g) => [g.capability, g.status]) : [];
    assert.deepEqual(
      statuses,
      reasons.map((reason) => [reason, onError === 'skip' && !['resource-limit', 'untested-gsd', 'ambiguous-phase'].includes(reason) ? 'skipped' : 'halt']),
      onError,
    );
  }
});

test("the gates of several points run in one pool: a slow gate of one point does not hold up the next point's", async () => {
  const { run, stats } = fakeRun([], { slow: 60, fast: 1 });
  const capability = cap('/c.json', {
    id: 'c',
    gates: [gate('plan:pre', predicate('slow')), gate('ship:pre', predicate('slow')), gate('ship:pre', predicate('fail'))],
  });
  const reports: [string, number][] = [];
  const d = { ...deps(run, {}, 3), onReport: (point: LoopPoint, r: GateReport) => reports.push([point, r.index]) };
  const points = (['plan:pre', 'verify:pre', 'ship:pre'] as const).map((point) => ({ point, gates: ok(gatesAt(point, [capability], { root: {} }).gates) }));
  const result = await runPoints(points, d);
  assert.equal(stats.most, 3);
  assert.ok(result.ok);
  assert.deepEqual(
    result.value.map(envelopeOf).map((e) => [e.details.point, e.block, e.message, e.details.gates.map((g) => g.index)]),
    [
      ['plan:pre', false, 'plan:pre: passed (1 pass)', [0]],
      ['verify:pre', false, 'verify:pre: no gates', []],
      ['ship:pre', true, 'ship:pre: halted by c#2 (c#2: command exited 1: fail output)', [1, 2]],
    ],
  );
  assert.deepEqual(reports.sort(), [
    ['plan:pre', 0],
    ['ship:pre', 1],
    ['ship:pre', 2],
  ]);
});

test('an agentVerdict gate, which only an agent can decide, follows its onError as any check that could not be evaluated', async () => {
  const { run } = fakeRun([]);
  const agent = cap('/caps/agent.json', {
    gates: [
      gate('ship:pre', { agentVerdict: { prompt: 'p' } }, { blocking: false, onError: 'skip' }),
      gate('ship:pre', { agentVerdict: { prompt: 'p' } }, { blocking: false, onError: 'halt' }),
    ],
  });
  const result = await runPoint('ship:pre', [agent], deps(run));
  assert.ok(result.ok);
  assert.deepEqual(
    (result.value.details.gates as GateReport[]).map((r) => r.status),
    ['skipped', 'halt'],
  );
});
