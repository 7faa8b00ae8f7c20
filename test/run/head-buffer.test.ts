import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HeadBuffer } from '../../src/run/output.ts';

test('keeps the first bytes, copied, and says whether any were dropped', () => {
  const head = new HeadBuffer(8);
  const reused = Buffer.from('abcd');
  head.push(reused);
  reused.write('zzzz');
  head.push(Buffer.from('efgh'));
  assert.deepEqual([head.text(), head.complete], ['abcdefgh', true]);
  head.push(Buffer.from('i'));
  assert.deepEqual([head.text(), head.complete], ['abcdefgh', false]);
  const split = new HeadBuffer(4);
  split.push(Buffer.from('123456'));
  assert.deepEqual([split.text(), split.complete], ['1234', false]);
  assert.deepEqual([new HeadBuffer(4).text(), new HeadBuffer(4).complete], ['', true]);
});

test('reads of one byte each are kept too', () => {
  const head = new HeadBuffer(4);
  for (const byte of ['{', '}', '\n']) head.push(Buffer.from(byte));
  assert.deepEqual([head.text(), head.complete], ['{}\n', true]);
});
