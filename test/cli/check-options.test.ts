import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { P, usage } from '../helpers/command-line.ts';

test('the predicate comes from exactly one place', () => {
  assert.equal(usage(['check', 'predicate']), '--predicate or --predicate-file is required');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--predicate-file', 'p.json']), '--predicate and --predicate-file cannot be used together');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--predicate', P]), '--predicate is given more than once');
  assert.equal(usage(['check', 'predicate', '--predicate-file=']), '--predicate-file needs a path (or - for standard input)');
});
