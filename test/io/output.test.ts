import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from '../helpers/bounded.ts';
import { makeEmitter, type OutputFd, writeAll } from '../../src/io/output.ts';
import { tempDir } from '../helpers/support.ts';

const errno = (code: string): Error => Object.assign(new Error(`${code}: failed`), { code });

// A stream per descriptor that keeps what it is given, and fails a write
// when told to; `made` lists the descriptors whose stream was asked for.
function streams(fail?: Error, held?: (() => void)[]) {
  const got: Record<OutputFd, string> = { 1: '', 2: '' };
  const made: OutputFd[] = [];
  const byFd = new Map<OutputFd, Writable>();
  const streamOf = (fd: OutputFd): Writable => {
    made.push(fd);
    let stream = byFd.get(fd);
    if (stream === undefined) {
      stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          got[fd] += chunk.toString();
          // Held: the write completes only when the test says so.
          if (held !== undefined) held.push(() => done(fail ?? null));
          else done(fail ?? null);
        },
      });
      byFd.set(fd, stream);
    }
    return stream;
  };
  return { got, made, streamOf, byFd };
}

const noFailure = (code: string): never => assert.fail(`no write fails, got ${code}`);

// A write call whose stdout takes two bytes, then would block for good;
// stderr takes everything. `direct` lists what went out through it.
function stdoutBlocksAfterTwoBytes() {
  const direct: string[] = [];
  let blocked = false;
  const write = (fd: number, buffer: Uint8Array, offset: number, length: number): number => {
    const text = Buffer.from(buffer.subarray(offset, offset + length)).toString();
    if (fd === 1 && !blocked) {
      blocked = true;
      direct.push(`1:${text.slice(0, 2)}`);
      return 2;
    }
    if (fd === 1) throw errno('EAGAIN');
    direct.push(`${fd}:${text}`);
    return length;
  };
  return { direct, write };
}

test('a descriptor that takes every write: written directly, no stream made', () => {
  const { made, streamOf } = streams();
  const writes: string[] = [];
  const emit = makeEmitter(streamOf, (fd, buffer, offset, length) => {
    writes.push(`${fd}:${Buffer.from(buffer.subarray(offset, offset + length)).toString()}`);
    return length;
  });
  emit(1, 'out', noFailure);
  emit(2, 'err', noFailure);
  assert.deepEqual([writes, made], [['1:out', '2:err'], []]);
});

test('once a descriptor would block, the rest and all later text for it go through its stream, in order; the other descriptor stays direct', async () => {
  const { got, made, streamOf, byFd } = streams();
  const { direct, write } = stdoutBlocksAfterTwoBytes();
  const emit = makeEmitter(streamOf, write);
  emit(1, 'abcdef', noFailure);
  emit(1, 'ghi', noFailure);
  emit(2, 'err', noFailure);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(direct, ['1:ab', '2:err']);
  assert.equal(got[1], 'cdefghi');
  assert.deepEqual([...new Set(made)], [1]);
  // The 'error' event of a stream that failed would otherwise crash the process.
  assert.equal(byFd.get(1)!.listenerCount('error'), 1);
});

test('stderr that would block goes through the stream of stderr', async () => {
  const { got, streamOf } = streams();
  const emit = makeEmitter(streamOf, () => {
    throw errno('EAGAIN');
  });
  emit(2, 'err', noFailure);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(got, { 1: '', 2: 'err' });
});

test('a failed write is reported by its code: directly, or from the stream, by its message when it has no code', async () => {
  const failures: string[] = [];
  const direct = makeEmitter(streams().streamOf, () => {
    throw errno('EPIPE');
  });
  direct(1, 'x', (code) => failures.push(code));
  for (const fail of [errno('EIO'), new Error('odd')]) {
    const { streamOf, byFd } = streams(fail);
    const emit = makeEmitter(streamOf, () => {
      throw errno('EAGAIN');
    });
    const failed = new Promise<string>((resolve) => emit(1, 'x', resolve));
    failures.push(await failed);
    // The stream's own 'error' event has been taken by the handler the emitter hung on it.
    assert.equal(byFd.get(1)!.listenerCount('error'), 1);
  }
  assert.deepEqual(failures, ['EPIPE', 'EIO', 'odd']);
});

test('while a streamed write is in flight, later text for either descriptor waits for it: 2>&1 keeps its order', async () => {
  const held: (() => void)[] = [];
  const { got, streamOf } = streams(undefined, held);
  const { direct, write } = stdoutBlocksAfterTwoBytes();
  const emit = makeEmitter(streamOf, write);
  emit(1, 'abcdef', noFailure);
  emit(2, 'err', noFailure);
  emit(1, 'ghi', noFailure);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual([direct, got[1], held.length], [['1:ab'], 'cdef', 1]);
  held.shift()!();
  await new Promise((resolve) => setImmediate(resolve));
  // stderr went out directly once stdout's rest was written; then stdout's next text, through its stream.
  assert.deepEqual([direct, got[1], held.length], [['1:ab', '2:err'], 'cdefghi', 1]);
  held.shift()!();
});

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
  assert.deepEqual(
    writeAll(1, 'x', () => {
      throw errno('EPIPE');
    }),
    { status: 'failed', code: 'EPIPE' },
  );
  assert.deepEqual(
    writeAll(1, 'x', () => {
      throw new Error('odd');
    }),
    { status: 'failed', code: 'odd' },
  );
  assert.deepEqual(
    writeAll(1, 'x', () => {
      throw 'odder';
    }),
    { status: 'failed', code: 'odder' },
  );
});

test('nothing to write is no write at all', () => {
  assert.deepEqual(
    writeAll(1, '', () => assert.fail('no write')),
    { status: 'written' },
  );
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
