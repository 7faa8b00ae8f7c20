import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { readRegular } from '../../src/fs/read.ts';
import { readHead } from '../../src/io/input.ts';
import { tempDir } from '../helpers/support.ts';

const text = (result: ReturnType<typeof readHead>): string => (result.ok ? result.value.toString() : `FAIL ${result.failure.message}`);

test('at most the first `limit` bytes, or the whole of a smaller file', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), Buffer.from('0123456789'));
  assert.equal(text(readHead(join(dir, 'f'), 4, dir)), '0123');
  assert.equal(text(readHead(join(dir, 'f'), 100, dir)), '0123456789');
  writeFileSync(join(dir, 'empty'), '');
  assert.equal(text(readHead(join(dir, 'empty'), 10, dir)), '');
  assert.equal(text(readHead(join(dir, 'missing'), 10, dir)), `FAIL cannot read ${join(dir, 'missing')}: ENOENT`);
});

test('what was opened is judged, not what was searched: no FIFO, no way out', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'outside.md'), 'secret');
  writeFileSync(join(dir, 'in', 'real.md'), 'inside');
  symlinkSync(join(dir, 'outside.md'), join(dir, 'in', 'out.md'));
  symlinkSync(join(dir, 'in', 'real.md'), join(dir, 'in', 'alias.md'));
  assert.equal(spawnSync('mkfifo', [join(dir, 'in', 'fifo.md')]).status, 0);
  const within = join(dir, 'in');
  assert.equal(text(readHead(join(within, 'alias.md'), 100, within)), 'inside');
  assert.equal(text(readHead(join(within, 'out.md'), 100, within)), `FAIL cannot read ${join(within, 'out.md')}: it now leads outside ${within}`);
  // A FIFO with no writer: refused at once, never waited on.
  assert.equal(text(readHead(join(within, 'fifo.md'), 100, within)), `FAIL cannot read ${join(within, 'fifo.md')}: not a regular file`);
  assert.equal(text(readHead(within, 100, within)), `FAIL cannot read ${within}: not a regular file`);
});

test('out of descriptors is a resource limit, never a reading of the file; other errors are unreadable files', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), 'x');
  const failing = (code: string) => () => ({ ok: false as const, code });
  const failure = (code: string) => {
    const result = readHead(join(dir, 'f'), 10, dir, failing(code));
    return result.ok ? 'read' : `${result.failure.reason}: ${result.failure.message}`;
  };
  assert.equal(failure('EMFILE'), `resource-limit: cannot open ${join(dir, 'f')}: EMFILE`);
  assert.equal(failure('ENFILE'), `resource-limit: cannot open ${join(dir, 'f')}: ENFILE`);
  assert.equal(failure('EIO'), `unreadable-file: cannot read ${join(dir, 'f')}: EIO`);
});

// A reader that opens `opened` whatever path it is given, as a swap between
// the search and the open would: what is judged is the descriptor.
function swapped(opened: string | number): typeof readRegular {
  return (_path, _limit, accept) => {
    const fd = typeof opened === 'number' ? opened : openSync(opened, 'r');
    try {
      const refused = accept?.(fd);
      return refused === undefined ? { ok: true, bytes: Buffer.from('read'), complete: true } : { ok: false, code: refused };
    } finally {
      if (typeof opened !== 'number') closeSync(fd);
    }
  };
}

test('a descriptor that leads outside, to the directory itself, or nowhere known is refused, whatever the path says', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'outside.md'), 'secret');
  writeFileSync(join(dir, 'in', 'real.md'), 'inside');
  const within = join(dir, 'in');
  const path = join(within, 'real.md');
  const refused = `FAIL cannot read ${path}: it now leads outside ${within}`;
  assert.equal(text(readHead(path, 10, within, swapped(join(dir, 'outside.md')))), refused);
  assert.equal(text(readHead(path, 10, within, swapped(within))), refused);
  assert.equal(text(readHead(path, 10, within, swapped(path))), 'read');
  // No descriptor /proc can name, and a path that is gone.
  const gone = join(within, 'gone.md');
  assert.equal(text(readHead(gone, 10, within, swapped(1_000_000))), `FAIL cannot read ${gone}: it now leads outside ${within}`);
});
