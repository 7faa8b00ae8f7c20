import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { printable, visible, oneLine, describe, fewOf, jsonPath } from '../../src/text/format.ts';

test('control characters and direction overrides are shown as escapes', () => {
  assert.equal(visible('a\u001b[31mred\u0007\r\nforged: pass\tx\u007f\u0085\u202eevil'), 'a\\x1b[31mred\\x07\\r\\nforged: pass\\tx\\x7f\\x85\\u202eevil');
  assert.equal(printable('line 1\nline\t2\u001b]0;title\u0007\r'), 'line 1\nline\t2\\x1b]0;title\\x07\\r');
  // One line stays one line where a viewer breaks at Unicode's separators; a message keeps them as its lines.
  assert.equal(visible('a\u2028forged: pass\u2029b'), 'a\\u2028forged: pass\\u2029b');
  assert.equal(printable('a\u2028b\u2029c'), 'a\u2028b\u2029c');
  for (const text of ['plain', 'ünïcödé ✓ 0', '', 'a\\nb']) {
    assert.equal(visible(text), text);
    assert.equal(printable(text), text);
  }
});

test('folds whitespace and cuts to the limit', () => {
  assert.equal(oneLine('  command exited 1:\n  FAIL\t2 tests \n', 100), 'command exited 1: FAIL 2 tests');
  assert.equal(oneLine('x'.repeat(10), 10), 'x'.repeat(10));
  assert.equal(oneLine('x'.repeat(11), 10), `${'x'.repeat(7)}...`);
  assert.equal(oneLine('', 10), '');
});

test('describes received values as a message should show them', () => {
  assert.equal(describe(Infinity), 'Infinity');
  assert.equal(describe(-0), '-0');
  assert.equal(describe(0.5), '0.5');
  assert.equal(describe('5'), '"5"');
  assert.equal(describe('a\nb'), '"a\\nb"');
  assert.equal(describe(null), 'null');
  assert.equal(describe(true), 'true');
  assert.equal(describe(undefined), 'nothing');
  assert.equal(describe([]), '[]');
  assert.equal(describe([1, 2]), 'an array of 2');
  assert.equal(describe({ a: 1 }), 'an object');
  assert.equal(describe('x'.repeat(100)), `"${'x'.repeat(40)}"...`);
  assert.equal(describe('x'.repeat(40)), `"${'x'.repeat(40)}"`);
  assert.equal(describe('x'.repeat(41)), `"${'x'.repeat(40)}"...`);
});

test('a container nested past the stack limit is still described', () => {
  let deep: unknown[] = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.equal(describe(deep), 'an array of 1');
});

test('a few names and a count, each name cut short', () => {
  assert.equal(fewOf([]), 'none');
  assert.equal(fewOf(['a', 'b']), 'a, b');
  assert.equal(fewOf(['a', 'b', 'c', 'd', 'e', 'f', 'g']), 'a, b, c, d, e and 2 more');
  assert.equal(fewOf(['x'.repeat(1_000_000)]), `${'x'.repeat(57)}...`);
  assert.equal(fewOf(['a', 'b', 'c', 'd', 'e']), 'a, b, c, d, e');
  assert.equal(fewOf(['x'.repeat(60)]), 'x'.repeat(60));
  assert.equal(fewOf(['x'.repeat(61)]), `${'x'.repeat(57)}...`);
});

test('identifiers with dots, other keys quoted, indices in brackets', () => {
  assert.equal(jsonPath('predicate', []), 'predicate');
  assert.equal(jsonPath('predicate', ['timeout']), 'predicate.timeout');
  assert.equal(jsonPath('gates', [1, 'check', 'predicate']), 'gates[1].check.predicate');
  assert.equal(jsonPath('predicate', ['a b', 'x.y', '']), 'predicate["a b"]["x.y"][""]');
  assert.equal(jsonPath('predicate', ['__proto__']), 'predicate.__proto__');
});
