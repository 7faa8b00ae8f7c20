import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { asksForHelp, withoutHelp } from '../../src/cli/help-request.ts';

test("every spelling of GSD's help, as a whole argument before --", () => {
  for (const spelling of ['-h', '--help', '-?', '--h', '--usage']) {
    assert.equal(asksForHelp(['check', spelling, 'predicate']), true, spelling);
    assert.equal(asksForHelp(['check', 'predicate', '--', spelling]), false, spelling);
  }
  for (const arg of ['-hh', '--help=1', '--phase-dir=-h', '-H', '---h', '?', 'h', '--hel']) assert.equal(asksForHelp([arg]), false, arg);
});

test('without help: the spellings, and a value flag one stood for the value of, are dropped; after -- nothing is', () => {
  assert.deepEqual(withoutHelp(['gates', 'run', '--point', '-h', '--builtin']), ['gates', 'run', '--builtin']);
  assert.deepEqual(withoutHelp(['check', '--raw', '-?', 'predicate']), ['check', '--raw', 'predicate']);
  assert.deepEqual(withoutHelp(['validate', '-h', '--', '-h']), ['validate', '--', '-h']);
});
