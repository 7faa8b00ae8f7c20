import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { test } from '../helpers/bounded.ts';
import { childProcessStart, streamPipe } from '../../src/run/child-process.ts';

test("a stream's reads go to onBytes and its close to onEnd, once", async () => {
  const stream = new PassThrough();
  const seen: string[] = [];
  streamPipe(stream).read(
    (bytes) => seen.push(Buffer.from(bytes).toString()),
    () => seen.push('end'),
  );
  stream.write('ab');
  stream.end('cd');
  await once(stream, 'close');
  assert.deepEqual(seen, ['ab', 'cd', 'end']);
});

test('closed: no read and no end come after, and an error on the stream is not thrown', async () => {
  const stream = new PassThrough();
  const seen: string[] = [];
  const pipe = streamPipe(stream);
  pipe.read(
    (bytes) => seen.push(Buffer.from(bytes).toString()),
    () => seen.push('end'),
  );
  pipe.close();
  stream.emit('error', new Error('EPIPE'));
  await once(stream, 'close');
  assert.deepEqual(seen, []);
  assert.equal(stream.destroyed, true);
});

test("closing a child's pipe leaves node:child_process its own 'close' of the child", async () => {
  // Nothing written: a write to the closed pipe would end sh by SIGPIPE first.
  const child = spawn('sh', ['-c', 'exit 0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const pipe = streamPipe(child.stdout);
  pipe.read(
    () => {},
    () => {},
  );
  pipe.close();
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 0);
});

test('a start that fails later (the program is missing) fails once, with its code', async () => {
  const failed = await new Promise<string>((resolve) => {
    childProcessStart(
      { file: 'gsd-check-no-such-program', args: [], cwd: process.cwd(), env: { PATH: process.env.PATH } },
      { failed: resolve, started: () => () => resolve('started') },
    );
  });
  assert.equal(failed, 'ENOENT');
});
