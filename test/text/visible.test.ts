import assert from 'node:assert/strict';
import { test } from 'node:test';
import { printable, visible } from '../../src/text/format.ts';

test('control characters and direction overrides are shown as escapes', () => {
  assert.equal(visible('a\u001b[31mred\u0007\r\nforged: pass\tx\u007f\u0085\u202eevil'), 'a\\x1b[31mred\\x07\\r\\nforged: pass\\tx\\x7f\\x85\\u202eevil');
  assert.equal(printable('line 1\nline\t2\u001b]0;title\u0007\r'), 'line 1\nline\t2\\x1b]0;title\\x07\\r');
  for (const text of ['plain', 'ünïcödé ✓ 0', '', 'a\\nb']) {
    assert.equal(visible(text), text);
    assert.equal(printable(text), text);
  }
});
