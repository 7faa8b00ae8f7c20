// The artefact's code cache, spawned as a user would: written once into a
// private directory, used after, never taken from a directory others can write.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, predicate, tempDir } from './support.ts';

const args = ['check', 'predicate', '--raw', '--pick', 'message', '--predicate', predicate({ command: 'exit 3' })];
const env = (home: string, extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: home, ...extra });

test('the first run writes a private code cache; the next runs use it as it is', async (t) => {
  const home = tempDir(t);
  const first = await cli(args, { env: env(home) });
  assert.deepEqual([first.status, first.stdout, first.stderr], [0, 'command exited 3\n', '']);
  const dir = join(home, '.cache', 'gsd-check');
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const files = readdirSync(dir);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^code-v\d+\.\d+\.\d+-[a-z0-9]+-check-[0-9a-f]{16}\.bin$/);
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

test('a cache of another program or a damaged one is replaced, never trusted', async (t) => {
  const home = tempDir(t);
  assert.equal((await cli(args, { env: env(home) })).status, 0);
  const dir = join(home, '.cache', 'gsd-check');
  const file = join(dir, readdirSync(dir)[0]!);
  const good = readFileSync(file);
  const header = good.subarray(0, good.indexOf(10) + 1);
  for (const bad of [Buffer.concat([Buffer.from(`${'0'.repeat(64)}\n`), good.subarray(header.length)]), Buffer.concat([header, Buffer.alloc(5000, 7)])]) {
    writeFileSync(file, bad);
    const run = await cli(args, { env: env(home) });
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, 'command exited 3\n', '']);
    assert.deepEqual(readFileSync(file).subarray(0, header.length), header);
    assert.notDeepEqual(readFileSync(file), bad);
  }
});

test('no cache where another user could write, or when Node caching is off', async (t) => {
  const shared = tempDir(t);
  mkdirSync(join(shared, '.cache'), { mode: 0o700 });
  chmodSync(join(shared, '.cache'), 0o777);
  const off = tempDir(t);
  for (const [home, extra] of [[shared, {}], [off, { NODE_DISABLE_COMPILE_CACHE: '1' }]] as const) {
    const run = await cli(args, { env: env(home, extra) });
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, 'command exited 3\n', '']);
  }
  assert.deepEqual(readdirSync(join(shared, '.cache', 'gsd-check')), [], 'made, refused, left empty');
  assert.deepEqual(readdirSync(off), []);
});
