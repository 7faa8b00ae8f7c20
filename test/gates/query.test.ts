import { testGateContext } from '../helpers/deps.ts';
import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { stopped, Stop } from '../../src/failure.ts';
import { evaluateQuery, givenQueryCommand, queryCommand } from '../../src/gates/query.ts';
import type { Evaluation, GateContext } from '../../src/predicate/kind.ts';
import type { RunOptions } from '../../src/run/runner.ts';
import { fakeRunner, type RunResultSketch } from '../helpers/fake-runner.ts';

function answering(result: RunResultSketch, seen: RunOptions[] = []): GateContext {
  return testGateContext('/p', fakeRunner(result, seen), {
    phaseNumber: '04',
    phaseDir: '/p/.planning/phases/04-ship',
    env: { PATH: '/bin', GSD_QUERY: 'inherited' },
    killAfterMs: 100,
  });
}

const stdout = (text: string, complete = true) => ({ stdout: { text, complete } });
const how = { command: 'answer', timeoutMs: 5000 };
const failure = (evaluation: Evaluation) => (!evaluation.ok ? [evaluation.failure.reason, evaluation.failure.message] : 'envelope');

test('the answer is the envelope: block and message, and what was asked', async () => {
  const seen: RunOptions[] = [];
  const answer = { block: true, message: 'drift found', files: ['a'] };
  const evaluation = await evaluateQuery('verify.schema-drift', '/caps/drift', how, answering(stdout(JSON.stringify(answer)), seen));
  assert.deepEqual(evaluation, {
    ok: true,
    value: { block: true, message: 'drift found', details: { kind: 'query', query: 'verify.schema-drift', command: 'answer', exitCode: 0, answer } },
  });
  // The query and the phase values are environment, never the command's text.
  const [options] = seen;
  assert.deepEqual(
    [
      options!.command,
      options!.cwd,
      options!.timeoutMs,
      options!.env.GSD_QUERY,
      options!.env.PHASE_NUMBER,
      options!.env.PHASE_DIR,
      options!.env.PHASE_REQ_IDS,
      options!.env.GSD_CAP_DIR,
    ],
    ['answer', '/p', 5000, 'verify.schema-drift', '04', '/p/.planning/phases/04-ship', '', '/caps/drift'],
  );
  assert.equal(options!.keepStdout, 1024 * 1024);
});

test("an answer without a message (or with an empty one) says what it answered, and a halt why by the answer's own scalar fields", async () => {
  const said = async (answer: unknown) => {
    const evaluation = await evaluateQuery('ui.plan-gate', undefined, how, answering(stdout(JSON.stringify(answer))));
    return evaluation.ok && [evaluation.value.block, evaluation.value.message];
  };
  assert.deepEqual(await said({ block: false }), [false, 'query ui.plan-gate answered block: false']);
  // A pass says no more: there is nothing to explain.
  assert.deepEqual(await said({ block: false, frontend: false }), [false, 'query ui.plan-gate answered block: false']);
  assert.deepEqual(
    await said({
      frontend: true,
      hasUiSpec: false,
      block: true,
      uiSpecPath: null,
      matchedToken: 'page',
      matchedLine: '**Goal:** ship the login page',
      elements: [1],
      counts: { a: 1 },
      message: ' ',
    }),
    [
      true,
      'query ui.plan-gate answered block: true (frontend: true, hasUiSpec: false, uiSpecPath: null, matchedToken: "page", matchedLine: "**Goal:** ship the login page")',
    ],
  );
  assert.deepEqual(await said({ block: true, message: 'UI-SPEC.md missing for Phase 4' }), [true, 'UI-SPEC.md missing for Phase 4']);
  const many = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, i]));
  assert.deepEqual(await said({ block: true, ...many, long: 'x'.repeat(200) }), [
    true,
    'query ui.plan-gate answered block: true (f0: 0, f1: 1, f2: 2, f3: 3, f4: 4, f5: 5, f6: 6, f7: 7, and 3 more)',
  ]);
  assert.deepEqual(await said({ block: true, long: 'x'.repeat(121) }), [true, `query ui.plan-gate answered block: true (long: "${'x'.repeat(120)}…")`]);
});

test('anything but a JSON object with a boolean block is a query failure, naming the query', async () => {
  const cases: [RunResultSketch, string][] = [
    [
      { exitCode: 3, output: { text: 'Error: unknown check', stdoutBytes: 0, stderrBytes: 20, truncated: false }, ...stdout('') },
      'query q: the query command exited 3: Error: unknown check',
    ],
    [{ exitCode: null, signal: 'SIGKILL', ...stdout('') }, 'query q: the query command was killed by SIGKILL'],
    [{ exitCode: null, signal: 'SIGTERM', timedOut: true, ...stdout('') }, 'query q: the query command timed out after 5s'],
    [{ spawnError: 'ENOENT' }, 'query q: the query command could not start: ENOENT'],
    [stdout(''), 'query q: the query command printed no answer'],
    [stdout('{"block": fals'), 'query q: the answer is not valid JSON: unexpected character at line 1, column 11'],
    [stdout('{"block":true,"block":false}'), 'query q: the answer gives the key "block" twice (at block): which one counts is ambiguous'],
    [stdout('[true]'), 'query q: the answer is not a JSON object with a boolean "block"'],
    [stdout('{"block":"false"}'), 'query q: the answer is not a JSON object with a boolean "block"'],
    [stdout('{"block":false}', false), 'query q: the answer is larger than 1048576 bytes'],
  ];
  for (const [result, message] of cases) {
    assert.deepEqual(failure(await evaluateQuery('q', undefined, how, answering(result))), ['query-failed', message], message);
  }
  assert.deepEqual(failure(await evaluateQuery('q', undefined, undefined, answering({}))), [
    'query-failed',
    'query q: no query command: give --query-command (or GSD_CHECK_QUERY_COMMAND), or put gsd-tools on PATH',
  ]);
});

// A query is a command like any other here: the system's limits and a lost
// project root say nothing about the query, and the first must never be
// skipped by onError into a pass.
test('a query that could not start for a resource limit or a gone project root fails as a command does', async () => {
  assert.deepEqual(failure(await evaluateQuery('q', undefined, how, answering({ spawnError: 'EAGAIN' }))), [
    'resource-limit',
    "could not start query q's command: EAGAIN, still after 10 s of retries",
  ]);
  assert.deepEqual(failure(await evaluateQuery('q', undefined, how, answering({ spawnError: 'cwd-missing' }))), ['bad-cwd', 'project root /p is gone']);
  assert.deepEqual(failure(await evaluateQuery('q', undefined, how, answering({ spawnError: 'cwd-denied' }))), [
    'bad-cwd',
    'project root /p: permission denied (cannot enter it)',
  ]);
});

test("a stop signal is a stop, and GSD's own form passes the values as variables", async () => {
  assert.deepEqual(await evaluateQuery('q', undefined, how, answering({ interrupted: 'SIGINT' })), stopped(new Stop('SIGINT')));
  const exec = (path: string) => queryCommand(undefined, 30, { path, how: 'exec', found: 'gsd-tools on PATH' })?.command;
  assert.equal(exec('/opt/gsd/bin/gsd-tools'), `'/opt/gsd/bin/gsd-tools' check "$GSD_QUERY" "$PHASE_NUMBER" --raw`);
  assert.equal(exec("/it's/gsd-tools"), `'/it'\\''s/gsd-tools' check "$GSD_QUERY" "$PHASE_NUMBER" --raw`);
  assert.equal(
    queryCommand(undefined, 30, { path: '/p/gsd-core/bin/gsd-tools.cjs', how: 'node', found: '/p/gsd-core/bin' })?.command,
    `node '/p/gsd-core/bin/gsd-tools.cjs' check "$GSD_QUERY" "$PHASE_NUMBER" --raw`,
  );
});

test('an answer may nest 64 levels of containers, itself the first; one more is a query failure', async () => {
  const answer = (levels: number) => stdout(`{"block":false,"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`);
  const evaluation = await evaluateQuery('q', undefined, how, answering(answer(64)));
  assert.equal(evaluation.ok && evaluation.value.block, false);
  assert.deepEqual(failure(await evaluateQuery('q', undefined, how, answering(answer(65)))), [
    'query-failed',
    'query q: the answer nests deeper than 64 levels',
  ]);
});

test('--query-command, else GSD_CHECK_QUERY_COMMAND, else the GSD gsd_run finds, else none', () => {
  const env = { GSD_CHECK_QUERY_COMMAND: 'from-env' };
  const gsd = { path: '/bin/gsd-tools', how: 'exec', found: 'gsd-tools on PATH' } as const;
  assert.equal(givenQueryCommand('given', env), 'given');
  assert.equal(givenQueryCommand(undefined, env), 'from-env');
  // A blank variable is no command.
  assert.equal(givenQueryCommand(undefined, { GSD_CHECK_QUERY_COMMAND: ' \t' }), undefined);
  assert.equal(givenQueryCommand(undefined, {}), undefined);
  assert.deepEqual(queryCommand('given', 2.5, gsd), { command: 'given', timeoutMs: 2500 });
  assert.deepEqual(queryCommand(undefined, 30, gsd), { command: `'/bin/gsd-tools' check "$GSD_QUERY" "$PHASE_NUMBER" --raw`, timeoutMs: 30_000 });
  assert.equal(queryCommand(undefined, 30, undefined), undefined);
});
