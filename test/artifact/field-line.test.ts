import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { fieldLineIndex } from '../../src/artifact/field-line.ts';

test("a field's line: the last line that gives it as a top-level key, bare or quoted; none for a nested or flow one", () => {
  const text = "title: x\n\"threats_open\": 1\nnested:\n  threats_open: 5\nthreats_open : 2\r\n'it''s': y\n- z\nurl: http://a:b\n";
  assert.equal(fieldLineIndex(text, 'threats_open'), 4);
  assert.equal(fieldLineIndex(text, 'title'), 0);
  assert.equal(fieldLineIndex(text, "it's"), 5);
  assert.equal(fieldLineIndex(text, 'url'), 7);
  assert.equal(fieldLineIndex(text, 'nested'), 2);
  assert.equal(fieldLineIndex('{threats_open: 1}\n', 'threats_open'), undefined);
  assert.equal(fieldLineIndex('  threats_open: 1\n', 'threats_open'), undefined);
  assert.equal(fieldLineIndex('threats_openx: 1\nthreats_open:1\n', 'threats_open'), undefined);
  assert.equal(fieldLineIndex('"a\\"b": 1\n', 'a"b'), 0);
});
