import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contains } from '../../src/project/contains.ts';

test('the directory itself and what lies below it', () => {
  assert.equal(contains('/a/b', '/a/b'), true);
  assert.equal(contains('/a/b', '/a/b/c/d'), true);
  assert.equal(contains('/a/b', '/a/b/..c'), true, 'a name that starts with two dots is inside');
  assert.equal(contains('/', '/anything'), true);
});

test('not above it, beside it or elsewhere', () => {
  assert.equal(contains('/a/b', '/a'), false);
  assert.equal(contains('/a/b', '/a/bc'), false);
  assert.equal(contains('/a/b', '/a/c/b'), false);
  assert.equal(contains('/a/b/c', '/'), false);
});
