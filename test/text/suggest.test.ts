import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { closest, unknownField } from '../../src/text/suggest.ts';

const FIELDS = ['kind', 'command', 'timeout'];

test('suggests the field a slip most likely meant', () => {
  assert.equal(closest('timeOut', FIELDS), 'timeout');
  assert.equal(closest('comand', FIELDS), 'command');
  assert.equal(closest('Kind', FIELDS), 'kind');
  assert.equal(closest('timeouts', FIELDS), 'timeout');
  // Two letters swapped are one slip, not two.
  assert.equal(closest('feild', ['kind', 'artifact', 'field', 'equals']), 'field');
  assert.equal(closest('comamnd', FIELDS), 'command');
  // The first two letters swapped, in a name whose allowance is one slip.
  assert.equal(closest('arw', ['raw', 'cwd']), 'raw');
});

test('suggests nothing for a name that is not close to any', () => {
  assert.equal(closest('foo', FIELDS), undefined);
  assert.equal(closest('x', FIELDS), undefined);
  assert.equal(closest('', FIELDS), undefined);
});

test('a very long name is answered at once, without a suggestion', () => {
  assert.equal(closest('t'.repeat(1_000_000), FIELDS), undefined);
});

test('a name may be off by a third of its length, and by one however short', () => {
  // 6 characters: two edits allowed, whether left out or added.
  assert.equal(closest('abcdef', ['abcd']), 'abcd');
  assert.equal(closest('abcdef', ['abcdefgh']), 'abcdefgh');
  assert.equal(closest('abcdef', ['abc']), undefined);
  // 2 characters: one edit, never two.
  assert.equal(closest('kd', ['kid']), 'kid');
  assert.equal(closest('kd', ['kind']), undefined);
});

test('of two names equally close, the first known one', () => {
  assert.equal(closest('cat', ['bat', 'hat']), 'bat');
  assert.equal(closest('cat', ['hat', 'bat']), 'hat');
});

test('names of up to 64 characters are compared; a longer one only matches itself', () => {
  const a64 = 'a'.repeat(64);
  assert.equal(closest(`${'a'.repeat(63)}b`, [a64]), a64);
  assert.equal(closest('a'.repeat(63), [a64]), a64);
  assert.equal(closest(a64, ['a'.repeat(63)]), 'a'.repeat(63));
  assert.equal(closest('a'.repeat(65), [a64]), undefined);
  assert.equal(closest(a64, ['a'.repeat(65)]), undefined);
  assert.equal(closest('A'.repeat(65), ['a'.repeat(65)]), 'a'.repeat(65));
});

test('an unknown field is told the known one it most likely meant, else every known one', () => {
  assert.equal(unknownField('timeOut', ['kind', 'command', 'timeout']), 'unknown field; did you mean "timeout"?');
  assert.equal(unknownField('id', ['point', 'check']), 'unknown field (known fields: point, check)');
});
