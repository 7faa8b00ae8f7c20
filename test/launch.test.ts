// The artefact's code cache, spawned as a user would: written once into a
// private directory, used after, and only for the very bytes that run; never
// taken from a directory others can write, never under CI. And the launcher
// itself: it runs wherever the file is copied, and says so when it cannot.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from './helpers/bounded.ts';
import { Script } from 'node:vm';
import { CI_VARIABLES, cacheFile, maxCacheData, writeCache } from '../src/code-cache.ts';
import { embeddedProgram } from '../src/embedded-program.ts';
import { cli, DIST, ENV, predicate, ROOT, tempDir } from './helpers/support.ts';

const args = ['check', 'predicate', '--raw', '--pick', 'message', '--predicate', predicate({ command: 'exit 3' })];
const env = (home: string, extra: Record<string, string> = {}) => ({ PATH: ENV.PATH, HOME: home, ...extra });
// The copies below run on this Node, so that a cache this process makes is
// one that Node accepts.
const node = (argv: string[]): [string, string[]] => [process.execPath, argv];

// A copy of the bundled file in a directory of its own (the bundled file
// only: a standalone binary has no program text to edit or plant against).
function copy(t: TestContext, name = 'gsd-check'): string | undefined {
  if (process.env.GSD_CHECK_BIN !== undefined) {
    t.skip('copies the bundled file, not another build');
    return undefined;
  }
  const file = join(tempDir(t), name);
  copyFileSync(DIST, file);
  return file;
}

const cacheDir = (home: string) => join(home, '.cache', 'gsd-check');

test('the first run writes a private code cache; the next runs use it as it is', async (t) => {
  const home = tempDir(t);
  const first = await cli(args, { env: env(home) });
  assert.deepEqual([first.status, first.stdout, first.stderr], [0, 'command exited 3\n', '']);
  const dir = cacheDir(home);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const files = readdirSync(dir);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^code-v\d+\.\d+\.\d+-[a-z0-9]+-check-[0-9a-f]{8}\.bin$/);
  const file = join(dir, files[0]!);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const written = statSync(file);

  const second = await cli(args, { env: env(home) });
  assert.deepEqual([second.status, second.stdout, second.stderr], [0, 'command exited 3\n', '']);
  const after = statSync(file);
  assert.deepEqual([after.ino, after.mtimeMs], [written.ino, written.mtimeMs], 'an accepted cache is not rewritten');

  // Another command has a cache of its own.
  assert.equal((await cli(['--help'], { env: env(home) })).status, 0);
  assert.deepEqual(readdirSync(dir).sort(), [files[0]!, files[0]!.replace('-check-', '-other-')].sort());
});

test('a copy edited by hand (same length) runs as edited, not as the cache of the original', async (t) => {
  const bin = copy(t);
  if (bin === undefined) return;
  const home = tempDir(t);
  const run = () => cli(args, { env: env(home), wrap: (argv) => node(argv) }, bin);
  assert.equal((await run()).stdout, 'command exited 3\n');
  const text = readFileSync(bin, 'latin1');
  writeFileSync(bin, text.replaceAll('} exited ${', '} exiteD ${'), 'latin1');
  assert.equal(readFileSync(bin).length, text.length);
  const edited = await run();
  assert.deepEqual([edited.status, edited.stdout, edited.stderr], [0, 'command exiteD 3\n', '']);
  assert.equal((await run()).stdout, 'command exiteD 3\n', 'and its own cache, rewritten, after');
});

test('a cache with bytes flipped anywhere is not used, and is rewritten', async (t) => {
  const home = tempDir(t);
  assert.equal((await cli(args, { env: env(home) })).status, 0);
  const file = join(cacheDir(home), readdirSync(cacheDir(home))[0]!);
  const good = readFileSync(file);
  // In the header, in the program's bytes, in V8's data (both copies), at the end.
  for (const at of [3, good.indexOf(10) + 100, Math.floor(good.length * 0.6), Math.floor(good.length * 0.9), good.length - 1]) {
    const bad = Buffer.from(good);
    bad[at] = bad[at]! ^ 0xff;
    writeFileSync(file, bad);
    const run = await cli(args, { env: env(home) });
    assert.deepEqual([run.status, run.signal, run.stdout, run.stderr], [0, null, 'command exited 3\n', ''], `byte ${at}`);
    assert.ok(!readFileSync(file).equals(bad), `byte ${at}: rewritten`);
  }
  for (const bad of [good.subarray(0, good.length - 1), Buffer.concat([good, Buffer.from([0])]), Buffer.alloc(0)]) {
    writeFileSync(file, bad);
    assert.equal((await cli(args, { env: env(home) })).stdout, 'command exited 3\n');
    assert.ok(!readFileSync(file).equals(bad), 'cut or grown: rewritten');
  }
});

// V8 checks a cache only against the source's length: a cache compiled from
// another program of that length runs that program. The cache is code.
test('a planted cache runs its own code; under CI, by any of its variables, no cache is read or written', async (t) => {
  const bin = copy(t);
  if (bin === undefined) return;
  const home = tempDir(t);
  const text = embeddedProgram(readFileSync(bin, 'utf8'), 0)!;
  const evil = '(function () { process.stdout.write("planted\\n"); })'.padEnd(text.length);
  const planted = new Script(evil, { filename: bin }).createCachedData();
  mkdirSync(cacheDir(home), { recursive: true, mode: 0o700 });
  const file = cacheFile(cacheDir(home), process.version, process.arch, 'check', bin);
  const plant = () => writeCache(file, bin, readFileSync(bin), planted, 1);
  const run = (extra: Record<string, string> = {}) => cli(args, { env: env(home, extra), wrap: (argv) => node(argv) }, bin);

  plant();
  assert.equal((await run()).stdout, 'planted\n', 'the threat is real: this is what CI=… prevents');
  const under = [...['true', '1', 'false'].map((value) => ({ CI: value })), ...Object.keys(CI_VARIABLES).map((name) => ({ [name]: 'True' }))];
  for (const ci of under) {
    plant();
    const before = readFileSync(file);
    const result = await run(ci);
    assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'command exited 3\n', ''], JSON.stringify(ci));
    assert.ok(readFileSync(file).equals(before), 'not rewritten either');
  }
  const fresh = tempDir(t);
  assert.equal((await cli(args, { env: env(fresh, { CI: 'true' }) })).status, 0);
  assert.equal(existsSync(join(fresh, '.cache')), false, 'nothing made under CI');
});

test('in a GitHub Actions job no cache is read or written: a forged one unpacked in RUNNER_TEMP, or planted in the home, never runs', async (t) => {
  const bin = copy(t);
  if (bin === undefined) return;
  const home = tempDir(t);
  const job = tempDir(t);
  // Another program of the program's length, in a file whose header and bytes readCache would take.
  const text = embeddedProgram(readFileSync(bin, 'utf8'), 0)!;
  const forged = new Script('(function () { process.stdout.write("forged\\n"); })'.padEnd(text.length), { filename: bin }).createCachedData();
  for (const dir of [cacheDir(home), join(job, 'gsd-check-code-cache'), join(job, 'gsd-check')]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeCache(cacheFile(dir, process.version, process.arch, 'check', bin), bin, readFileSync(bin), forged, 1);
  }
  const listing = () => [readdirSync(cacheDir(home)), readdirSync(join(job, 'gsd-check-code-cache'))];
  const before = listing();
  for (let i = 0; i < 2; i++) {
    const result = await cli(args, { env: env(home, { CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_TEMP: job }), wrap: (argv) => node(argv) }, bin);
    assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'command exited 3\n', '']);
  }
  assert.deepEqual(listing(), before, 'nothing written either');
});

test('a cache V8 rejects (whole by our checks, not V8 data) is rewritten when the run ends', async (t) => {
  const bin = copy(t);
  if (bin === undefined) return;
  const home = tempDir(t);
  mkdirSync(cacheDir(home), { recursive: true, mode: 0o700 });
  const file = cacheFile(cacheDir(home), process.version, process.arch, 'check', bin);
  const junk = Buffer.alloc(4096, 0x5a);
  writeCache(file, bin, readFileSync(bin), junk, 1);
  const planted = readFileSync(file);
  const run = await cli(args, { env: env(home), wrap: (argv) => node(argv) }, bin);
  assert.deepEqual([run.status, run.stdout, run.stderr], [0, 'command exited 3\n', '']);
  assert.ok(!readFileSync(file).equals(planted), 'rewritten with V8 data of its own');
});

test('two copies of one build keep a cache each, with their own path', async (t) => {
  const a = copy(t);
  const b = copy(t);
  if (a === undefined || b === undefined) return;
  const home = tempDir(t);
  for (const bin of [a, b, a, b]) {
    const run = await cli(args, { env: env(home), wrap: (argv) => node(argv) }, bin);
    assert.equal(run.stdout, 'command exited 3\n');
  }
  const files = readdirSync(cacheDir(home));
  assert.equal(files.length, 2);
  const headers = files.map((name) => readFileSync(join(cacheDir(home), name), 'utf8').split('\n', 1)[0]!);
  const whose = headers.map((line) => [line.endsWith(` ${a}`), line.endsWith(` ${b}`)]);
  assert.deepEqual(whose.sort(), [
    [false, true],
    [true, false],
  ]);
});

test('a stack trace names the copy that runs, not the one whose cache was there first', async (t) => {
  const a = copy(t);
  const b = copy(t);
  if (a === undefined || b === undefined) return;
  const home = tempDir(t);
  assert.equal((await cli(args, { env: env(home), wrap: (argv) => node(argv) }, a)).status, 0);
  // A bug inside the program, as test/main.faults.test.ts injects one.
  const hook = join(tempDir(t), 'break-stringify.cjs');
  writeFileSync(hook, "JSON.stringify = () => { throw new TypeError('injected fault'); };\n");
  const envelope = ['check', 'predicate', '--predicate', predicate({ command: 'true' })];
  const run = await cli(envelope, { env: env(home), wrap: (argv) => [process.execPath, ['--require', hook, ...argv]] }, b);
  assert.equal(run.status, 70);
  assert.ok(run.stderr.includes(`${b}:`), run.stderr);
  assert.ok(!run.stderr.includes(a), run.stderr);
});

test('no cache where another user could write, or when Node caching is off', async (t) => {
  const shared = tempDir(t);
  mkdirSync(join(shared, '.cache'), { mode: 0o700 });
  chmodSync(join(shared, '.cache'), 0o777);
  const off = tempDir(t);
  for (const [home, extra] of [
    [shared, {}],
    [off, { NODE_DISABLE_COMPILE_CACHE: '1' }],
  ] as const) {
    const run = await cli(args, { env: env(home, extra) });
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, 'command exited 3\n', '']);
  }
  assert.equal(existsSync(join(shared, '.cache', 'gsd-check')), false, 'nothing made in a directory others can write');
  assert.deepEqual(readdirSync(off), []);
});

test("root with another user's HOME makes nothing there", async (t) => {
  if (process.getuid?.() !== 0) return t.skip('needs root');
  const home = tempDir(t);
  chownSync(home, 65534, 65534);
  const run = await cli(args, { env: env(home) });
  assert.deepEqual([run.status, run.stdout, run.stderr], [0, 'command exited 3\n', '']);
  assert.deepEqual(readdirSync(home), []);
});

// The old reader waited in open() on a FIFO for ever and read /dev/zero until
// memory ran out; under a 1.5 GB address-space limit that is a crash, not a
// verdict, so neither needs the test's bound to fail.
test('a FIFO, or a link to /dev/zero, at the cache path: a start without the cache, then a cache of its own', { timeout: 30_000 }, async (t) => {
  const home = tempDir(t);
  assert.equal((await cli(args, { env: env(home) })).status, 0);
  const [name] = readdirSync(cacheDir(home));
  const file = join(cacheDir(home), name!);
  const limited = (argv: string[]): [string, string[]] => ['sh', ['-c', 'ulimit -v 1572864 && exec "$@"', 'sh', ...argv]];
  for (const plant of [() => spawnSync('mkfifo', [file]).status === 0, () => (symlinkSync('/dev/zero', file), true)]) {
    rmSync(file);
    assert.ok(plant());
    const run = await cli(args, { env: env(home), wrap: limited });
    assert.deepEqual([run.status, run.signal, run.stdout, run.stderr], [0, null, 'command exited 3\n', '']);
    assert.ok(lstatSync(file).isFile(), 'replaced by a cache of its own when the run ended');
  }
});

test("the reader's size bound holds the caches a start writes twice over (gates run compiles the most)", async (t) => {
  if (process.env.GSD_CHECK_BIN !== undefined) return t.skip('measures the bundled file');
  const home = tempDir(t);
  const root = join(home, 'p');
  mkdirSync(join(root, '.planning/phases/04-ship'), { recursive: true });
  writeFileSync(join(root, '.planning/phases/04-ship/04-SECURITY.md'), '---\nthreats_open: 0\n---\n');
  const run = await cli(['gates', 'run', '--point', 'ship:pre', '--builtin', '--phase-number', '04'], { cwd: root, env: env(home) });
  assert.equal(run.status, 0, run.stderr);
  const source = readFileSync(DIST);
  const [name] = readdirSync(cacheDir(home));
  const data = (statSync(join(cacheDir(home), name!)).size - source.length) / 2;
  assert.ok(data * 2 <= maxCacheData(source), `${data} bytes of V8 data against a bound of ${maxCacheData(source)}`);
});

// Node's recursive mkdir spins for ever under /proc/self; the bound is the
// test's, for the old code's sake.
test('a cache home under /proc: no hang, no cache', { timeout: 120_000 }, async (t) => {
  const home = tempDir(t);
  for (const extra of [{ XDG_CACHE_HOME: '/proc/self' }, { HOME: '/proc' }, { XDG_CACHE_HOME: '/proc/self/fd' }]) {
    const run = await cli(['--version'], { env: { ...env(home), ...extra } });
    assert.deepEqual([run.status, run.stderr], [0, ''], JSON.stringify(extra));
  }
});

test('a copy inside a "type": "module" package runs', async (t) => {
  const bin = copy(t);
  if (bin === undefined) return;
  writeFileSync(join(bin, '..', 'package.json'), '{ "type": "module" }\n');
  const home = tempDir(t);
  for (let i = 0; i < 2; i++) {
    const run = await cli(args, { env: env(home), wrap: (argv) => node(argv) }, bin);
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, 'command exited 3\n', ''], `run ${i}`);
  }
  assert.equal(readdirSync(cacheDir(home)).length, 1, 'with its cache');
});

test('piped into node, or damaged: one line saying why, exit 2, no trace', async (t) => {
  if (process.env.GSD_CHECK_BIN !== undefined) return t.skip('pipes the bundled file');
  const piped = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['-', '--version'], { env: env(tempDir(t)), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdin.end(readFileSync(DIST));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
  assert.deepEqual(piped, {
    status: 2,
    stdout: '',
    stderr: "gsd-check: cannot run from [stdin]: the program is read from the end of gsd-check's own file; run that file (node path/to/gsd-check …)\n",
  });

  const bin = copy(t)!;
  const text = readFileSync(bin, 'utf8');
  // Its marker damaged: a copy cut before the comment's end cannot even be
  // parsed, which Node reports before any of gsd-check runs.
  const marker = text.lastIndexOf('/* gsd-check program\n');
  writeFileSync(bin, `${text.slice(0, marker)}/* gsd-check progrXm\n${text.slice(marker + '/* gsd-check program\n'.length)}`);
  const cut = await cli(['--version'], { env: env(tempDir(t)), wrap: (argv) => node(argv) }, bin);
  assert.deepEqual(
    [cut.status, cut.stdout, cut.stderr],
    [2, '', 'gsd-check: this copy of dist/gsd-check is damaged (the program at its end is missing or cut); reinstall it\n'],
  );
});

// build.mjs minifies the program but keeps the names at its top level: the
// stack trace of an internal error is what a bug report carries, and it must
// say which functions it passed through (a frame named `Fi` or `$t` says
// nothing). Every frame in the program names a function that src/ declares.
test('a forced internal error names, frame by frame, functions declared in src/', async (t) => {
  if (process.env.GSD_CHECK_BIN !== undefined) return t.skip('needs node to preload the fault into the bundle');
  const hook = join(tempDir(t), 'break-stringify.cjs');
  writeFileSync(hook, "JSON.stringify = () => { throw new TypeError('injected fault'); };\n");
  const result = await cli(
    ['check', 'predicate', '--predicate', predicate({ command: 'true' })],
    { env: env(tempDir(t)), wrap: (argv) => [process.execPath, ['--require', hook, ...argv]] },
    DIST,
  );
  assert.equal(result.status, 70, result.stderr);
  const names = [...result.stderr.matchAll(/^ {4}at (?:async )?([\w$.]+) \(.*gsd-check:\d+:\d+\)$/gm)].map((m) => m[1]!);
  assert.ok(names.includes('checkPredicate') && names.includes('main'), `the command's and main's frames: ${result.stderr}`);
  const source = sourceText(join(ROOT, 'src'));
  for (const name of names) {
    // A method's frame reads Class.method.
    const own = name.split('.').pop()!.replace(/\$/g, '\\$');
    assert.match(
      source,
      new RegExp(`(?:function\\*? |const |let |class |\\n  (?:async |static |private |get )*)${own}\\b`),
      `frame ${name} names no function of src/: ${result.stderr}`,
    );
  }
});

function sourceText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => (entry.isDirectory() ? sourceText(join(dir, entry.name)) : entry.name.endsWith('.ts') ? readFileSync(join(dir, entry.name), 'utf8') : ''))
    .join('\n');
}
