import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from '../helpers/bounded.ts';
import { streamPipe } from '../../src/run/child-process.ts';
import { CommandOutput, HeadBuffer, TailBuffer } from '../../src/run/output.ts';
import { FakeTime } from '../helpers/fake-time.ts';
import { until } from '../helpers/support.ts';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function reading(keepStdout?: number) {
  const output = new CommandOutput(keepStdout);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const status = new PassThrough();
  output.read(streamPipe(stdout), streamPipe(stderr), streamPipe(status));
  return { output, stdout, stderr, status };
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

test('after the exit, done as soon as the three pipes close', async () => {
  const time = new FakeTime();
  const { output, stdout, stderr, status } = reading();
  let done = 0;
  output.drain(time, () => done++);
  assert.deepEqual(time.pending(), [100, 5000]);
  stdout.end();
  status.end('0');
  await until(() => stdout.closed && status.closed, 'stdout and the status pipe closed');
  await tick();
  assert.equal(done, 0, 'done with stderr still open');
  assert.deepEqual(time.pending(), [100], "the status pipe's wait ends with it: only the output drain is left");
  stderr.end();
  await until(() => done === 1, 'every pipe closed');
  assert.deepEqual(time.pending(), [], 'the drain timer is cancelled');
  assert.equal(output.reportedStatus(), '0');
});

test('the status report: its text once its pipe has closed; none while it is open, when it is over its bound, or when the drain closed it', async () => {
  const time = new FakeTime();
  const whole = reading();
  whole.status.write('13');
  await tick();
  assert.equal(whole.output.reportedStatus(), undefined, 'not yet closed');
  whole.status.end('7');
  await until(() => whole.status.closed, 'closed');
  assert.equal(whole.output.reportedStatus(), '137');
  const long = reading();
  long.status.end('123456789');
  await until(() => long.status.closed, 'closed');
  assert.equal(long.output.reportedStatus(), undefined);
  const held = reading();
  held.status.write('0');
  held.stdout.end();
  held.stderr.end();
  await tick();
  let done = 0;
  held.output.drain(time, () => done++);
  time.advance(100);
  assert.equal(done, 0, 'the status pipe is waited for past the output drain');
  time.advance(4899);
  assert.equal(done, 0);
  time.advance(1);
  assert.equal(done, 1);
  assert.equal(held.output.reportedStatus(), undefined, 'a report the drain cut is none');
});

test('a status report that comes after the output drain (a loaded machine late to read it) still decides: done as it closes', async () => {
  const time = new FakeTime();
  const { output, stdout, stderr, status } = reading();
  stderr.end();
  stderr.resume();
  await until(() => stderr.closed, 'stderr closed');
  let done = 0;
  output.drain(time, () => done++);
  time.advance(100);
  assert.equal(done, 0);
  assert.equal(stdout.destroyed, false, 'the output pipes are closed with the status pipe, not before');
  status.end('0');
  await until(() => done === 1, 'done as the status pipe closed');
  assert.equal(output.reportedStatus(), '0');
  assert.deepEqual(time.pending(), [], 'both timers are cancelled');
  assert.equal(stdout.destroyed, true);
});

test('after the exit, pipes closed already: done at once', async () => {
  const time = new FakeTime();
  const { output, stdout, stderr, status } = reading();
  stdout.destroy();
  stderr.destroy();
  status.destroy();
  await until(() => stdout.closed && stderr.closed && status.closed, 'every pipe closed');
  await tick();
  let done = 0;
  output.drain(time, () => done++);
  assert.equal(done, 1);
  assert.deepEqual(time.pending(), []);
});

test('a pipe held open: reading stops 100 ms after the exit, not before', async () => {
  const time = new FakeTime();
  const { output, stdout, stderr, status } = reading();
  stderr.end();
  stderr.resume();
  status.end('0');
  await until(() => stderr.closed && status.closed, 'stderr and the status pipe closed');
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

test('keeps the first bytes, copied, and says whether any were dropped', () => {
  const head = new HeadBuffer(8);
  const reused = Buffer.from('abcd');
  head.push(reused);
  reused.write('zzzz');
  head.push(Buffer.from('efgh'));
  assert.deepEqual([head.text(), head.complete], ['abcdefgh', true]);
  head.push(Buffer.from('i'));
  assert.deepEqual([head.text(), head.complete], ['abcdefgh', false]);
  const split = new HeadBuffer(4);
  split.push(Buffer.from('123456'));
  assert.deepEqual([split.text(), split.complete], ['1234', false]);
  assert.deepEqual([new HeadBuffer(4).text(), new HeadBuffer(4).complete], ['', true]);
});

test('reads of one byte each are kept too', () => {
  const head = new HeadBuffer(4);
  for (const byte of ['{', '}', '\n']) head.push(Buffer.from(byte));
  assert.deepEqual([head.text(), head.complete], ['{}\n', true]);
});

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

test('keeps everything, in arrival order, while under capacity', () => {
  const tail = new TailBuffer(64);
  tail.push(0, bytes('out1 '));
  tail.push(1, bytes('err1 '));
  tail.push(0, bytes('out2'));
  assert.equal(tail.text(), 'out1 err1 out2');
  assert.deepEqual(tail.seen, [9, 5]);
  assert.equal(tail.truncated, false);
});

test('keeps only the last `capacity` bytes, across wrap-around', () => {
  const tail = new TailBuffer(10);
  for (let i = 0; i < 7; i++) tail.push(i % 2 === 0 ? 0 : 1, bytes(`${i}abc`));
  // 28 bytes pushed; the last 10 are "bc5abc6abc".
  assert.equal(tail.text(), 'bc5abc6abc');
  assert.equal(tail.truncated, true);
  assert.deepEqual(tail.seen, [16, 12]);
});

test('one chunk larger than the ring keeps its own end', () => {
  const tail = new TailBuffer(8);
  tail.push(1, bytes('early'));
  tail.push(0, bytes('0123456789ABCDEF'));
  assert.equal(tail.text(), '89ABCDEF');
  assert.equal(tail.truncated, true);
});

test('a character split across reads survives the other stream in between', () => {
  const tail = new TailBuffer(64);
  const euro = bytes('€'); // e2 82 ac
  tail.push(0, Buffer.concat([bytes('a'), euro.subarray(0, 1)]));
  tail.push(1, bytes('[err]'));
  tail.push(0, Buffer.concat([euro.subarray(1), bytes('b')]));
  assert.equal(tail.text(), 'a[err]€b');
});

test('a character cut at the front of the ring is dropped, not shown as U+FFFD', () => {
  const whole = new TailBuffer(5);
  whole.push(0, bytes('x€€')); // 7 bytes: the last 5 start inside the first €
  assert.equal(whole.text(), '€');

  const dropped = new TailBuffer(5);
  dropped.push(0, bytes('a€')); // 4 bytes
  dropped.push(1, bytes('E'));
  dropped.push(0, bytes('cd')); // 7 in all: "a" and the €'s lead byte go
  assert.equal(dropped.text(), 'Ecd');
  assert.equal(dropped.truncated, true);

  // é is C3 A9: a continuation byte with its lowest bit set is trimmed too.
  const odd = new TailBuffer(2);
  odd.push(0, bytes('xéb'));
  assert.equal(odd.text(), 'b');
});

test('invalid UTF-8 becomes U+FFFD', () => {
  const tail = new TailBuffer(64);
  tail.push(0, Buffer.from([0x61, 0xff, 0x62, 0xc3]));
  assert.equal(tail.text(), 'a\ufffdb\ufffd');
});

test('NUL bytes are kept as they are', () => {
  const tail = new TailBuffer(16);
  tail.push(0, Buffer.from([0, 0x41, 0]));
  assert.equal(tail.text(), '\0A\0');
});

test('memory is the ring: many tiny reads do not grow the run list without bound', () => {
  const tail = new TailBuffer(1024);
  for (let i = 0; i < 200_000; i++) tail.push((i % 2) as 0 | 1, bytes('x'));
  const runs = (tail as unknown as { runs: unknown[] }).runs.length;
  assert.ok(runs <= 1024 * 3, `run list has ${runs} entries`);
  assert.equal(tail.text(), 'x'.repeat(1024));
});

test('a chunk of exactly the ring size is whole; one byte more is truncated', () => {
  const exact = new TailBuffer(8);
  exact.push(0, bytes('01234567'));
  assert.deepEqual([exact.text(), exact.truncated], ['01234567', false]);
  const over = new TailBuffer(8);
  over.push(0, bytes('012345678'));
  assert.deepEqual([over.text(), over.truncated], ['12345678', true]);
  const filled = new TailBuffer(8);
  filled.push(0, bytes('0123'));
  filled.push(1, bytes('4567'));
  assert.deepEqual([filled.text(), filled.truncated], ['01234567', false]);
});

test('a chunk of exactly the ring size after other output: what it pushed out counts as dropped', () => {
  const tail = new TailBuffer(8);
  tail.push(1, bytes('ab'));
  tail.push(0, bytes('01234567'));
  assert.deepEqual([tail.text(), tail.truncated], ['01234567', true]);
});

test('consecutive reads of one stream make one run', () => {
  const tail = new TailBuffer(64);
  for (let i = 0; i < 3; i++) tail.push(0, bytes('a'));
  assert.equal((tail as unknown as { runs: unknown[] }).runs.length, 1);
});

test('a character cut at the front of stderr is dropped too', () => {
  const tail = new TailBuffer(5);
  tail.push(1, bytes('x€€'));
  assert.equal(tail.text(), '€');
});

test('in a stream whose front was dropped, only its first kept run is trimmed', () => {
  const tail = new TailBuffer(16);
  const euro = bytes('€');
  tail.push(0, bytes('x'.repeat(20)));
  tail.push(0, Buffer.concat([bytes('a'), euro.subarray(0, 1)]));
  tail.push(1, bytes('E'));
  tail.push(0, Buffer.concat([euro.subarray(1), bytes('b')]));
  assert.equal(tail.text(), `${'x'.repeat(10)}aE€b`);
});

test('a read that crosses the end of the ring goes on at its start', () => {
  const tail = new TailBuffer(8);
  tail.push(0, bytes('012345'));
  tail.push(0, bytes('6789'));
  assert.equal(tail.text(), '23456789');
});

test('at most three continuation bytes are trimmed from a cut front: a fourth is invalid and shown', () => {
  const tail = new TailBuffer(5);
  tail.push(0, Buffer.from([0x61, 0x80, 0x80, 0x80, 0x80, 0x62]));
  assert.equal(tail.text(), '\ufffdb');
});
