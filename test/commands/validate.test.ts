import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { texts } from '../helpers/deps.ts';
import type { CliDeps } from '../../src/commands/deps.ts';
import { testDeps } from '../helpers/deps.ts';
import { validate } from '../../src/commands/validate.ts';
import { fail, ok } from '../../src/failure.ts';
import { ROOT } from '../helpers/support.ts';

const FIXTURES = join(ROOT, 'test/fixtures/capabilities');

function deps(files: Record<string, string>): CliDeps {
  return testDeps(FIXTURES, {
    readInput: texts(async (path, label) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (Object.hasOwn(files, name)) return ok(files[name]!);
      try {
        return ok(readFileSync(path, 'utf8'));
      } catch {
        return fail('unreadable-file', `cannot read ${label}: no such file`);
      }
    }),
  });
}

test('capability files written the way real ones are: valid, fields outside gates ignored', async () => {
  const outcome = await validate({ files: ['security.json', 'broken-windows.json', 'tdd.json'], json: false, jsonErrors: false }, deps({}));
  assert.deepEqual(outcome, {
    exitCode: 0,
    stdout: 'security.json: valid (3 gates)\nbroken-windows.json: valid (2 gates)\ntdd.json: valid (2 gates)\n',
    stderr: '',
  });
});

test('issues: one line each with file and path; exit 1', async () => {
  const broken = JSON.stringify({
    id: 'b',
    config: { 'x.on': { type: 'boolean', default: true } },
    gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true', timeOut: 5 } }, when: 'x.of', blocking: true }],
  });
  const outcome = await validate({ files: ['security.json', 'broken.json', 'bad.json'], json: false, jsonErrors: false }, deps({ 'broken.json': broken, 'bad.json': '{' }));
  assert.equal(outcome.exitCode, 1);
  assert.equal(
    outcome.stdout,
    [
      'security.json: valid (3 gates)',
      'broken.json: gates[0].check.predicate.timeOut: unknown field; did you mean "timeout"?',
      'broken.json: gates[0].when: "x.of" is not a key of the capability\'s config; did you mean "x.on"?',
      'broken.json: gates[0].onError: is required ("halt" or "skip")',
      'bad.json: the file is not valid JSON: unexpected end at line 1, column 2',
    ].join('\n') + '\n',
  );
});

test('--json gives the same as one document', async () => {
  const outcome = await validate({ files: ['tdd.json', 'x.json'], json: true, jsonErrors: false }, deps({ 'x.json': '{"gates":[null]}' }));
  assert.equal(outcome.exitCode, 1);
  assert.deepEqual(JSON.parse(outcome.stdout), {
    valid: false,
    files: [
      { file: 'tdd.json', valid: true, gates: 2, issues: [] },
      { file: 'x.json', valid: false, gates: 1, issues: [{ path: 'gates[0]', message: 'must be an object, got null' }] },
    ],
  });
});

test('an unreadable file is exit 2, nothing on stdout', async () => {
  const outcome = await validate({ files: ['tdd.json', 'missing.json'], json: false, jsonErrors: false }, deps({}));
  assert.deepEqual(outcome, { exitCode: 2, stdout: '', stderr: 'gsd-check: cannot read capability file missing.json: no such file\n' });
});

test('standard input (-) given once is a file like any other', async () => {
  const stdin = JSON.stringify({ gates: [] });
  const once = await validate({ files: ['-'], json: false, jsonErrors: false }, { ...deps({}), readInput: texts(async (path, label) => (path === '-' ? ok(stdin) : fail('unreadable-file', label))) });
  assert.deepEqual(once, { exitCode: 0, stdout: '-: valid (0 gates)\n', stderr: '' });
});

test('a file that is not JSON, or not a capability, counts no gates', async () => {
  const outcome = await validate({ files: ['bad.json', 'list.json', 'one.json'], json: true, jsonErrors: false }, deps({ 'bad.json': '{', 'list.json': '{"gates":{}}', 'one.json': '{"gates":[{}]}' }));
  assert.deepEqual(JSON.parse(outcome.stdout).files.map((f: { gates: number }) => f.gates), [0, 0, 1]);
  const plain = await validate({ files: ['one.json'], json: false, jsonErrors: false }, deps({ 'one.json': JSON.stringify({ gates: [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }] }) }));
  assert.equal(plain.stdout, 'one.json: valid (1 gate)\n');
});
