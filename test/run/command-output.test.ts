import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { CommandOutput, readStream } from '../../src/run/output.ts';
import { FakeTime } from '../helpers/fake-time.ts';
import { until } from '../helpers/support.ts';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function reading(keepStdout?: number) {
  const output = new CommandOutput(keepStdout);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  output.read(stdout, stderr, readStream);
  return { output, stdout, stderr };
}

test('both streams in arrival order, with their byte counts', async () => {
  const { output, stdout, stderr } = reading();
  stdout.write('out\n');
  await tick();
  stderr.write('err\n');
  await tick();
  stdout.write('€\n');
  await tick();
  assert.deepEqual(output.summary(), { text: 'out\nerr\n€\n', stdoutBytes: 8, stderrBytes: 4, truncated: false });
  assert.equal(output.stdout(), undefined);
});

test('the tail is the last 64 KiB (65,536 bytes)', async () => {
  const { output, stdout, stderr } = reading();
  stdout.write(Buffer.alloc(65536, 'a'));
  await tick();
  assert.deepEqual([output.summary().text.length, output.summary().truncated], [65536, false]);
  stderr.write('b');
  await tick();
  const summary = output.summary();
  assert.equal(summary.truncated, true);
  assert.equal(summary.text, `${'a'.repeat(65535)}b`);
});

test('with keepStdout, the head of stdout apart, and whether it is whole', async () => {
  const { output, stdout, stderr } = reading(4);
  stdout.write('{"a"');
  stderr.write('noise');
  await tick();
  assert.deepEqual(output.stdout(), { text: '{"a"', complete: true });
  stdout.write(':1}');
  await tick();
  assert.deepEqual(output.stdout(), { text: '{"a"', complete: false });
});

test('after the exit, done as soon as both pipes close', async () => {
  const time = new FakeTime();
  const { output, stdout, stderr } = reading();
  let done = 0;
  output.drain(time, () => done++);
  assert.deepEqual(time.pending(), [100]);
  stdout.end();
  await until(() => stdout.closed, 'stdout closed');
  await tick();
  assert.equal(done, 0, 'done with stderr still open');
  stderr.end();
  await until(() => done === 1, 'both pipes closed');
  assert.deepEqual(time.pending(), [], 'the drain timer is cancelled');
});

test('after the exit, pipes closed already: done at once', async () => {
  const time = new FakeTime();
  const { output, stdout, stderr } = reading();
  stdout.destroy();
  stderr.destroy();
  await until(() => stdout.closed && stderr.closed, 'both pipes closed');
  await tick();
  let done = 0;
  output.drain(time, () => done++);
  assert.equal(done, 1);
  assert.deepEqual(time.pending(), []);
});

test('a pipe held open: reading stops 100 ms after the exit, not before', async () => {
  const time = new FakeTime();
  const { output, stdout, stderr } = reading();
  stderr.end();
  stderr.resume();
  await until(() => stderr.closed, 'stderr closed');
  let done = 0;
  output.drain(time, () => done++);
  time.advance(99);
  assert.equal(done, 0);
  assert.equal(stdout.destroyed, false);
  time.advance(1);
  assert.equal(done, 1);
  assert.equal(stdout.destroyed, true);
  await until(() => stdout.closed, 'stdout closed');
  await tick();
  assert.equal(done, 1, 'the close after the drain does not finish twice');
});
