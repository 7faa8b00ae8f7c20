import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { tempDir } from '../helpers/support.ts';
import { bundleContentHash } from '../../src/gsd/bundle-hash.ts';

// The hash GSD binds a project capability's consent to. The random folders
// of compat/test/bundle-hash.test.mjs hold it to GSD's own function; here, a
// value GSD 1.14's bundleContentHash gave for the same folder, and each rule.

function folder(t: Parameters<typeof tempDir>[0]): string {
  const dir = join(tempDir(t), 'tests');
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  writeFileSync(join(dir, 'capability.json'), '{"id":"tests"}\n');
  writeFileSync(join(dir, 'hooks', 'plan.md'), 'Run the tests.\n');
  writeFileSync(join(dir, 'empty'), '');
  return dir;
}

const GSD_SAID = 'sha512-Pw6AjMl6pP6L7phrjZiNriYPCa7nM0iqmTd2Mg8qsUhJNxjM925ad3LT2cmaqAGroKHFbCJ1c8ZsfbafN0K7bg==';

test("a folder's hash is the one GSD 1.14 gave for it", (t) => {
  assert.deepEqual(bundleContentHash(folder(t)), { ok: true, value: GSD_SAID });
});

test("Python's compiled files in __pycache__ are left out; its other files, and the caches' contents, are not", (t) => {
  const dir = folder(t);
  mkdirSync(join(dir, '__pycache__'));
  writeFileSync(join(dir, '__pycache__', 'x.pyc'), 'compiled');
  writeFileSync(join(dir, '__pycache__', 'y.pyo'), 'compiled');
  mkdirSync(join(dir, '.pytest_cache'));
  assert.deepEqual(bundleContentHash(dir), { ok: true, value: GSD_SAID }, 'compiled files or an empty cache directory changed the hash');
  writeFileSync(join(dir, 'z.pyc'), 'outside a cache');
  assert.notDeepEqual(bundleContentHash(dir), { ok: true, value: GSD_SAID });
  const other = folder(t);
  writeFileSync(join(other, '__pycache__'), '');
  assert.notDeepEqual(bundleContentHash(other), { ok: true, value: GSD_SAID }, 'a file named __pycache__ is a file');
});

test('a change of content, name or layout changes it', (t) => {
  for (const change of [
    (dir: string) => writeFileSync(join(dir, 'empty'), ' '),
    (dir: string) => writeFileSync(join(dir, 'Empty'), ''),
    (dir: string) => mkdirSync(join(dir, 'more')),
    (dir: string) => writeFileSync(join(dir, 'hooks', 'capability.json'), '{"id":"tests"}\n'),
  ]) {
    const dir = folder(t);
    change(dir);
    const hash = bundleContentHash(dir);
    assert.ok(hash.ok && hash.value !== GSD_SAID, String(change));
  }
});

test('a symbolic link, a FIFO or a folder that is not there: refused with why, as GSD refuses to hash them', (t) => {
  const linked = folder(t);
  symlinkSync('capability.json', join(linked, 'hooks', 'link'));
  assert.deepEqual(bundleContentHash(linked), { ok: false, failure: 'hooks/link is a symbolic link' });
  const piped = folder(t);
  execFileSync('mkfifo', [join(piped, 'pipe')]);
  assert.deepEqual(bundleContentHash(piped), { ok: false, failure: 'pipe is not a regular file' });
  assert.deepEqual(bundleContentHash(join(tempDir(t), 'none')), { ok: false, failure: 'cannot read the directory itself: ENOENT' });
});

test("GSD's caps: more entries than the limit, counted over every level, or more bytes, is refused; at the limit the hash is the same", (t) => {
  const dir = folder(t);
  // Three entries at the top, a fourth in hooks/; 30 bytes in all.
  const at = (entries: number, bytes: number) => bundleContentHash(dir, { entries, bytes });
  assert.deepEqual(at(4, 30), { ok: true, value: GSD_SAID });
  assert.deepEqual(at(3, 30), { ok: false, failure: 'it has more than 3 entries' });
  assert.deepEqual(at(0, 30), { ok: false, failure: 'it has more than 0 entries' });
  assert.deepEqual(at(4, 29), { ok: false, failure: 'it holds more than 29 bytes' });
});

test('every directory it opens is closed: hashed, refused past the cap mid-directory, or refused deeper', (t) => {
  const dir = folder(t);
  const open = () => readdirSync('/proc/self/fd').length;
  const before = open();
  for (let i = 0; i < 20; i++) {
    assert.equal(bundleContentHash(dir).ok, true);
    assert.equal(bundleContentHash(dir, { entries: 1, bytes: 30 }).ok, false);
    assert.equal(bundleContentHash(dir, { entries: 4, bytes: 1 }).ok, false);
  }
  assert.equal(open(), before);
});

test("GSD's own byte cap, 16 MiB over the whole folder: at it the folder is hashed, a byte past it refused", (t) => {
  const dir = join(tempDir(t), 'big');
  mkdirSync(dir);
  writeFileSync(join(dir, 'blob'), Buffer.alloc(16 * 1024 * 1024));
  assert.equal(bundleContentHash(dir).ok, true);
  writeFileSync(join(dir, 'one more'), 'x');
  assert.deepEqual(bundleContentHash(dir), { ok: false, failure: 'it holds more than 16777216 bytes' });
});
