import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { readPipe } from '../../src/run/output.ts';

test('a child pipe is read through its handle, every byte, in order', async () => {
  const child = spawn('sh', ['-c', 'i=0; while [ $i -lt 20000 ]; do echo "line $i"; i=$((i+1)); done'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const chunks: Buffer[] = [];
  // The reused read buffer is overwritten by the next read: copy, as the tail ring does.
  const reader = readPipe(child.stdout, (bytes) => chunks.push(Buffer.from(bytes)));
  assert.notEqual(reader, child.stdout, 'took the handle rather than the stream');
  // A pipe we only read: nothing may be written, or half-closed, through it.
  assert.equal((reader as Socket).writable, false);
  await once(reader, 'close');
  const lines = Buffer.concat(chunks).toString('utf8').split('\n');
  assert.equal(lines.length, 20001);
  assert.equal(lines[0], 'line 0');
  assert.equal(lines[19999], 'line 19999');
});

test('a stream without a handle is read through its data events', async () => {
  const stream = Readable.from([Buffer.from('ab'), Buffer.from('cd')]);
  const chunks: Buffer[] = [];
  const reader = readPipe(stream, (bytes) => chunks.push(Buffer.from(bytes)));
  assert.equal(reader, stream);
  await once(reader, 'close');
  assert.equal(Buffer.concat(chunks).toString(), 'abcd');
});
