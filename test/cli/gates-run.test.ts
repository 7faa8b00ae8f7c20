import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GatesOptions } from '../../src/cli/args.ts';
import type { CliDeps } from '../../src/cli/deps.ts';
import { gatesRun } from '../../src/cli/gates-run.ts';
import { fail, ok } from '../../src/failure.ts';
import { runResult, tempDir } from '../support.ts';

const capability = JSON.stringify({
  id: 'cap',
  gates: [
    { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'ok' } }, blocking: true, onError: 'halt' },
    { point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'skip' },
  ],
});

function deps(dir: string, lines: { progress: string[]; warn: string[] }, tty: boolean): CliDeps {
  return {
    run: async () => runResult(),
    readFile: async (path, label) => (path.endsWith('cap.json') ? ok(capability) : fail('unreadable-file', `cannot read ${label}: no such file`)),
    cwd: () => dir,
    home: undefined,
    env: {},
    cpus: 2,
    progress: tty ? (line) => lines.progress.push(line) : undefined,
    warn: (line) => lines.warn.push(line),
  };
}

const options: GatesOptions = { point: 'ship:pre', capabilities: ['cap.json'], killAfter: 1, queryTimeout: 30, raw: true, exitCode: false, jsonErrors: false };

test('on a terminal, one progress line per gate as it finishes', async (t) => {
  const lines = { progress: [] as string[], warn: [] as string[] };
  const outcome = await gatesRun(options, deps(tempDir(t), lines, true));
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
  await gatesRun(options, deps(tempDir(t), lines, false));
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
    const outcome = await gatesRun(options, { ...deps(dir, { progress: [], warn: [] }, false), readFile: async () => ok(text) });
    assert.equal(outcome.exitCode, 2);
    assert.ok(outcome.stderr.startsWith(message), outcome.stderr);
  }
});
