import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { findOnPath } from '../../src/fs/entry.ts';
import { tempDir } from '../helpers/support.ts';

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
