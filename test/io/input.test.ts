import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, rmSync, writeFileSync, closeSync, openSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { test } from '../helpers/bounded.ts';
import { Stop } from '../../src/failure.ts';
import { readRegular } from '../../src/fs/read.ts';
import { readInput, readHead, textInput } from '../../src/io/input.ts';

// A file read as a predicate is: its bytes, then strict UTF-8.
const readTextFile = (path: string, label: string, options: Parameters<typeof readInput>[2]) => textInput((p, l) => readInput(p, l, options), path, label);
import { holdsOpen, opensFifo, tempDir, until } from '../helpers/support.ts';

const readPredicateFile = (path: string, stdin: () => Readable) => readTextFile(path, path === '-' ? 'standard input' : `--predicate-file ${path}`, { stdin });

const noStdin = (): Readable => assert.fail('standard input was opened for a file');

test('reads a file, without its BOM', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'p.json'), '\ufeff{"kind":"x"}');
  assert.deepEqual(await readPredicateFile(join(dir, 'p.json'), noStdin), { ok: true, value: '{"kind":"x"}' });
});

test('no descriptor is left open, read or refused', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'p.json'), '{"a":1}');
  writeFileSync(join(dir, 'big.json'), Buffer.alloc(1024 * 1024 + 1, 0x20));
  const open = (): number => readdirSync('/proc/self/fd').length;
  const before = open();
  for (const path of [join(dir, 'p.json'), join(dir, 'big.json'), dir, '/dev/null']) {
    await readTextFile(path, 'F', { stdin: noStdin });
    assert.equal(open(), before, path);
  }
});

test('reads standard input for "-"', async () => {
  const stdin = Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]);
  assert.deepEqual(await readPredicateFile('-', () => stdin), { ok: true, value: '{"a":1}' });
});

test('says why a file cannot be read', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'f'), '');
  const cases: [string, string][] = [
    [join(dir, 'missing.json'), `cannot read --predicate-file ${join(dir, 'missing.json')}: no such file`],
    [join(dir, 'd'), `cannot read --predicate-file ${join(dir, 'd')}: is a directory`],
    [join(dir, 'f', 'x'), `cannot read --predicate-file ${join(dir, 'f', 'x')}: a part of the path is not a directory`],
    [
      join(dir, 'sock'),
      `cannot read --predicate-file ${join(dir, 'sock')}: cannot be opened (ENXIO): a socket, or a device with nothing behind it; for standard input, use -`,
    ],
  ];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(join(dir, 'sock'), resolve));
  t.after(() => server.close());
  for (const [path, message] of cases) {
    const result = await readPredicateFile(path, noStdin);
    assert.ok(!result.ok);
    assert.deepEqual([result.failure.reason, result.failure.message], ['unreadable-file', message]);
  }
});

test('refuses more than the cap, from a file or from stdin', async (t) => {
  const dir = tempDir(t);
  const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
  writeFileSync(join(dir, 'big.json'), big);
  const fromFile = await readPredicateFile(join(dir, 'big.json'), noStdin);
  assert.ok(!fromFile.ok);
  assert.equal(fromFile.failure.message, `--predicate-file ${join(dir, 'big.json')} is larger than 1048576 bytes`);
  const fromStdin = await readPredicateFile('-', () => Readable.from([big.subarray(0, 70000), big.subarray(70000)]));
  assert.ok(!fromStdin.ok);
  assert.equal(fromStdin.failure.message, `standard input is larger than 1048576 bytes`);
  writeFileSync(join(dir, 'exact.json'), big.subarray(1));
  assert.ok((await readPredicateFile(join(dir, 'exact.json'), noStdin)).ok);
});

test('refuses bytes that are not UTF-8', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
  const result = await readPredicateFile(join(dir, 'latin1.json'), noStdin);
  assert.ok(!result.ok);
  assert.equal(result.failure.message, `--predicate-file ${join(dir, 'latin1.json')} is not valid UTF-8`);
});

function fifo(dir: string): string {
  const path = join(dir, 'fifo');
  assert.equal(spawnSync('mkfifo', [path]).status, 0);
  return path;
}

test('a FIFO is read when a writer comes', async (t) => {
  const path = fifo(tempDir(t));
  const writer = spawn('sh', ['-c', `sleep 0.1; printf '{"a":1}' > ${path}`]);
  t.after(() => writer.kill());
  assert.deepEqual(await readTextFile(path, 'F', { stdin: noStdin, timeoutMs: 5000 }), { ok: true, value: '{"a":1}' });
});

test('a FIFO whose writer already waits is read: it is never opened and closed first, which would break that writer', async (t) => {
  const path = fifo(tempDir(t));
  const writer = spawn('sh', ['-c', `printf '{"a":1}' > ${path}`]);
  t.after(() => writer.kill());
  await until(() => opensFifo(writer.pid!), 'the writer waits for a reader');
  assert.deepEqual(await readTextFile(path, 'F', { stdin: noStdin, timeoutMs: 10_000 }), { ok: true, value: '{"a":1}' });
});

test('a FIFO with no writer is an error after the timeout, not a hang', async (t) => {
  const path = fifo(tempDir(t));
  const result = await readTextFile(path, 'F', { stdin: noStdin, timeoutMs: 200 });
  assert.deepEqual(result, { ok: false, failure: { reason: 'unreadable-file', message: 'cannot read F: nothing arrived within 0.2 s', issues: [] } });
});

test('a FIFO whose writer never closes it times out too', async (t) => {
  const path = fifo(tempDir(t));
  const writer = spawn('sh', ['-c', `exec 3>${path}; printf '{' >&3; sleep 30`], { detached: true });
  t.after(() => process.kill(-writer.pid!, 'SIGKILL'));
  const result = await readTextFile(path, 'F', { stdin: noStdin, timeoutMs: 300 });
  assert.ok(!result.ok);
  assert.equal(result.failure.message, 'cannot read F: the input did not end within 0.3 s');
});

test('a stop signal abandons a FIFO that waits for a writer', async (t) => {
  const path = fifo(tempDir(t));
  const stop = new AbortController();
  const pending = readTextFile(path, 'F', { stdin: noStdin, signal: stop.signal, timeoutMs: 60_000 });
  await until(() => holdsOpen(process.pid, path), 'the read waits for a writer');
  stop.abort(new Stop('SIGINT'));
  const result = await pending;
  assert.deepEqual(result.ok ? '' : result.failure.reason, 'stopped');
});

// The stop comes as the abort listener is added, before any wait began.
test('a stop that comes as the wait begins still abandons it', { timeout: 30_000 }, async (t) => {
  const path = fifo(tempDir(t));
  const stop = new AbortController();
  const add = stop.signal.addEventListener.bind(stop.signal);
  stop.signal.addEventListener = ((type: string, listener: () => void) => {
    add(type, listener);
    if (type === 'abort') stop.abort(new Stop('SIGINT'));
  }) as typeof stop.signal.addEventListener;
  const result = await readTextFile(path, 'F', { stdin: noStdin, signal: stop.signal, timeoutMs: 600_000 });
  assert.deepEqual(result.ok ? '' : result.failure.reason, 'stopped');
});

// Nothing can open a FIFO by a name that is gone: a wait that needs such an
// open to end it would last for ever.
test('a FIFO removed while its writer is awaited: a stop and the timeout still end the wait', async (t) => {
  for (const how of ['stop', 'timeout'] as const) {
    const path = fifo(tempDir(t));
    const stop = new AbortController();
    const pending = readTextFile(path, 'F', { stdin: noStdin, signal: stop.signal, timeoutMs: how === 'stop' ? 600_000 : 300 });
    await until(() => holdsOpen(process.pid, path), 'the read waits for a writer');
    rmSync(path);
    if (how === 'stop') stop.abort(new Stop('SIGTERM'));
    const result = await pending;
    assert.deepEqual(
      result.ok ? '' : how === 'stop' ? result.failure.reason : result.failure.message,
      how === 'stop' ? 'stopped' : 'cannot read F: nothing arrived within 0.3 s',
    );
  }
});

test('no descriptor is left open by a FIFO, read or timed out', async (t) => {
  const open = (): number => readdirSync('/proc/self/fd').length;
  const before = open();
  const path = fifo(tempDir(t));
  // No pipes of its own to the writer: the count is ours and the FIFO's only.
  const writer = spawn('sh', ['-c', `printf '{"a":1}' > ${path}`], { stdio: 'ignore' });
  t.after(() => writer.kill());
  const exited = once(writer, 'exit');
  assert.deepEqual(await readTextFile(path, 'F', { stdin: noStdin, timeoutMs: 10_000 }), { ok: true, value: '{"a":1}' });
  await exited;
  assert.ok(!(await readTextFile(path, 'F', { stdin: noStdin, timeoutMs: 100 })).ok);
  assert.equal(open(), before);
});

test('standard input from a pipe that never ends times out; a stop abandons it', async () => {
  const never = new PassThrough();
  const result = await readTextFile('-', 'standard input', { stdin: () => never, timeoutMs: 100 });
  assert.deepEqual(result.ok ? '' : result.failure.message, 'cannot read standard input: nothing arrived within 0.1 s');
  const stop = new AbortController();
  stop.abort(new Stop('SIGTERM'));
  const stopped = await readTextFile('-', 'standard input', { stdin: () => new PassThrough(), signal: stop.signal });
  assert.deepEqual(stopped.ok ? '' : stopped.failure.message, 'stopped by SIGTERM');
});

test('a terminal or another device is refused at once, never read (a read could outlast any stop)', async () => {
  for (const device of ['/dev/ptmx', '/dev/zero', '/dev/null']) {
    assert.deepEqual(
      await readPredicateFile(device, noStdin),
      {
        ok: false,
        failure: { reason: 'unreadable-file', message: `cannot read --predicate-file ${device}: is not a regular file, a FIFO or standard input`, issues: [] },
      },
      device,
    );
  }
});

test('standard input: text chunks are read, exactly 1 MiB is taken, and a refused stream is destroyed, a read one only paused', async () => {
  const text = new PassThrough();
  text.setEncoding('utf8');
  text.end('{"\u00e9":1}');
  assert.deepEqual(await readPredicateFile('-', () => text), { ok: true, value: '{"\u00e9":1}' });
  const exact = new Readable({ read() {}, autoDestroy: false });
  exact.push(Buffer.alloc(1024 * 1024, 0x20));
  exact.push(null);
  const read = await readPredicateFile('-', () => exact);
  assert.deepEqual([read.ok && read.value.length, exact.destroyed], [1024 * 1024, false]);
  const over = new Readable({ read() {}, autoDestroy: false });
  over.push(Buffer.alloc(1024 * 1024 + 1, 0x20));
  const refused = await readPredicateFile('-', () => over);
  assert.deepEqual([refused.ok, over.destroyed], [false, true]);
});

// Timers are mocked: the documented 30 s are checked without waiting for them.
test('standard input that never ends gives up after 30 s, not before', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const stdin = new PassThrough();
  let settled = false;
  const pending = readPredicateFile('-', () => stdin).then((r) => ((settled = true), r));
  t.mock.timers.tick(29_999);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'gave up before 30 s');
  t.mock.timers.tick(1);
  const result = await pending;
  assert.ok(!result.ok);
  assert.equal(result.failure.message, 'cannot read standard input: nothing arrived within 30 s');
});

test('a terminal on standard input is waited for without a timeout', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let settled = false;
  const pending = readPredicateFile('-', () => stdin).then((r) => ((settled = true), r));
  t.mock.timers.tick(365 * 24 * 3600 * 1000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'a person typing was timed out');
  stdin.end('{"a":1}');
  assert.deepEqual(await pending, { ok: true, value: '{"a":1}' });
});

const text = (result: ReturnType<typeof readHead>): string => (result.ok ? result.value.toString() : `FAIL ${result.failure.message}`);

test('at most the first `limit` bytes, or the whole of a smaller file', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), Buffer.from('0123456789'));
  assert.equal(text(readHead(join(dir, 'f'), 4, dir, readRegular, (p) => p)), '0123');
  assert.equal(text(readHead(join(dir, 'f'), 100, dir, readRegular, (p) => p)), '0123456789');
  writeFileSync(join(dir, 'empty'), '');
  assert.equal(text(readHead(join(dir, 'empty'), 10, dir, readRegular, (p) => p)), '');
  assert.equal(text(readHead(join(dir, 'missing'), 10, dir, readRegular, (p) => p)), `FAIL cannot read ${join(dir, 'missing')}: ENOENT`);
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
  assert.equal(text(readHead(join(within, 'alias.md'), 100, within, readRegular, (p) => p)), 'inside');
  assert.equal(
    text(readHead(join(within, 'out.md'), 100, within, readRegular, (p) => p)),
    `FAIL cannot read ${join(within, 'out.md')}: it now leads outside ${within}`,
  );
  // A FIFO with no writer: refused at once, never waited on.
  assert.equal(text(readHead(join(within, 'fifo.md'), 100, within, readRegular, (p) => p)), `FAIL cannot read ${join(within, 'fifo.md')}: not a regular file`);
  assert.equal(text(readHead(within, 100, within, readRegular, (p) => p)), `FAIL cannot read ${within}: not a regular file`);
});

test('out of descriptors is a resource limit, never a reading of the file; other errors are unreadable files', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f'), 'x');
  const failing = (code: string) => () => ({ ok: false as const, failure: code });
  const failure = (code: string) => {
    const result = readHead(join(dir, 'f'), 10, dir, failing(code), (p) => p);
    return result.ok ? 'read' : `${result.failure.reason}: ${result.failure.message}`;
  };
  assert.equal(failure('EMFILE'), `resource-limit: cannot open ${join(dir, 'f')}: EMFILE`);
  assert.equal(failure('ENFILE'), `resource-limit: cannot open ${join(dir, 'f')}: ENFILE`);
  assert.equal(failure('EIO'), `unreadable-file: cannot read ${join(dir, 'f')}: EIO`);
  // Each path the message names is named as the caller shows paths.
  const shown = readHead(
    join(dir, 'f'),
    10,
    dir,
    () => ({ ok: false as const, failure: 'OUTSIDE' }),
    (p) => `<${p === dir ? 'dir' : 'f'}>`,
  );
  assert.equal(shown.ok ? 'read' : shown.failure.message, 'cannot read <f>: it now leads outside <dir>');
});

// A reader that opens `opened` whatever path it is given, as a swap between
// the search and the open would: what is judged is the descriptor.
function swapped(opened: string | number): typeof readRegular {
  return (_path, _limit, accept) => {
    const fd = typeof opened === 'number' ? opened : openSync(opened, 'r');
    try {
      const refused = accept?.(fd);
      return refused === undefined ? { ok: true, value: { bytes: Buffer.from('read'), complete: true } } : { ok: false, failure: refused };
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
  assert.equal(text(readHead(path, 10, within, swapped(join(dir, 'outside.md')), (p) => p)), refused);
  assert.equal(text(readHead(path, 10, within, swapped(within), (p) => p)), refused);
  assert.equal(text(readHead(path, 10, within, swapped(path), (p) => p)), 'read');
  // No descriptor /proc can name, and a path that is gone.
  const gone = join(within, 'gone.md');
  assert.equal(text(readHead(gone, 10, within, swapped(1_000_000), (p) => p)), `FAIL cannot read ${gone}: it now leads outside ${within}`);
});
