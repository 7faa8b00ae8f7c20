import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fail, formatFailure, formatFailureJson } from '../src/failure.ts';

test('a failure without issues is one line', () => {
  const { failure } = fail('usage', '--predicate or --predicate-file is required');
  assert.equal(formatFailure(failure), 'gsd-check: --predicate or --predicate-file is required\n');
  assert.equal(
    formatFailureJson(failure),
    '{"ok":false,"reason":"usage","message":"--predicate or --predicate-file is required"}\n',
  );
});

test('a failure without issues cannot forge a line or drive the terminal', () => {
  const { failure } = fail('bad-cwd', '--cwd /x\u001b[2K\ngsd-check: forged: no such directory');
  assert.equal(formatFailure(failure), 'gsd-check: --cwd /x\\x1b[2K\\ngsd-check: forged: no such directory\n');
});

test('the first issue is on the first line, the rest follow', () => {
  const { failure } = fail('invalid-predicate', 'invalid predicate', [
    { path: 'predicate.timeOut', message: 'unknown field; did you mean "timeout"?' },
    { path: 'predicate.command', message: 'must not be empty' },
  ]);
  assert.equal(
    formatFailure(failure),
    'gsd-check: invalid predicate: predicate.timeOut: unknown field; did you mean "timeout"?\n' +
      '  predicate.command: must not be empty\n',
  );
  const json = formatFailureJson(failure);
  assert.equal(json.split('\n').length, 2);
  assert.deepEqual(JSON.parse(json), {
    ok: false,
    reason: 'invalid-predicate',
    message: 'invalid predicate: predicate.timeOut: unknown field; did you mean "timeout"? (+1 more)',
    issues: failure.issues,
  });
});
