import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDuplicateKey } from '../../src/json/parse.ts';

test('finds a repeated key and the path to its object', () => {
  assert.deepEqual(findDuplicateKey('{"command":"rm -rf x","command":"true"}'), { key: 'command', path: [] });
  assert.deepEqual(findDuplicateKey('{"gates":[{"a":1},{"check":{"predicate":{"k":1,"k":2}}}]}'), {
    key: 'k',
    path: ['gates', 1, 'check', 'predicate'],
  });
  // escapes spell the same key
  assert.deepEqual(findDuplicateKey('{"command":1,"\\u0063ommand":2}'), { key: 'command', path: [] });
  assert.deepEqual(findDuplicateKey('{"__proto__":1,"__proto__":2}'), { key: '__proto__', path: [] });
  assert.deepEqual(findDuplicateKey('{"":1,"":2}'), { key: '', path: [] });
  assert.deepEqual(findDuplicateKey('{"\\"":1,"\\"":2}'), { key: '"', path: [] });
  // whatever JSON allows between a key and its colon
  for (const space of [' ', '\t', '\n', '\r']) {
    assert.deepEqual(findDuplicateKey(`{"a"${space}:1,"a"${space}${space}:2}`), { key: 'a', path: [] }, JSON.stringify(space));
  }
});

test('the same key in different objects, and keys inside strings, are fine', () => {
  for (const text of [
    '{"a":{"a":1},"b":{"a":2}}',
    '[{"a":1},{"a":1}]',
    '{"a":"\\"a\\":1","b":"{\\"a\\":1,\\"a\\":2}"}',
    '{"a" : 1 , "b"\n:\t2}',
    '{"a":"a","b":["b"]}',
    '"just a string"',
    '[1, [2, {"x": [3, {"x": 4}]}]]',
  ]) {
    assert.equal(findDuplicateKey(text), undefined, text);
  }
});

test('deep nesting does not recurse', () => {
  const depth = 100_000;
  assert.equal(findDuplicateKey(`${'['.repeat(depth)}${']'.repeat(depth)}`), undefined);
  assert.deepEqual(findDuplicateKey(`${'{"a":'.repeat(1000)}{"x":1,"x":2}${'}'.repeat(1000)}`)?.path.length, 1000);
});
