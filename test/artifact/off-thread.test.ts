import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from '../helpers/bounded.ts';
import { parseWithLibrary, yaml } from '../../src/artifact/frontmatter.ts';
import { parseOffThread, readFields } from '../../src/artifact/off-thread.ts';
import { cli, type CliResult, killSurvivors, marker, running, survivors, tempDir, until } from '../helpers/support.ts';

const reasonOf = (result: { ok: true } | { ok: false; failure: { reason: string } }): string => (result.ok ? 'fields' : result.failure.reason);

const threads = (): number => readdirSync('/proc/self/task').length;

// First in this file: no other thread of it is still ending.
test('a stop signal ends a thread that would never answer, and the thread is gone', async () => {
  const before = threads();
  const stop = new AbortController();
  const pending = parseOffThread('"a": 1\n', 'F.md', { signal: stop.signal, code: 'for (;;);' });
  await until(() => threads() > before, 'the thread runs');
  stop.abort('SIGTERM');
  assert.equal(reasonOf(await pending), 'stopped');
  await until(() => threads() === before, 'the thread ended');
});

test('the answer is the one the main thread gives, failures and odd values included', async () => {
  const documents = [
    '"a": 1\nb: [1, "2", three, -0, .inf, -.inf, .nan]\nc: {x: {y: null}}\n',
    '__proto__: {polluted: 1}\n"k": v\n',
    'a: 1\nb: [1, 2\nc: 3\n',
    'outer:\n  a: 1\n  a: 2\n',
    '- a\n- b\n',
    '"just text"\n',
    `x: ${'['.repeat(65)}${']'.repeat(65)}\n`,
    'x: &a [*a]\n',
    's: !!set {a, b}\n',
    'o: !!omap [{a: 1}]\n',
    'm: !!merge <<\n',
    `k: ${'{ ? '.repeat(30)}a${' }'.repeat(30)}\n`,
    'title: Phase 4: Ship\nn: "a\0b"\n',
  ];
  for (const text of documents) {
    const off = await parseOffThread(text, 'F.md');
    assert.deepEqual(off, parseWithLibrary(text, 'F.md', yaml()), text);
  }
  const proto = await parseOffThread('__proto__: {polluted: 1}\n', 'F.md');
  assert.ok(proto.ok && proto.value.mapping);
  assert.deepEqual(Object.keys(proto.value.fields), ['__proto__']);
  assert.equal(Object.getPrototypeOf(proto.value.fields), Object.prototype);
});

test('a stop that came first starts no thread', async () => {
  const stop = new AbortController();
  stop.abort('SIGINT');
  assert.equal(reasonOf(await parseOffThread('"a": 1\n', 'F.md', { signal: stop.signal, code: 'throw new Error("started")' })), 'stopped');
});

test('a thread that fails, crashes, runs out of memory, ends without an answer or cannot start: a resource-limit failure, never fields', async () => {
  const cases: [{ code: string; heapMb?: number }, RegExp][] = [
    [{ code: 'throw new Error("boom")' }, /^F\.md: the frontmatter parser thread failed: boom$/],
    [{ code: 'throw "plain"' }, /^F\.md: the frontmatter parser thread failed: plain$/],
    [{ code: 'process.exit(3)' }, /^F\.md: the frontmatter parser thread ended without an answer \(exit code 3\)$/],
    [{ code: '' }, /^F\.md: the frontmatter parser thread ended without an answer \(exit code 0\)$/],
    [{ code: 'const a = []; for (;;) a.push(new Array(1e5).fill(a.length));', heapMb: 8 }, /^F\.md: the frontmatter parser thread failed: .*memory/],
    [
      { code: 'require("node:worker_threads").parentPort.postMessage(new Uint8Array([1, 2, 3]))' },
      /^F\.md: the frontmatter parser thread sent an answer that cannot be read: /,
    ],
    [{ code: 42 as unknown as string }, /^F\.md: the frontmatter parser thread could not start: /],
  ];
  for (const [options, message] of cases) {
    const result = await parseOffThread('"a": 1\n', 'F.md', options);
    assert.ok(!result.ok, String(options.code));
    assert.equal(result.failure.reason, 'resource-limit');
    assert.match(result.failure.message, message);
  }
});

// The shipped artefact. A point whose first gate reads a 60 KiB frontmatter of
// quoted keys (a parse of about 0.4 s, off the main thread), whose second
// runs `sleep`, then a hundred more frontmatter gates and, last, one whose
// frontmatter is broken: as it fails, gsd-check reports it on stderr, unless
// a stop came first. It can only come once every parse before it is over.
function point(t: TestContext, mark: string, sleep: Record<string, unknown>): string {
  const dir = tempDir(t);
  let keys = '';
  for (let i = 0; keys.length < 60_000; i++) keys += `"key_${i}": "value"\n`;
  writeFileSync(join(dir, 'SECURITY.md'), `---\n${keys}threats_open: 0\n---\n`);
  writeFileSync(join(dir, 'BROKEN.md'), '---\nthreats_open: [0\n---\n');
  const gate = (predicate: Record<string, unknown>) => ({ point: 'ship:pre', check: { predicate }, blocking: true, onError: 'halt' });
  const frontmatter = (artifact: string) => gate({ kind: 'artifact-frontmatter-equals', artifact, field: 'threats_open', equals: 0 });
  const gates = [
    frontmatter('SECURITY.md'),
    gate({ kind: 'command-exit-zero', command: `sleep 30.${mark}`, ...sleep }),
    ...Array(100).fill(frontmatter('SECURITY.md')),
    frontmatter('BROKEN.md'),
  ];
  writeFileSync(join(dir, 'cap.json'), JSON.stringify({ id: 'c', gates }));
  return dir;
}

// Runs the point; `stderr()` is what gsd-check has written there so far.
function run(dir: string): { pending: Promise<CliResult>; child: () => ChildProcess; stderr: () => string } {
  let child: ChildProcess | undefined;
  let stderr = '';
  const pending = cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-dir', '.', '--concurrency', '2', '--raw'], {
    cwd: dir,
    onSpawn: (c) => {
      child = c;
      c.stderr!.on('data', (s: string) => (stderr += s));
    },
  });
  return { pending, child: () => child!, stderr: () => stderr };
}

const stopped = { status: 143, signal: null, stdout: '', stderr: 'gsd-check: stopped by SIGTERM; any command it started was ended\n' };

test('gates run: a stop signal while frontmatter parses ends gsd-check at once, before the gates after the parses', async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  const gsd = run(point(t, mark, {}));
  // The sleep starts once the first parse has.
  await until(() => running(`sleep 30.${mark}`).length === 1, 'the sleep runs');
  gsd.child().kill('SIGTERM');
  // Had the parses held the main thread, the stop would have waited for all
  // of them, and the broken frontmatter would have been reported first.
  assert.deepEqual(await gsd.pending, stopped);
  assert.deepEqual(survivors(mark), []);
});

test('gates run: a sibling gate times out on time while frontmatter parses', async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  const gsd = run(point(t, mark, { timeout: 1 }));
  await until(() => running(`sleep 30.${mark}`).length === 1, 'the sleep runs');
  await until(() => running(`sleep 30.${mark}`).length === 0, 'the sleep is ended by its 1 s timeout');
  // Its timer fired while parses were still to come: the last gate has not run.
  assert.equal(gsd.stderr(), '');
  gsd.child().kill('SIGTERM');
  assert.deepEqual(await gsd.pending, stopped);
  assert.deepEqual(survivors(mark), []);
});

test('the thread has a heap of its own of 256 MiB', async () => {
  const code = 'const w = require("node:worker_threads"); w.parentPort.postMessage(require("node:v8").serialize(w.resourceLimits))';
  const limits = (await parseOffThread('"a": 1\n', 'F.md', { code })) as unknown as { maxOldGenerationSizeMb: number };
  assert.equal(limits.maxOldGenerationSizeMb, 256);
});

// A thread that answers with a failure of its own: where it shows, the
// frontmatter went off the main thread.
const code =
  'require("node:worker_threads").parentPort.postMessage(require("node:v8").serialize({ ok: false, failure: { reason: "invalid-artifact", message: "OFF", issues: [] } }))';
const where = async (text: string, signal?: AbortSignal): Promise<string> => {
  const result = await readFields(text, 'F.md', { code: signal === undefined ? code : 'throw new Error("started")', signal });
  if (!result.ok) return result.failure.reason === 'stopped' ? 'stopped' : result.failure.message === 'OFF' ? 'off' : `FAIL ${result.failure.message}`;
  return result.value.mapping ? `in ${Object.keys(result.value.fields).length}` : 'in';
};

// Quoted keys, which only the YAML library reads, to exactly `bytes` bytes.
function quoted(bytes: number): string {
  let text = '';
  for (let i = 0; text.length + 12 < bytes; i++) text += `"k${String(i).padStart(4, '0')}": 1\n`;
  return text + `#${'-'.repeat(bytes - text.length - 2)}\n`;
}

test('up to 8 KiB the library parses on the main thread; past it, in a thread', async () => {
  assert.equal(Buffer.byteLength(quoted(8192)), 8192);
  assert.equal(await where(quoted(8192)), 'in 744');
  assert.equal(await where(quoted(8193)), 'off');
  // Multi-byte text counts in bytes: 4,103 characters of it are 8,198 bytes.
  assert.equal(await where(`"k": "${'é'.repeat(4095)}"\n`), 'off');
});

test('plain key: value lines and frontmatter over the cap never start a thread', async () => {
  let plain = '';
  for (let i = 0; plain.length < 60_000; i++) plain += `k${i}: ${i}\n`;
  assert.match(await where(plain), /^in \d+$/);
  assert.equal(await where(`${quoted(64 * 1024)}x: 1\n`), 'FAIL F.md: the frontmatter is larger than 64 KiB');
});

test('a stop signal before a large parse: stopped, no thread', async () => {
  const stop = new AbortController();
  stop.abort('SIGTERM');
  assert.equal(await where(quoted(9000), stop.signal), 'stopped');
});
