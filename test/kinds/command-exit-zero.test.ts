import { testGateContext } from '../helpers/deps.ts';
import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { stopped, Stop } from '../../src/failure.ts';
import { commandExitZero } from '../../src/kinds/command-exit-zero.ts';
import type { Evaluation, GateContext } from '../../src/predicate/kind.ts';
import type { RunOptions } from '../../src/run/runner.ts';
import { fakeRunner, type RunResultSketch } from '../helpers/fake-runner.ts';

function contextWith(result: RunResultSketch, seen: RunOptions[] = [], extra: Partial<GateContext> = {}): GateContext {
  return testGateContext('/project', fakeRunner(result, seen), { env: { PATH: '/bin', PHASE_DIR: 'inherited' }, killAfterMs: 3000, ...extra });
}

async function evaluate(fields: Record<string, unknown>, result: RunResultSketch, extra: Partial<GateContext> = {}): Promise<Evaluation> {
  return commandExitZero.evaluate({ kind: 'command-exit-zero', timeout: 30, ...fields } as never, contextWith(result, [], extra));
}

async function messageOf(fields: Record<string, unknown>, result: RunResultSketch): Promise<[boolean, string]> {
  const evaluation = await evaluate({ command: 'x', ...fields }, result);
  assert.equal(evaluation.ok, true);
  if (!evaluation.ok) return [false, ''];
  return [evaluation.value.block, evaluation.value.message];
}

const output = (text: string) => ({ text, stdoutBytes: text.length, stderrBytes: 0, truncated: false });

test('messages, exactly', async () => {
  assert.deepEqual(await messageOf({}, { exitCode: 0, output: output('noise') }), [false, 'command exited 0']);
  assert.deepEqual(await messageOf({}, { exitCode: 3, output: output('\nFAIL: 2 tests\n') }), [true, 'command exited 3: FAIL: 2 tests']);
  assert.deepEqual(await messageOf({}, { exitCode: 1 }), [true, 'command exited 1']);
  assert.deepEqual(await messageOf({}, { exitCode: 1, output: output(' \n\t') }), [true, 'command exited 1']);
  assert.deepEqual(await messageOf({}, { exitCode: null, signal: 'SIGSEGV', output: output('core') }), [true, 'command killed by SIGSEGV: core']);
  assert.deepEqual(await messageOf({}, { exitCode: null, signal: 'SIGKILL' }), [true, 'command killed by SIGKILL']);
  assert.deepEqual(await messageOf({}, { spawnError: 'ENOENT', exitCode: null }), [true, 'command exited 127: sh: not found']);
  assert.deepEqual(await messageOf({}, { spawnError: 'EACCES', exitCode: null }), [true, 'command exited 126: sh: permission denied']);
});

test('a timeout is reported with the declared seconds, never rounded', async () => {
  const cases: [number, string][] = [
    [0.5, 'command timed out after 0.5s'],
    [30, 'command timed out after 30s'],
    [0.0001, 'command timed out after 0.0001s'],
    [1e-7, 'command timed out after 1e-7s'],
    [2.675, 'command timed out after 2.675s'],
  ];
  for (const [timeout, message] of cases) {
    assert.deepEqual(await messageOf({ timeout }, { timedOut: true, exitCode: null, signal: 'SIGTERM' }), [true, message]);
  }
  assert.deepEqual(await messageOf({ timeout: 1 }, { timedOut: true, exitCode: null, signal: 'SIGKILL', output: output('half') }), [
    true,
    'command timed out after 1s: half',
  ]);
  // A command that ended with 0 but after its deadline still timed out.
  assert.deepEqual(await messageOf({ timeout: 0.0001 }, { timedOut: true, exitCode: 0 }), [true, 'command timed out after 0.0001s']);
});

test('the envelope details say what ran, where, and what came out', async () => {
  const evaluation = await evaluate(
    { command: 'test -d ${PHASE_DIR}', timeout: 5 },
    { exitCode: 2, durationMs: 12.6, output: { text: 'e', stdoutBytes: 70000, stderrBytes: 1, truncated: true } },
    { phaseDir: '.planning/phases/01-a' },
  );
  assert.equal(evaluation.ok, true);
  if (!evaluation.ok) return;
  assert.deepEqual(evaluation.value.details, {
    kind: 'command-exit-zero',
    command: 'test -d ${PHASE_DIR}',
    cwd: '/project',
    timeout: 5,
    exitCode: 2,
    signal: null,
    timedOut: false,
    durationMs: 13,
    stdoutBytes: 70000,
    stderrBytes: 1,
    tailTruncated: true,
  });
});

test('the runner gets the command as written, phase values in the environment', async () => {
  const seen: RunOptions[] = [];
  await commandExitZero.evaluate(
    { kind: 'command-exit-zero', command: 'echo "${PHASE_DIR}"', timeout: 0.25 } as never,
    contextWith({}, seen, { phaseNumber: '3', phaseDir: '$(id)', signal: AbortSignal.timeout(1000) }),
  );
  const options = seen[0]!;
  assert.equal(options.command, 'echo "${PHASE_DIR}"');
  assert.equal(options.cwd, '/project');
  assert.equal(options.timeoutMs, 250);
  assert.equal(options.killAfterMs, 3000);
  assert.deepEqual(options.env, { PATH: '/bin', PHASE_DIR: '$(id)', PHASE_NUMBER: '3', PHASE_REQ_IDS: '' });
  assert.ok(options.signal instanceof AbortSignal);
});

test('an interrupted run has no verdict', async () => {
  assert.deepEqual(await evaluate({ command: 'x' }, { interrupted: 'SIGINT', exitCode: null, signal: 'SIGTERM' }), stopped(new Stop('SIGINT')));
});

test('a vanished project root or an unstartable sh is a failure, not a verdict', async () => {
  const gone = await evaluate({ command: 'x' }, { spawnError: 'cwd-missing', exitCode: null });
  assert.equal(gone.ok, false);
  assert.deepEqual(!gone.ok && [gone.failure.reason, gone.failure.message], ['bad-cwd', 'project root /project is gone']);
  const denied = await evaluate({ command: 'x' }, { spawnError: 'cwd-denied', exitCode: null });
  assert.deepEqual(!denied.ok && [denied.failure.reason, denied.failure.message], ['bad-cwd', 'project root /project: permission denied (cannot enter it)']);
  // Out of descriptors or processes even after the runner's retries: not a
  // verdict, and a reason of its own, which gates run never skips.
  for (const code of ['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM']) {
    const busy = await evaluate({ command: 'x' }, { spawnError: code, exitCode: null });
    assert.deepEqual(!busy.ok && [busy.failure.reason, busy.failure.message], ['resource-limit', `could not start sh: ${code}, still after 10 s of retries`]);
  }
  const odd = await evaluate({ command: 'x' }, { spawnError: 'E2BIG', exitCode: null });
  assert.deepEqual(!odd.ok && [odd.failure.reason, odd.failure.message], ['spawn-failed', 'could not start sh: E2BIG']);
});

test('a shell error is the whole tail: not reported as cut', async () => {
  for (const spawnError of ['ENOENT', 'EACCES']) {
    const evaluation = await evaluate({ command: 'x' }, { spawnError, exitCode: null });
    assert.equal(evaluation.ok, true);
    if (!evaluation.ok) continue;
    assert.equal(evaluation.value.details?.tailTruncated, false, spawnError);
  }
});
