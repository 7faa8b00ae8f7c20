import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { canonicalPath, contains, entryKind, isReadableDirectory, realPath, findOnPath } from '../../src/fs/entry.ts';
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

test('the first executable file of that name on PATH; relative entries, directories and plain files do not count', (t) => {
  const dir = tempDir(t);
  for (const sub of ['a', 'b', 'c', 'd']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'a', 'tool'), 'not executable');
  mkdirSync(join(dir, 'b', 'tool'));
  writeFileSync(join(dir, 'c', 'tool'), '#!/bin/sh\n');
  chmodSync(join(dir, 'c', 'tool'), 0o755);
  writeFileSync(join(dir, 'd', 'tool'), '#!/bin/sh\n');
  chmodSync(join(dir, 'd', 'tool'), 0o755);
  const path = ['', 'relative', join(dir, 'a'), join(dir, 'b'), join(dir, 'c'), join(dir, 'd')].join(':');
  assert.equal(findOnPath('tool', path), join(dir, 'c', 'tool'));
  assert.equal(findOnPath('tool', join(dir, 'a')), undefined);
  assert.equal(findOnPath('tool', undefined), undefined);
});

test('a relative PATH entry is skipped even where it leads to the tool from here', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'tool'), '#!/bin/sh\n');
  chmodSync(join(dir, 'tool'), 0o755);
  const fromHere = relative(process.cwd(), dir);
  assert.equal(findOnPath('tool', dir), join(dir, 'tool'));
  assert.equal(findOnPath('tool', fromHere), undefined);
});
