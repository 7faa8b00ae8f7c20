import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closest } from '../../src/text/closest.ts';

const FIELDS = ['kind', 'command', 'timeout'];

test('suggests the field a slip most likely meant', () => {
  assert.equal(closest('timeOut', FIELDS), 'timeout');
  assert.equal(closest('comand', FIELDS), 'command');
  assert.equal(closest('Kind', FIELDS), 'kind');
  assert.equal(closest('timeouts', FIELDS), 'timeout');
});

test('suggests nothing for a name that is not close to any', () => {
  assert.equal(closest('foo', FIELDS), undefined);
  assert.equal(closest('x', FIELDS), undefined);
  assert.equal(closest('', FIELDS), undefined);
});

test('a very long name is answered at once, without a suggestion', () => {
  assert.equal(closest('t'.repeat(1_000_000), FIELDS), undefined);
});
