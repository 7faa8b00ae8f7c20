import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { CI_VARIABLES, cacheDirectory, cacheFile, cacheOff, maxCacheData, pruneCaches, readCache, writeCache } from '../src/code-cache.ts';
import { ROOT, tempDir } from './helpers/support.ts';

const uid = process.getuid!();
const SOURCE = Buffer.from('#!/usr/bin/env node\nthe program\n');
const PATH = '/opt/project/gsd-check';

test('the cache directory is <XDG_CACHE_HOME or HOME/.cache>/gsd-check, made private', (t) => {
  const home = tempDir(t);
  const dir = cacheDirectory({ HOME: home }, uid);
  assert.equal(dir, join(home, '.cache', 'gsd-check'));
  assert.equal(statSync(dir!).mode & 0o777, 0o700);
  const xdg = join(home, 'xdg');
  assert.equal(cacheDirectory({ HOME: home, XDG_CACHE_HOME: xdg }, uid), join(xdg, 'gsd-check'));
  // A relative XDG_CACHE_HOME is ignored, as the XDG rules say.
  assert.equal(cacheDirectory({ HOME: home, XDG_CACHE_HOME: 'rel' }, uid), dir);
});

test('no cache without a home, an owner to check, or when Node is told not to cache', (t) => {
  const home = tempDir(t);
  assert.equal(cacheDirectory({}, uid), undefined);
  assert.equal(cacheDirectory({ HOME: '/' }, uid), undefined);
  assert.equal(cacheDirectory({ HOME: 'relative' }, uid), undefined);
  assert.equal(cacheDirectory({ HOME: home }, undefined), undefined);
  assert.equal(cacheDirectory({ HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' }, uid), undefined);
  assert.equal(existsSync(join(home, '.cache')), false);
});

test('a directory that someone else could write is refused', (t) => {
  const home = tempDir(t);
  const dir = join(home, '.cache', 'gsd-check');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o770);
  assert.equal(cacheDirectory({ HOME: home }, uid), undefined, 'group-writable cache directory');
  chmodSync(dir, 0o700);
  chmodSync(join(home, '.cache'), 0o777);
  assert.equal(cacheDirectory({ HOME: home }, uid), undefined, 'world-writable parent without the sticky bit');
  chmodSync(join(home, '.cache'), 0o1777);
  assert.equal(cacheDirectory({ HOME: home }, uid), dir, 'sticky like /tmp: others cannot rename what is ours');
  chmodSync(join(home, '.cache'), 0o700);
  assert.equal(cacheDirectory({ HOME: home }, uid + 1), undefined, 'owned by another user');
});

test('a cache directory owned by another user is refused (as root: chown)', (t) => {
  if (uid !== 0) return t.skip('needs root to give a directory away');
  const home = tempDir(t);
  const dir = join(home, '.cache', 'gsd-check');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chownSync(dir, 65534, 65534);
  assert.equal(cacheDirectory({ HOME: home }, 0), undefined);
  chownSync(join(home, '.cache'), 65534, 65534);
  chownSync(dir, 0, 0);
  assert.equal(cacheDirectory({ HOME: home }, 0), undefined, 'a parent owned by another user');
});

test('a symlinked cache home is judged where it leads', (t) => {
  const home = tempDir(t);
  const real = join(home, 'real');
  mkdirSync(real, { mode: 0o700 });
  symlinkSync(real, join(home, 'link'));
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: join(home, 'link') }, uid), join(real, 'gsd-check'));
  chmodSync(real, 0o777);
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: join(home, 'link') }, uid), undefined);
});

test('one file per Node, architecture, command and copy (its path)', () => {
  const name = (node: string, arch: string, command: string | undefined, path: string) => cacheFile('/c', node, arch, command, path);
  const file = name('v24.22.3', 'x64', 'check', PATH);
  assert.match(file, /^\/c\/code-v24\.22\.3-x64-check-[0-9a-f]{8}\.bin$/);
  const key = file.slice(-12);
  assert.equal(name('v24.22.3', 'x64', 'gates', PATH), `/c/code-v24.22.3-x64-gates-${key}`);
  assert.equal(name('v24.22.3', 'x64', 'validate', PATH), `/c/code-v24.22.3-x64-validate-${key}`);
  assert.equal(name('v20.20.2', 'arm64', '--version', PATH), `/c/code-v20.20.2-arm64-other-${key}`);
  assert.equal(name('v20.20.2', 'arm64', undefined, PATH), `/c/code-v20.20.2-arm64-other-${key}`);
  const others = ['/opt/project/gsd-checl', '/opt/other/gsd-check', '/opt/project/gsd-check2', '', 'x'].map((path) => name('v24.22.3', 'x64', 'check', path));
  assert.equal(new Set([file, ...others]).size, 6, 'another copy, another file');
});

test('writing a cache removes the caches not written for a month, and nothing else', (t) => {
  const dir = tempDir(t);
  const old = Date.now() / 1000 - 31 * 24 * 3600;
  for (const name of ['code-v22.0.0-x64-check-0.bin', 'code-v24.22.3-x64-check-1.bin', 'keep.bin', 'code-new.bin', 'code-kept.bin'])
    writeFileSync(join(dir, name), '');
  for (const name of ['code-v22.0.0-x64-check-0.bin', 'code-v24.22.3-x64-check-1.bin', 'keep.bin', 'code-kept.bin']) utimesSync(join(dir, name), old, old);
  pruneCaches(dir, join(dir, 'code-kept.bin'), Date.now());
  assert.deepEqual(readdirSync(dir).sort(), ['code-kept.bin', 'code-new.bin', 'keep.bin']);
  pruneCaches(join(dir, 'missing'), '', Date.now());
});

test('a cache is read back only for the bytes and the path that wrote it, and only whole', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'c.bin');
  assert.equal(readCache(file, PATH, SOURCE), undefined, 'missing');
  const cache = Buffer.from([1, 2, 3, 4, 5]);
  writeCache(file, PATH, SOURCE, cache, 42);
  assert.deepEqual(readCache(file, PATH, SOURCE), cache);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir), ['c.bin'], 'no temporary file left');

  const edited = Buffer.from(SOURCE);
  edited[22] = 'X'.charCodeAt(0);
  assert.equal(readCache(file, PATH, edited), undefined, 'the same length, other bytes');
  assert.equal(readCache(file, '/opt/other/gsd-check', SOURCE), undefined, 'another copy');
  assert.equal(readCache(file, PATH, Buffer.concat([SOURCE, Buffer.from(' ')])), undefined, 'a longer program');

  const good = readFileSync(file);
  for (let at = 0; at < good.length; at++) {
    const bad = Buffer.from(good);
    bad[at] = bad[at]! ^ 0x01;
    writeFileSync(file, bad);
    assert.equal(readCache(file, PATH, SOURCE), undefined, `byte ${at} flipped`);
  }
  for (const bad of [good.subarray(0, good.length - 1), Buffer.concat([good, Buffer.from([5])]), good.subarray(0, good.indexOf(10) + 1)]) {
    writeFileSync(file, bad);
    assert.equal(readCache(file, PATH, SOURCE), undefined, 'cut or grown');
  }
});

test('a cache that cannot be written is no error and leaves nothing behind', (t) => {
  const dir = tempDir(t);
  writeCache(join(dir, 'missing', 'c.bin'), PATH, SOURCE, Buffer.from([1]), 42);
  // A leftover temporary file of the same pid (flag wx) is not overwritten.
  writeFileSync(join(dir, 'c.bin.42.tmp'), 'other');
  writeCache(join(dir, 'c.bin'), PATH, SOURCE, Buffer.from([1]), 42);
  assert.deepEqual(readdirSync(dir).sort(), [], 'the leftover is removed, nothing written');
});

test('writing a cache never throws, not even when its leftover cannot be removed', (t) => {
  const dir = tempDir(t);
  // A directory where the temporary file goes: the write fails, and so does
  // removing it (rmSync without recursive).
  mkdirSync(join(dir, 'c.bin.42.tmp'));
  assert.doesNotThrow(() => writeCache(join(dir, 'c.bin'), PATH, SOURCE, Buffer.from([1]), 42));
  assert.deepEqual(readdirSync(dir), ['c.bin.42.tmp']);
});

test('only write bits for group and others make a directory shared: 0711 is private', (t) => {
  const home = tempDir(t);
  const dir = join(home, '.cache', 'gsd-check');
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o711);
  assert.equal(cacheDirectory({ HOME: home }, uid), dir);
});

test('directories above owned by root are trusted, as by the user', (t) => {
  // As root, the cache is given to another user, so that root's ownership of
  // /tmp is the case judged; otherwise the user's own /tmp ancestry is.
  const user = uid === 0 ? 65534 : uid;
  const home = tempDir(t);
  const dir = join(home, '.cache', 'gsd-check');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (uid === 0) for (const path of [home, join(home, '.cache'), dir]) chownSync(path, user, user);
  assert.equal(statSync('/').uid, 0, 'the root directory belongs to root here');
  assert.equal(cacheDirectory({ HOME: home }, user), dir);
});

test('every directory up to / is judged, not only the nearest', (t) => {
  const home = tempDir(t);
  const dir = join(home, '.cache', 'gsd-check');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o777);
  assert.equal(cacheDirectory({ HOME: home }, uid), undefined, 'a world-writable grandparent without the sticky bit');
});

test('a cache is old after exactly 30 days: kept at 30 days, removed a millisecond later', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'code-old.bin');
  writeFileSync(file, '');
  const written = statSync(file).mtimeMs;
  const month = 30 * 24 * 3600 * 1000;
  pruneCaches(dir, '', written + month);
  assert.deepEqual(readdirSync(dir), ['code-old.bin']);
  pruneCaches(dir, '', written + month + 1);
  assert.deepEqual(readdirSync(dir), []);
});

test('a stale cache that cannot be removed does not keep the others', (t) => {
  const dir = tempDir(t);
  const old = Date.now() / 1000 - 31 * 24 * 3600;
  // Directories by a cache's name: rmSync refuses them, as it would a file
  // another start removed first. Eight of each, since the order a directory
  // lists its entries in is the file system's.
  const blocked = Array.from({ length: 8 }, (_, i) => `code-dir${i}.bin`);
  const stale = Array.from({ length: 8 }, (_, i) => `code-file${i}.bin`);
  for (const name of blocked) mkdirSync(join(dir, name));
  for (const name of stale) writeFileSync(join(dir, name), '');
  for (const name of [...blocked, ...stale]) utimesSync(join(dir, name), old, old);
  pruneCaches(dir, '', Date.now());
  assert.deepEqual(readdirSync(dir).sort(), blocked);
});

test('under CI (any non-empty value) or with NODE_DISABLE_COMPILE_CACHE, no cache: nothing is made', (t) => {
  for (const value of ['true', '1', 'false', '0', 'yes']) {
    const home = tempDir(t);
    assert.equal(cacheOff({ CI: value }), 'CI');
    assert.equal(cacheDirectory({ HOME: home, CI: value }, uid), undefined, `CI=${value}`);
    assert.deepEqual(readdirSync(home), []);
  }
  assert.equal(cacheOff({ NODE_DISABLE_COMPILE_CACHE: '1', CI: 'true' }), 'NODE_DISABLE_COMPILE_CACHE');
  assert.equal(cacheOff({ CI: '' }), undefined, 'set but empty: as unset');
  assert.equal(cacheOff({}), undefined);
  const home = tempDir(t);
  assert.equal(cacheDirectory({ HOME: home, CI: '' }, uid), join(home, '.cache', 'gsd-check'));
});

test('each CI service that sets a variable of its own and not CI turns the cache off by it alone: Azure Pipelines, Jenkins, TeamCity, AWS CodeBuild and the rest of the list', (t) => {
  const names = Object.keys(CI_VARIABLES);
  for (const name of ['TF_BUILD', 'JENKINS_URL', 'BUILD_ID', 'TEAMCITY_VERSION', 'BUILDKITE', 'CODEBUILD_BUILD_ARN', 'bamboo_planKey', 'GO_PIPELINE_LABEL'])
    assert.ok(names.includes(name), name);
  for (const name of names) {
    const home = tempDir(t);
    assert.equal(cacheOff({ [name]: 'True' }), name);
    assert.equal(cacheDirectory({ HOME: home, [name]: 'True' }, uid), undefined, name);
    assert.deepEqual(readdirSync(home), [], name);
    assert.equal(cacheOff({ [name]: '' }), undefined, `${name} set but empty: as unset`);
  }
});

test('docs/explanation/security.md names every variable that turns the cache off, with its services', () => {
  const page = readFileSync(join(ROOT, 'docs', 'explanation', 'security.md'), 'utf8');
  const table = [...page.matchAll(/^ *\| `(\w+)` \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!] as const);
  assert.deepEqual(Object.fromEntries(table), CI_VARIABLES);
});

test("under GitHub Actions too there is no cache: a job's folders are filled from artifacts and archives this run did not write", (t) => {
  const home = tempDir(t);
  const job = tempDir(t);
  const github = { HOME: home, CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_TEMP: job };
  assert.equal(cacheOff(github), 'CI');
  assert.equal(cacheDirectory(github, uid), undefined);
  assert.deepEqual([readdirSync(home), readdirSync(job)], [[], []]);
  // Outside CI, RUNNER_TEMP changes nothing.
  assert.equal(cacheDirectory({ ...github, CI: undefined }, uid), join(home, '.cache', 'gsd-check'));
});

test('a cache home directly in a directory others may write, sticky or not, is refused: anyone could have claimed the name first', (t) => {
  const shared = tempDir(t);
  for (const mode of [0o1777, 0o777, 0o1770, 0o775]) {
    chmodSync(shared, mode);
    const base = join(shared, 'cache');
    mkdirSync(base, { recursive: true, mode: 0o700 });
    assert.equal(cacheDirectory({ XDG_CACHE_HOME: base }, uid), undefined, mode.toString(8));
    assert.equal(cacheDirectory({ HOME: shared }, uid), undefined, `HOME in ${mode.toString(8)}`);
  }
  chmodSync(shared, 0o755);
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: join(shared, 'cache') }, uid), join(shared, 'cache', 'gsd-check'));
});

test("another user's symbolic link on the path as written is refused, wherever it leads; this user's or root's is followed (as root: lchown)", (t) => {
  if (uid !== 0) return t.skip('needs root to give a link away');
  const dir = tempDir(t);
  const real = join(dir, 'real');
  mkdirSync(real, { mode: 0o700 });
  // A sticky shared directory where another user got to plant a link first.
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  const planted = join(shared, 'victim');
  symlinkSync(real, planted);
  lchownSync(planted, 65534, 65534);
  assert.equal(cacheDirectory({ HOME: planted }, 0), undefined);
  assert.equal(existsSync(join(real, '.cache')), false, 'nothing written through the link');
  lchownSync(planted, 0, 0);
  assert.equal(cacheDirectory({ HOME: planted }, 0), join(real, '.cache', 'gsd-check'));
  // Deeper on the path too: a link as the cache home, or as the cache directory itself.
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  symlinkSync(real, join(home, 'xdg'));
  lchownSync(join(home, 'xdg'), 65534, 65534);
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: join(home, 'xdg') }, 0), undefined);
});

test("nothing is made in a directory of another user or one others may write (root with another user's HOME)", (t) => {
  const home = tempDir(t);
  // Run "as" another user: home belongs to this one.
  assert.equal(cacheDirectory({ HOME: home }, uid + 1), undefined);
  assert.deepEqual(readdirSync(home), [], 'no .cache made');
  mkdirSync(join(home, '.cache'), { mode: 0o700 });
  assert.equal(cacheDirectory({ HOME: home }, uid + 1), undefined);
  assert.deepEqual(readdirSync(join(home, '.cache')), [], 'no gsd-check made');
  chmodSync(join(home, '.cache'), 0o777);
  assert.equal(cacheDirectory({ HOME: home }, uid), undefined);
  assert.deepEqual(readdirSync(join(home, '.cache')), [], 'none in a world-writable one either');
  chmodSync(join(home, '.cache'), 0o770);
  assert.equal(cacheDirectory({ HOME: home }, uid), undefined);
  assert.deepEqual(readdirSync(join(home, '.cache')), [], 'nor in a group-writable one');
  // Only the cache home and its gsd-check are made, never a deeper path.
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: join(home, 'a', 'b') }, uid), undefined);
  assert.equal(existsSync(join(home, 'a')), false);
});

// Node's recursive mkdir spins for ever there; the bound is the test's, for
// the old code's sake.
test('a cache home under /proc gives no cache, at once', { timeout: 60_000 }, () => {
  for (const env of [{ XDG_CACHE_HOME: '/proc/self' }, { XDG_CACHE_HOME: '/proc/self/fd' }, { HOME: '/proc' }, { HOME: '/proc/self' }]) {
    assert.equal(cacheDirectory(env, uid), undefined, JSON.stringify(env));
  }
});

// The most the docs promise a cache directory holds.
const MOST = Number(/the oldest beyond (\d+) files/.exec(readFileSync(join(ROOT, 'docs/explanation/security.md'), 'utf8'))?.[1]);

test('writing a cache removes every leftover temporary file, and keeps the newest, as many as security.md says', (t) => {
  const dir = tempDir(t);
  const now = Date.now() / 1000;
  const count = MOST + 5;
  // Ages in neither the names' order nor the order written: file i is
  // (i * 7) % count minutes old (7 and count have no common factor).
  const age = (i: number) => (i * 7) % count;
  const names = Array.from({ length: count }, (_, i) => `code-v24.22.3-x64-check-${String(i).padStart(16, '0')}.bin`);
  names.forEach((name, i) => {
    writeFileSync(join(dir, name), '');
    utimesSync(join(dir, name), now - age(i) * 60, now - age(i) * 60);
  });
  for (const name of ['code-a.bin.123.tmp', 'code-b.bin.9.tmp', 'other.tmp']) writeFileSync(join(dir, name), '');
  // The one being written is kept whatever its age: here the oldest of all.
  const oldest = names.findIndex((_, i) => age(i) === count - 1);
  pruneCaches(dir, join(dir, names[oldest]!), Date.now());
  const newest = names.filter((_, i) => age(i) < MOST - 1);
  assert.deepEqual(readdirSync(dir).sort(), [...newest, names[oldest]!, 'other.tmp'].sort());
});

test('a cache file with no cache data in it is no cache; one byte of it is one', (t) => {
  const file = join(tempDir(t), 'c.bin');
  writeCache(file, PATH, SOURCE, Buffer.alloc(0), 7);
  assert.equal(readCache(file, PATH, SOURCE), undefined);
  writeCache(file, PATH, SOURCE, Buffer.from([9]), 7);
  assert.deepEqual(readCache(file, PATH, SOURCE), Buffer.from([9]));
});

test('a home others may read and enter (0755) gets its .cache made, as most homes are', (t) => {
  const home = tempDir(t);
  chmodSync(home, 0o755);
  assert.equal(cacheDirectory({ HOME: home }, uid), join(home, '.cache', 'gsd-check'));
});

test('a symbolic link at the cache path is not followed: to /dev/zero, or even to a good cache', { timeout: 10_000 }, (t) => {
  const dir = tempDir(t);
  const good = join(dir, 'good.bin');
  writeCache(good, PATH, SOURCE, Buffer.from([1, 2, 3]), 42);
  assert.deepEqual(readCache(good, PATH, SOURCE), Buffer.from([1, 2, 3]));
  for (const [name, target] of [
    ['zero.bin', '/dev/zero'],
    ['link.bin', good],
  ] as const) {
    symlinkSync(target, join(dir, name));
    assert.equal(readCache(join(dir, name), PATH, SOURCE), undefined, name);
  }
  // Nor is a device itself a cache, nor a directory. (A FIFO: test/launch.test.ts,
  // where a start that waits for ever is a process to kill.)
  assert.equal(readCache('/dev/zero', PATH, SOURCE), undefined);
  assert.equal(readCache(dir, PATH, SOURCE), undefined);
});

test('a cache file is read only up to the size a cache of the program can have: four times the program', (t) => {
  // The bound security.md gives: V8's data is a small multiple of the source.
  assert.equal(maxCacheData(SOURCE), 4 * SOURCE.length);
  const file = join(tempDir(t), 'c.bin');
  const largest = Buffer.alloc(maxCacheData(SOURCE), 7);
  writeCache(file, PATH, SOURCE, largest, 42);
  assert.deepEqual(readCache(file, PATH, SOURCE), largest);
  const larger = Buffer.alloc(maxCacheData(SOURCE) + 1, 7);
  writeCache(file, PATH, SOURCE, larger, 42);
  assert.equal(readCache(file, PATH, SOURCE), undefined, 'whole, and one byte too large');
});
