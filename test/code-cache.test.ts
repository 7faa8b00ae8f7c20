import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cacheDirectory, cacheFile, pruneCaches, readCache, writeCache } from '../src/code-cache.ts';
import { tempDir } from './support.ts';

const uid = process.getuid!();
const ID = 'a'.repeat(64);

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

test('one file per Node, architecture, command and program build', () => {
  assert.equal(cacheFile('/c', 'v24.22.3', 'x64', 'check', ID), `/c/code-v24.22.3-x64-check-${'a'.repeat(16)}.bin`);
  assert.equal(cacheFile('/c', 'v24.22.3', 'x64', 'gates', ID), `/c/code-v24.22.3-x64-gates-${'a'.repeat(16)}.bin`);
  assert.equal(cacheFile('/c', 'v24.22.3', 'x64', 'validate', 'b'.repeat(64)), `/c/code-v24.22.3-x64-validate-${'b'.repeat(16)}.bin`);
  assert.equal(cacheFile('/c', 'v20.20.2', 'arm64', '--version', ID), `/c/code-v20.20.2-arm64-other-${'a'.repeat(16)}.bin`);
  assert.equal(cacheFile('/c', 'v20.20.2', 'arm64', undefined, ID), `/c/code-v20.20.2-arm64-other-${'a'.repeat(16)}.bin`);
});

test('writing a cache removes the caches not written for a month, and nothing else', (t) => {
  const dir = tempDir(t);
  const old = Date.now() / 1000 - 31 * 24 * 3600;
  for (const name of ['code-v22.0.0-x64-check-0.bin', 'code-v24.22.3-x64-check-1.bin', 'keep.bin', 'code-new.bin', 'code-kept.bin']) writeFileSync(join(dir, name), '');
  for (const name of ['code-v22.0.0-x64-check-0.bin', 'code-v24.22.3-x64-check-1.bin', 'keep.bin', 'code-kept.bin']) utimesSync(join(dir, name), old, old);
  pruneCaches(dir, join(dir, 'code-kept.bin'), Date.now());
  assert.deepEqual(readdirSync(dir).sort(), ['code-kept.bin', 'code-new.bin', 'keep.bin']);
  pruneCaches(join(dir, 'missing'), '', Date.now());
});

test('a cache is read back only for the program that wrote it', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'c.bin');
  assert.equal(readCache(file, ID), undefined, 'missing');
  writeCache(file, ID, Buffer.from([1, 2, 3]), 42);
  assert.deepEqual(readCache(file, ID), Buffer.from([1, 2, 3]));
  assert.equal(readCache(file, 'b'.repeat(64)), undefined, 'another program');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir), ['c.bin'], 'no temporary file left');
  writeFileSync(file, `${ID}\n`);
  assert.equal(readCache(file, ID), undefined, 'a header and nothing else');
});

test('a cache that cannot be written is no error and leaves nothing behind', (t) => {
  const dir = tempDir(t);
  writeCache(join(dir, 'missing', 'c.bin'), ID, Buffer.from([1]), 42);
  // A leftover temporary file of the same pid (flag wx) is not overwritten.
  writeFileSync(join(dir, 'c.bin.42.tmp'), 'other');
  writeCache(join(dir, 'c.bin'), ID, Buffer.from([1]), 42);
  assert.deepEqual(readdirSync(dir).sort(), [], 'the leftover is removed, nothing written');
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
