import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readHead } from '../../src/io/read-head.ts';
import { tempDir } from '../support.ts';

test('at most the first `limit` bytes, or the whole of a smaller file', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), Buffer.from('0123456789'));
  assert.equal(readHead(join(dir, 'f'), 4).toString(), '0123');
  assert.equal(readHead(join(dir, 'f'), 100).toString(), '0123456789');
  writeFileSync(join(dir, 'empty'), '');
  assert.equal(readHead(join(dir, 'empty'), 10).length, 0);
  assert.throws(() => readHead(join(dir, 'missing'), 10), { code: 'ENOENT' });
});
