import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isActive } from '../../src/gates/activation.ts';

const declared = { 'workflow.tdd_mode': { type: 'boolean', default: false }, 'workflow.security': { type: 'boolean', default: true } };

test('no when: active', () => {
  assert.equal(isActive(undefined, {}, declared), true);
});

test('a nested path, then a flat key, then the declared default', () => {
  assert.equal(isActive('workflow.tdd_mode', { workflow: { tdd_mode: true } }, declared), true);
  assert.equal(isActive('workflow.tdd_mode', { 'workflow.tdd_mode': true }, declared), true);
  assert.equal(isActive('workflow.tdd_mode', {}, declared), false);
  assert.equal(isActive('workflow.security', {}, declared), true);
  assert.equal(isActive('workflow.security', { workflow: { security: false } }, declared), false);
  assert.equal(isActive('workflow.security', { 'workflow.security': 0 }, declared), false);
  // the nested value wins over the flat one
  assert.equal(isActive('workflow.security', { workflow: { security: false }, 'workflow.security': true }, declared), false);
});

test('truthiness decides', () => {
  for (const value of [1, 'yes', [], {}]) assert.equal(isActive('k', { k: value }, {}), true, JSON.stringify(value));
  for (const value of [0, '', null, false]) assert.equal(isActive('k', { k: value }, {}), false, JSON.stringify(value));
});

test('an undeclared, unset key is inactive; a when that is not a non-empty string is inactive', () => {
  assert.equal(isActive('nowhere', {}, declared), false);
  for (const when of ['', '  ', 7, null, true, {}]) assert.equal(isActive(when, { '': true }, declared), false, JSON.stringify(when));
});

test('inherited names find nothing', () => {
  assert.equal(isActive('constructor', {}, {}), false);
  assert.equal(isActive('toString', {}, {}), false);
  assert.equal(isActive('__proto__', {}, {}), false);
  assert.equal(isActive('a.constructor', { a: {} }, {}), false);
});
