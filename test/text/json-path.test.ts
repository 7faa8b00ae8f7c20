import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonPath } from '../../src/text/format.ts';

test('identifiers with dots, other keys quoted, indices in brackets', () => {
  assert.equal(jsonPath('predicate', []), 'predicate');
  assert.equal(jsonPath('predicate', ['timeout']), 'predicate.timeout');
  assert.equal(jsonPath('gates', [1, 'check', 'predicate']), 'gates[1].check.predicate');
  assert.equal(jsonPath('predicate', ['a b', 'x.y', '']), 'predicate["a b"]["x.y"][""]');
  assert.equal(jsonPath('predicate', ['__proto__']), 'predicate.__proto__');
});
