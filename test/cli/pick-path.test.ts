import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { checkPickPath, parsePickPath } from '../../src/cli/pick-path.ts';
import { POINT_DETAILS } from '../../src/gates/run-point.ts';
import { artifactFrontmatterEquals } from '../../src/kinds/artifact-frontmatter-equals.ts';
import { commandExitZero } from '../../src/kinds/command-exit-zero.ts';

const refused = (path: string, kind = commandExitZero, name = 'command-exit-zero') => {
  const parsed = parsePickPath(path);
  assert.ok(parsed.ok, path);
  const result = checkPickPath(parsed.value, kind.details, name);
  return result.ok ? 'accepted' : [result.failure.reason, withoutHint(result.failure.message)];
};

// A usage error, as every other one: it ends by pointing at --help.
function withoutHint(message: string): string {
  assert.match(message, / \(see gsd-check --help\)$/);
  return message.replace(/ \(see gsd-check --help\)$/, '');
}

test('a path no envelope of the kind can have is refused, with the closest field', () => {
  assert.deepEqual(refused('details.exitcode'), [
    'usage',
    '--pick details.exitcode: no such field in a command-exit-zero envelope; did you mean details.exitCode?',
  ]);
  assert.deepEqual(refused('details.zzzzzzzz'), [
    'usage',
    '--pick details.zzzzzzzz: no such field in a command-exit-zero envelope; its details are: kind, command, cwd, timeout, exitCode, signal, timedOut, durationMs, stdoutBytes, stderrBytes, tailTruncated',
  ]);
  assert.match(String(refused('details.constructor')), /^usage,--pick details.constructor: no such field in a command-exit-zero envelope; its details are: /);
  assert.deepEqual(refused('details.exitCode.x'), ['usage', '--pick details.exitCode.x: details.exitCode is a single value, with nothing below it']);
});

test('known fields, fields of the other kind, and values with more below them pass', () => {
  for (const path of ['block', 'message', 'details', 'details.exitCode', 'details.tailTruncated']) assert.equal(refused(path), 'accepted', path);
  for (const path of ['details.actual.list.0', 'details.phaseDirLookup.matches', 'details.searched.1', 'details.path']) {
    assert.equal(refused(path, artifactFrontmatterEquals, 'artifact-frontmatter-equals'), 'accepted', path);
  }
  assert.notEqual(refused('details.exitCode', artifactFrontmatterEquals, 'artifact-frontmatter-equals'), 'accepted');
  assert.equal(checkPickPath(undefined, commandExitZero.details, 'x').ok, true);
});

test('brackets: a list item of a field with more below it; never of a single value or of the envelope', () => {
  const gates = (path: string) => {
    const parsed = parsePickPath(path);
    assert.ok(parsed.ok, path);
    const result = checkPickPath(parsed.value, POINT_DETAILS, 'gates run');
    return result.ok ? 'accepted' : withoutHint(result.failure.message);
  };
  for (const path of ['details.gates[0]', 'details.gates[-1]', 'details.gates[0].status', 'details.gates[-1].envelope.message']) {
    assert.equal(gates(path), 'accepted', path);
  }
  assert.equal(gates('details.point[0]'), '--pick details.point[0]: details.point is a single value, with nothing below it');
  assert.equal(gates('details[0]'), '--pick details[0]: details is an object, not a list');
  assert.equal(gates('block[0]'), '--pick block[0]: block is a single value, with nothing below it');
  assert.equal(gates('message.x'), '--pick message.x: message is a single value, with nothing below it');
  assert.equal(gates('details.gate[0]'), '--pick details.gate[0]: no such field in a gates run envelope; did you mean details.gates?');
});
