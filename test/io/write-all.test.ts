import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeAll } from '../../src/io/output.ts';
import { tempDir } from '../helpers/support.ts';

const errno = (code: string): Error => Object.assign(new Error(`${code}: failed`), { code });

test('all of the text is written, in as many writes as the descriptor takes, as UTF-8', () => {
  const writes: string[] = [];
  const result = writeAll(7, 'héllo, world', (fd, buffer, offset, length) => {
    assert.equal(fd, 7);
    assert.equal(offset + length, buffer.length, 'asks for the rest, no more');
    const n = Math.min(length, 4);
    writes.push(Buffer.from(buffer.subarray(offset, offset + n)).toString('latin1'));
    return n;
  });
  assert.deepEqual(result, { status: 'written' });
  assert.equal(Buffer.from(writes.join(''), 'latin1').toString('utf8'), 'héllo, world');
  assert.equal(writes.length, 4);
});

test('a descriptor that would block hands the unwritten rest over', () => {
  let calls = 0;
  const result = writeAll(1, 'abcdef', () => {
    calls += 1;
    if (calls === 1) return 2;
    throw errno('EAGAIN');
  });
  assert.equal(result.status, 'blocked');
  assert.equal(result.status === 'blocked' && Buffer.from(result.rest).toString(), 'cdef');
});

test('a write that makes no progress hands the rest over rather than spin', () => {
  const result = writeAll(1, 'abc', () => 0);
  assert.equal(result.status === 'blocked' && Buffer.from(result.rest).toString(), 'abc');
});

test('any other error is returned by its code, or its message without one', () => {
  assert.deepEqual(writeAll(1, 'x', () => { throw errno('EPIPE'); }), { status: 'failed', code: 'EPIPE' });
  assert.deepEqual(writeAll(1, 'x', () => { throw new Error('odd'); }), { status: 'failed', code: 'odd' });
  assert.deepEqual(writeAll(1, 'x', () => { throw 'odder'; }), { status: 'failed', code: 'odder' });
});

test('nothing to write is no write at all', () => {
  assert.deepEqual(writeAll(1, '', () => assert.fail('no write')), { status: 'written' });
});

test('by default it writes the file descriptor itself', (t) => {
  const file = join(tempDir(t), 'out');
  const fd = openSync(file, 'w');
  try {
    assert.deepEqual(writeAll(fd, 'line\n'), { status: 'written' });
  } finally {
    closeSync(fd);
  }
  assert.equal(readFileSync(file, 'utf8'), 'line\n');
});
