import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { isKebab, isReservedName, isText, ManifestIssues } from '../../src/gates/manifest-fields.ts';
import { told } from '../helpers/manifest.ts';

test('the names GSD takes', () => {
  assert.deepEqual(['a', 'a-1', 'abc-def', 'a--'].map(isKebab), [true, true, true, true]);
  assert.deepEqual(['', 'A', '1a', '-a', 'a_b', 'a.b', 3].map(isKebab), [false, false, false, false, false, false, false]);
  // One character, a blank one too: GSD's non-empty string.
  assert.deepEqual(['x', ' ', '', 1, null].map(isText), [true, true, false, false, false]);
  assert.deepEqual(['__proto__', 'constructor', 'prototype', 'toString', 'proto'].map(isReservedName), [true, true, true, false, false]);
});

test('each rule tells a field left out from one given wrong, and every issue refuses', () => {
  const issues = new ManifestIssues();
  assert.equal(issues.text('a', undefined), false);
  assert.equal(issues.text('b', ''), false);
  assert.equal(issues.reserved('c', 'toString'), false);
  assert.equal(issues.oneOf('d', 'fulll', ['core', 'full']), false);
  assert.equal(issues.oneOf('e', 'full', ['core', 'full']), true);
  assert.equal(issues.array('f', 'x', 'an array of things'), undefined);
  assert.deepEqual(issues.strings('g', ['x', 1], 'names'), ['x', 1]);
  assert.deepEqual(issues.names('h', ['ok', 'prototype', null], 'a skill name', 'skill names'), ['ok', 'prototype', null]);
  assert.deepEqual(told(issues.list), [
    'refused a: is required (a non-empty string)',
    'refused b: must be a non-empty string, got ""',
    'refused d: must be one of "core", "full", got "fulll"; did you mean "full"?',
    'refused f: must be an array of things, got "x"',
    'refused g[1]: must be a string, got 1',
    'refused h[1]: "prototype" is a name GSD refuses (__proto__, constructor and prototype are)',
    'refused h[2]: must be a string (a skill name), got null',
  ]);
});

test('issues of the gates come in as they are, those GSD refuses marked', () => {
  const issues = new ManifestIssues();
  const lint = { path: 'gates[0].extra', message: 'unknown field' };
  const wrong = { path: 'gates[0].point', message: 'must be a loop point' };
  issues.keep([lint, wrong], [wrong]);
  assert.deepEqual(issues.list, [
    { ...lint, refuses: false },
    { ...wrong, refuses: true },
  ]);
});
