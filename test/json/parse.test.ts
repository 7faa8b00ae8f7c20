import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isJsonObject } from '../../src/json/parse.ts';

test('objects only: not null, arrays or scalars', () => {
  assert.equal(isJsonObject({}), true);
  assert.equal(isJsonObject(JSON.parse('{"__proto__":1}')), true);
  for (const value of [null, [], [1], 'x', 0, true, undefined]) assert.equal(isJsonObject(value), false, JSON.stringify(value));
});
