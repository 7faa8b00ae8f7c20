import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { texts } from '../helpers/deps.ts';
import type { CheckOptions } from '../../src/cli/command-line.ts';
import { checkPredicate } from '../../src/commands/check-predicate.ts';
import type { CliDeps } from '../../src/commands/deps.ts';
import { testDeps } from '../helpers/deps.ts';
import { fail, ok } from '../../src/failure.ts';
import type { RunOptions } from '../../src/run/runner.ts';
import { fakeRunner, type RunResultSketch } from '../helpers/fake-runner.ts';
import { project } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

const P = JSON.stringify({ kind: 'command-exit-zero', command: 'make test' });

function setup(dir: string, result: RunResultSketch = {}) {
  const runs: RunOptions[] = [];
  const deps: CliDeps = testDeps(dir, {
    run: fakeRunner(result, runs),
    readInput: texts(async (path) => (path === join(dir, 'p.json') ? ok(P) : fail('unreadable-file', `cannot read ${path}`))),
    env: { PATH: '/usr/bin' },
  });
  return { deps, runs };
}

const base: CheckOptions = { predicate: P, killAfter: 3, currentPhase: false, raw: true, exitCode: false, jsonErrors: false };

test('a passing and a blocking verdict both exit 0; --exit-code makes a block 1', async (t) => {
  const dir = tempDir(t);
  const pass = await checkPredicate(base, setup(dir).deps);
  assert.equal(pass.exitCode, 0);
  assert.equal(JSON.parse(pass.stdout).message, 'command exited 0');
  assert.equal(pass.stderr, '');
  const { deps } = setup(dir, { exitCode: 2 });
  assert.equal((await checkPredicate(base, deps)).exitCode, 0);
  assert.equal((await checkPredicate({ ...base, exitCode: true }, deps)).exitCode, 1);
  assert.equal((await checkPredicate({ ...base, exitCode: true }, setup(dir).deps)).exitCode, 0);
});

test('the command runs in the project root found from --cwd, with the kill-after grace', async (t) => {
  const dir = project(t, { '.planning': null, src: null });
  const { deps, runs } = setup('/elsewhere');
  await checkPredicate({ ...base, cwd: join(dir, 'src'), killAfter: 0.5 }, deps);
  assert.equal(runs[0]?.cwd, dir);
  assert.equal(runs[0]?.killAfterMs, 500);
  // a relative --cwd is taken from the current directory
  const relative = setup(dir);
  await checkPredicate({ ...base, cwd: 'src' }, relative.deps);
  assert.equal(relative.runs[0]?.cwd, dir);
});

test('every check failure exits 2 with nothing on stdout and one line first', async (t) => {
  const dir = tempDir(t);
  const { predicate: _, ...fromFile } = base;
  const cases: [CheckOptions, string][] = [
    [{ ...base, predicate: '{nope' }, 'gsd-check: --predicate is not valid JSON: '],
    [{ ...base, predicate: '' }, 'gsd-check: --predicate is not valid JSON: '],
    [{ ...base, predicate: '[]' }, 'gsd-check: invalid predicate: predicate: must be a JSON object, got []'],
    [
      { ...base, predicate: '{"kind":"toString"}' },
      'gsd-check: unknown predicate kind "toString"; known kinds: command-exit-zero, artifact-frontmatter-equals',
    ],
    [{ ...base, cwd: join(dir, 'missing') }, `gsd-check: --cwd ${join(dir, 'missing')}: no such directory`],
    [{ ...fromFile, predicateFile: 'other.json' }, `gsd-check: cannot read ${join(dir, 'other.json')}`],
    [
      { ...base, pick: { text: 'details.nope', steps: ['details', 'nope'] } },
      'gsd-check: --pick details.nope: no such field in a command-exit-zero envelope; its details are: kind, command, ',
    ],
  ];
  for (const [options, start] of cases) {
    const { deps, runs } = setup(dir);
    const outcome = await checkPredicate(options, deps);
    assert.equal(outcome.exitCode, 2, start);
    assert.equal(outcome.stdout, '');
    assert.ok(outcome.stderr.startsWith(start), `${outcome.stderr} should start with ${start}`);
    assert.equal(outcome.stderr.split('\n').length, 2, 'one line');
    // None of them runs the command: a --pick path the kind never has is
    // refused before it, like every other failure here.
    assert.equal(runs.length, 0);
  }
});

test('--json-errors reports a failure as one JSON line', async (t) => {
  const outcome = await checkPredicate(
    { ...base, predicate: '{"kind":"command-exit-zero","command":"x","timeOut":1}', jsonErrors: true },
    setup(tempDir(t)).deps,
  );
  assert.equal(outcome.exitCode, 2);
  assert.equal(outcome.stderr.split('\n').length, 2);
  assert.deepEqual(JSON.parse(outcome.stderr), {
    ok: false,
    reason: 'invalid-predicate',
    message: 'invalid predicate: predicate.timeOut: unknown field; did you mean "timeout"?',
    issues: [{ path: 'predicate.timeOut', message: 'unknown field; did you mean "timeout"?' }],
  });
});

test('the predicate file path goes to the reader, relative to --cwd like every path on the command line', async (t) => {
  const { predicate: _, ...rest } = base;
  const dir = tempDir(t);
  mkdirSync(join(dir, 'sub'));
  assert.equal((await checkPredicate({ ...rest, predicateFile: 'p.json' }, setup(dir).deps)).exitCode, 0);
  assert.equal((await checkPredicate({ ...rest, predicateFile: '../p.json', cwd: 'sub' }, setup(dir).deps)).exitCode, 0);
  assert.equal((await checkPredicate({ ...rest, predicateFile: 'p.json', cwd: join(dir, 'sub') }, setup(dir).deps)).exitCode, 2);
  assert.equal((await checkPredicate({ ...rest, predicateFile: join(dir, 'p.json'), cwd: join(dir, 'sub') }, setup(dir).deps)).exitCode, 0);
});

test('the reader is told what it reads: standard input for -, else the flag and the path as given', async (t) => {
  const { predicate: _, ...rest } = base;
  const dir = tempDir(t);
  const asked: [string, string][] = [];
  const deps = {
    ...setup(dir).deps,
    readInput: texts(async (path: string, label: string) => (asked.push([path, label]), fail('unreadable-file', `cannot read ${label}`))),
  };
  const stdin = await checkPredicate({ ...rest, predicateFile: '-' }, deps);
  const file = await checkPredicate({ ...rest, predicateFile: 'p.json' }, deps);
  assert.deepEqual(asked, [
    ['-', 'standard input'],
    [join(dir, 'p.json'), '--predicate-file p.json'],
  ]);
  assert.deepEqual([stdin.stderr, file.stderr], ['gsd-check: cannot read standard input\n', 'gsd-check: cannot read --predicate-file p.json\n']);
});

test('an interrupted run exits 128+N with no envelope', async (t) => {
  const outcome = await checkPredicate(base, setup(tempDir(t), { interrupted: 'SIGINT', exitCode: null }).deps);
  assert.deepEqual(outcome, {
    exitCode: 130,
    stdout: '',
    stderr: 'gsd-check: stopped by SIGINT; any command it started was ended\n',
  });
  const hup = await checkPredicate(base, setup(tempDir(t), { interrupted: 'SIGHUP', exitCode: null }).deps);
  assert.equal(hup.exitCode, 129);
});
