import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { readRegular, openFileLimit } from '../../src/fs/read.ts';
import { tempDir } from '../helpers/support.ts';

const shown = (read: ReturnType<typeof readRegular>) => (read.ok ? [read.value.bytes.toString(), read.value.complete] : read.failure);

test('up to the limit, and whether that was all of it', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), '0123456789');
  assert.deepEqual(shown(readRegular(join(dir, 'f'), 10)), ['0123456789', true]);
  assert.deepEqual(shown(readRegular(join(dir, 'f'), 9)), ['012345678', false]);
  assert.deepEqual(shown(readRegular(join(dir, 'f'), 100)), ['0123456789', true]);
});

test('only a regular file, refused by code otherwise, without blocking', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), 'x');
  assert.equal(spawnSync('mkfifo', [join(dir, 'fifo')]).status, 0);
  assert.equal(shown(readRegular(join(dir, 'fifo'), 10)), 'NOTREG');
  assert.equal(shown(readRegular('/dev/zero', 10)), 'NOTREG');
  assert.equal(shown(readRegular(dir, 10)), 'NOTREG');
  assert.equal(shown(readRegular(join(dir, 'missing'), 10)), 'ENOENT');
  assert.equal(shown(readRegular(join(dir, 'f'), 10, () => 'MINE')), 'MINE');
  assert.deepEqual(shown(readRegular(join(dir, 'f'), 10, () => undefined)), ['x', true]);
});

test('an error once the file is open is answered by its code', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), 'x');
  const thrown = Object.assign(new Error('failed'), { code: 'EIO' });
  assert.equal(
    shown(
      readRegular(join(dir, 'f'), 10, () => {
        throw thrown;
      }),
    ),
    'EIO',
  );
});

test('short reads: it reads on until one byte past the limit or the end, whatever each read gives', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), '012345678');
  // Four bytes a read at most, as a /proc file or a network file system may give.
  const short = (fd: number, buffer: Uint8Array, offset: number, length: number): number => readSync(fd, buffer, offset, Math.min(length, 4), null);
  assert.deepEqual(shown(readRegular(join(dir, 'f'), 8, undefined, short)), ['01234567', false]);
  assert.deepEqual(shown(readRegular(join(dir, 'f'), 9, undefined, short)), ['012345678', true]);
});

test('every descriptor it opens is closed, whatever the outcome', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), '0123456789');
  const open = () => readdirSync('/proc/self/fd').length;
  const before = open();
  for (let i = 0; i < 20; i++) {
    assert.equal(readRegular(join(dir, 'f'), 100).ok, true);
    assert.equal(shown(readRegular(dir, 10)), 'NOTREG');
    assert.equal(shown(readRegular(join(dir, 'f'), 10, () => 'MINE')), 'MINE');
    const failing = (): number => {
      throw Object.assign(new Error('EIO'), { code: 'EIO' });
    };
    assert.equal(shown(readRegular(join(dir, 'f'), 10, undefined, failing)), 'EIO');
  }
  assert.equal(open(), before);
});

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

const noReport = (): never => assert.fail('the report is asked only without a limits line');

test('the soft limit of the limits file, and the report is not asked', () => {
  assert.equal(
    openFileLimit(() => LIMITS, noReport),
    1024,
  );
  assert.equal(
    openFileLimit(() => LIMITS.replace('1024     ', 'unlimited'), noReport),
    undefined,
  );
});

test('without the file, or a file without the line, the report says', () => {
  const report = { userLimits: { open_files: { soft: 256, hard: 4096 } } };
  const missing = (): never => {
    throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  };
  assert.equal(
    openFileLimit(missing, () => report),
    256,
  );
  assert.equal(
    openFileLimit(
      () => 'Max processes 100 100\n',
      () => report,
    ),
    256,
  );
  // The report writes "unlimited" as a string: no limit to keep within.
  assert.equal(
    openFileLimit(missing, () => ({ userLimits: { open_files: { soft: 'unlimited' } } })),
    undefined,
  );
  assert.equal(
    openFileLimit(missing, () => undefined),
    undefined,
  );
});

test('the line must start a line: a value elsewhere is not taken', () => {
  assert.equal(
    openFileLimit(
      () => `x Max open files 7 7 files\n`,
      () => ({ userLimits: { open_files: { soft: 9 } } }),
    ),
    9,
  );
});
