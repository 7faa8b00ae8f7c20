import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { canonicalPath, contains, entryKind, isReadableDirectory, realPath } from '../../src/fs/entry.ts';
import { readSmallFile } from '../../src/fs/read.ts';
import { tempDir } from '../helpers/support.ts';

test('entryKind follows links and tells directories, files and the rest', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'f'), '');
  symlinkSync(join(dir, 'd'), join(dir, 'link'));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'broken'));
  assert.equal(entryKind(join(dir, 'd')), 'dir');
  assert.equal(entryKind(join(dir, 'link')), 'dir');
  assert.equal(entryKind(join(dir, 'f')), 'file');
  assert.equal(entryKind('/dev/null'), 'other');
  assert.equal(entryKind(join(dir, 'broken')), undefined);
  assert.equal(entryKind(join(dir, 'f', 'below-a-file')), undefined);
});

// The limit, 256 KiB, written out: the test pins it.
const LIMIT = 256 * 1024;

test('readSmallFile reads a regular file of up to 256 KiB, and nothing else', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'small'), 'gitdir: x\n');
  writeFileSync(join(dir, 'exact'), 'a'.repeat(LIMIT));
  writeFileSync(join(dir, 'over'), 'a'.repeat(LIMIT + 1));
  symlinkSync('/dev/zero', join(dir, 'zero'));
  assert.equal(spawnSync('mkfifo', [join(dir, 'fifo')]).status, 0);
  assert.equal(readSmallFile(join(dir, 'small')), 'gitdir: x\n');
  assert.equal(readSmallFile(join(dir, 'exact'))?.length, LIMIT);
  assert.equal(readSmallFile(join(dir, 'over')), undefined);
  // Neither may block or fill memory: a FIFO with no writer, an endless device.
  assert.equal(readSmallFile(join(dir, 'fifo')), undefined);
  assert.equal(readSmallFile(join(dir, 'zero')), undefined);
  assert.equal(readSmallFile(join(dir, 'missing')), undefined);
  assert.equal(readSmallFile(dir), undefined);
});

test('a directory we may list and enter is readable; a missing one is not', (t) => {
  const dir = tempDir(t);
  assert.equal(isReadableDirectory(dir), true);
  assert.equal(isReadableDirectory(join(dir, 'missing')), false);
});

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

test('realPath: the canonical path, or undefined when there is none', (t) => {
  const base = tempDir(t);
  mkdirSync(join(base, 'real'));
  symlinkSync('real', join(base, 'link'));
  assert.equal(realPath(join(base, 'link')), join(base, 'real'));
  assert.equal(realPath(join(base, 'missing')), undefined);
});

test("canonicalPath: a missing path gets its nearest existing ancestor's real path; a dangling link none", (t) => {
  const base = tempDir(t);
  mkdirSync(join(base, 'real/a'), { recursive: true });
  symlinkSync('real', join(base, 'link'));
  symlinkSync('nowhere', join(base, 'real/dangling'));
  assert.equal(canonicalPath(join(base, 'link/a')), join(base, 'real/a'));
  assert.equal(canonicalPath(join(base, 'link/a/b/c')), join(base, 'real/a/b/c'));
  assert.equal(canonicalPath(join(base, 'link/dangling')), undefined);
  assert.equal(canonicalPath('/'), '/');
});
