import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { isReadableDirectory } from '../../src/project/readable.ts';
import { tempDir } from '../support.ts';

test('a directory we may list and enter is readable; a missing one is not', (t) => {
  const dir = tempDir(t);
  assert.equal(isReadableDirectory(dir), true);
  assert.equal(isReadableDirectory(join(dir, 'missing')), false);
});
