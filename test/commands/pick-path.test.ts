import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPickPath } from '../../src/commands/pick-path.ts';
import { artifactFrontmatterEquals } from '../../src/kinds/artifact-frontmatter-equals.ts';
import { commandExitZero } from '../../src/kinds/command-exit-zero.ts';

const refused = (path: string, kind = commandExitZero, name = 'command-exit-zero') => {
  const result = checkPickPath(path.split('.'), kind.details, name);
  return result.ok ? 'accepted' : [result.failure.reason, result.failure.message];
};

test('a path no envelope of the kind can have is refused, with the closest field', () => {
  assert.deepEqual(refused('details.exitcode'), ['usage', '--pick details.exitcode: no such field in a command-exit-zero envelope; did you mean details.exitCode?']);
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
