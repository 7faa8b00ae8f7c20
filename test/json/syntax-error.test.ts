import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonSyntaxError } from '../../src/json/parse.ts';

test('where a text stops being JSON, and why, without its content', () => {
  const cases: [string, string][] = [
    ['AWS_SECRET=abc', '1:1 unexpected character'],
    ['', '1:1 unexpected end'],
    ['{"a": 1,}', "1:9 expected a string key"],
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
    fc.property(fc.oneof(fc.json().map((j) => j.slice(0, -1)), fc.string(), fc.json().map((j) => `${j}}`)), (text) => {
      try {
        JSON.parse(text);
        return;
      } catch {
        const error = jsonSyntaxError(text);
        assert.ok(error.line >= 1 && error.column >= 1);
        assert.ok(!/["']/.test(error.reason.replace(/'[,:}\]]'/g, '')), error.reason);
      }
    }),
    { numRuns: Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300) },
  );
});
