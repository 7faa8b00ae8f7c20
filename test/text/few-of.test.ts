import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fewOf } from '../../src/text/format.ts';

test('a few names and a count, each name cut short', () => {
  assert.equal(fewOf([]), 'none');
  assert.equal(fewOf(['a', 'b']), 'a, b');
  assert.equal(fewOf(['a', 'b', 'c', 'd', 'e', 'f', 'g']), 'a, b, c, d, e and 2 more');
  assert.equal(fewOf(['x'.repeat(1_000_000)]), `${'x'.repeat(57)}...`);
  assert.equal(fewOf(['a', 'b', 'c', 'd', 'e']), 'a, b, c, d, e');
  assert.equal(fewOf(['x'.repeat(60)]), 'x'.repeat(60));
  assert.equal(fewOf(['x'.repeat(61)]), `${'x'.repeat(57)}...`);
});
