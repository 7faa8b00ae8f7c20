import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findArtifact } from '../../src/artifact/find-artifact.ts';
import { tempDir } from '../support.ts';

function files(dir: string, paths: string[]): void {
  for (const path of paths) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), '---\n---\n');
  }
}

test('the file itself first, then .planning/, then a -suffixed name', (t) => {
  const dir = tempDir(t);
  files(dir, ['SECURITY.md', '.planning/SECURITY.md', '01-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, 'SECURITY.md'));
  const planning = tempDir(t);
  files(planning, ['.planning/SECURITY.md', '01-SECURITY.md']);
  assert.equal(findArtifact(planning, 'SECURITY.md'), join(planning, '.planning/SECURITY.md'));
});

test('of several -suffixed names, the first in sorted order', (t) => {
  const dir = tempDir(t);
  files(dir, ['03-SECURITY.md', '01-SECURITY.md', '02-SECURITY.md', 'SECURITY.md.bak', 'XSECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '01-SECURITY.md'));
});

test('only regular files count', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'SECURITY.md'));
  mkdirSync(join(dir, '01-SECURITY.md'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['02-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '02-SECURITY.md'));
});

test('a symlink inside the directory is followed, one leading out is not', (t) => {
  const dir = tempDir(t);
  const outside = tempDir(t);
  files(outside, ['SECURITY.md']);
  symlinkSync(join(outside, 'SECURITY.md'), join(dir, 'SECURITY.md'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['real/SECURITY.md']);
  symlinkSync(join(dir, 'real/SECURITY.md'), join(dir, '01-SECURITY.md'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '01-SECURITY.md'));
});

test('a .planning that is a symlink out of the directory is not followed', (t) => {
  const dir = tempDir(t);
  const outside = tempDir(t);
  files(outside, ['SECURITY.md']);
  symlinkSync(outside, join(dir, '.planning'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
});

test('a directory that does not exist has no artifacts', (t) => {
  assert.equal(findArtifact(join(tempDir(t), 'missing'), 'SECURITY.md'), undefined);
});

test('a name matches as written, never by case, in every step', (t) => {
  const dir = tempDir(t);
  files(dir, ['security.md', '.planning/Security.md', '01-security.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['02-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '02-SECURITY.md'));
});
