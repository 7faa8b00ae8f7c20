import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import fc from 'fast-check';
import { isJsonObject, jsonSyntaxError, findDuplicateKey, nestsDeeperThan, jsonDocuments, parseJson, readJson } from '../../src/json/parse.ts';

test('objects only: not null, arrays or scalars', () => {
  assert.equal(isJsonObject({}), true);
  assert.equal(isJsonObject(JSON.parse('{"__proto__":1}')), true);
  for (const value of [null, [], [1], 'x', 0, true, undefined]) assert.equal(isJsonObject(value), false, JSON.stringify(value));
});

test('where a text stops being JSON, and why, without its content', () => {
  const cases: [string, string][] = [
    ['AWS_SECRET=abc', '1:1 unexpected character'],
    ['', '1:1 unexpected end'],
    ['{"a": 1,}', '1:9 expected a string key'],
    ['{"a" 1}', "1:6 expected ':'"],
    ['[1 2]', "1:4 expected ',' or ']'"],
    ['{"a":1 "b":2}', "1:8 expected ',' or '}'"],
    ['{"a":\n  tru}', '2:3 unexpected character'],
    ['"a\u0001"', '1:3 control character in a string'],
    ['"\\x"', '1:2 bad escape in a string'],
    ['"abc', '1:5 unterminated string'],
    ['{} {}', '1:4 unexpected character after the value'],
    ['[01]', "1:3 expected ',' or ']'"],
    [`${'['.repeat(100_000)}`, '1:100001 unexpected end'],
    // Each literal, escape and bracket read to its exact end.
    ['[true]x', '1:7 unexpected character after the value'],
    ['[false]x', '1:8 unexpected character after the value'],
    ['[null]x', '1:7 unexpected character after the value'],
    ['["\\u0041"]x', '1:11 unexpected character after the value'],
    ['["\\n", 1]x', '1:10 unexpected character after the value'],
    ['[" ", 1]x', '1:9 unexpected character after the value'],
    // An escaped quote does not end the string.
    ['["\\""]x', '1:7 unexpected character after the value'],
    ['["\u001f"]', '1:3 control character in a string'],
    ['[1}', "1:3 expected ',' or ']'"],
    ['{"a":1]', "1:7 expected ',' or '}'"],
    ['[1] ', '1:5 unexpected end'],
  ];
  for (const [text, expected] of cases) {
    const error = jsonSyntaxError(text);
    assert.equal(`${error.line}:${error.column} ${error.reason}`, expected, JSON.stringify(text.slice(0, 30)));
  }
});

test('on text JSON.parse refuses, the position is within the text and the reason quotes nothing', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.json().map((j) => j.slice(0, -1)),
        fc.string(),
        fc.json().map((j) => `${j}}`),
      ),
      (text) => {
        try {
          JSON.parse(text);
          return;
        } catch {
          const error = jsonSyntaxError(text);
          assert.ok(error.line >= 1 && error.column >= 1);
          assert.ok(!/["']/.test(error.reason.replace(/'[,:}\]]'/g, '')), error.reason);
        }
      },
    ),
    { numRuns: Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300) },
  );
});

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

test('scalars nest 0 deep, each container one more; the deepest branch counts', () => {
  assert.equal(nestsDeeperThan(0, 0), false);
  assert.equal(nestsDeeperThan([], 0), true);
  assert.equal(nestsDeeperThan({}, 1), false);
  assert.equal(nestsDeeperThan([0], 0), true);
  assert.equal(nestsDeeperThan([0], 1), false);
  assert.equal(nestsDeeperThan({ a: [1, { b: 0 }], c: 2 }, 3), false);
  assert.equal(nestsDeeperThan({ a: [1, { b: [] }], c: 2 }, 3), true);
});

test('a million-deep value and a million-wide one: no stack overflow', () => {
  let deep: unknown = 0;
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  assert.equal(nestsDeeperThan(deep, 64), true);
  assert.equal(nestsDeeperThan(Array(1_000_000).fill([0]), 2), false);
});

test("several documents one after another: each one's text and first line, by brackets outside strings", () => {
  const text = '{"a": "}{"}\n\n[1,\n [2]] {"b":\n"\\"]"}\n  true x\n{"open": ';
  assert.deepEqual(jsonDocuments(text), [
    { text: '{"a": "}{"}', line: 1 },
    { text: '[1,\n [2]]', line: 3 },
    { text: '{"b":\n"\\"]"}', line: 4 },
    { text: 'true x', line: 6 },
    { text: '{"open": ', line: 7 },
  ]);
  assert.deepEqual(jsonDocuments(' \n\t'), []);
  // A last document that is no object or list, with no newline after it: whole, to the end.
  assert.deepEqual(jsonDocuments('{"a":1}\nnull'), [
    { text: '{"a":1}', line: 1 },
    { text: 'null', line: 2 },
  ]);
});

test("a key given twice: parseJson refuses it, readJson gives JSON.parse's reading and the key's path", () => {
  const text = '{"gates":[{"point":"a","point":"b"}]}';
  assert.deepEqual(parseJson(text, 'cap.json'), {
    ok: false,
    failure: { reason: 'invalid-json', message: 'cap.json gives the key "point" twice (at gates[0].point): which one counts is ambiguous', issues: [] },
  });
  assert.deepEqual(readJson(text, 'cap.json'), { ok: true, value: { value: { gates: [{ point: 'b' }] }, duplicate: { key: 'point', at: 'gates[0].point' } } });
  assert.deepEqual(readJson('{"a":1}', 'x', 'doc'), { ok: true, value: { value: { a: 1 }, duplicate: undefined } });
  const broken = readJson('{', 'x');
  assert.deepEqual([broken.ok, !broken.ok && broken.failure.message], [false, 'x is not valid JSON: unexpected end at line 1, column 2']);
});
