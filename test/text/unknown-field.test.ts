import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unknownField } from '../../src/text/suggest.ts';

test('an unknown field is told the known one it most likely meant, else every known one', () => {
  assert.equal(unknownField('timeOut', ['kind', 'command', 'timeout']), 'unknown field; did you mean "timeout"?');
  assert.equal(unknownField('id', ['point', 'check']), 'unknown field (known fields: point, check)');
});
