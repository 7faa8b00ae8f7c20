// The runner's suites again, with /proc hidden from the code under test: a
// tmpfs over it in a mount namespace of their own, as on a machine with no
// /proc (macOS) or an empty one. The tests still see every process through a
// proc file system mounted elsewhere (GSD_CHECK_TEST_PROC), so a group that
// only looked dead is caught surviving.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '../helpers/bounded.ts';
import { tempDir } from '../helpers/support.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SUITES = ['runner.test.mjs', 'group.test.mjs'].map((name) => join(HERE, name));

test('the runner suites pass with /proc hidden (unshare -m, a tmpfs over /proc)', (t) => {
  const why =
    process.platform !== 'linux'
      ? 'not Linux'
      : process.getuid?.() !== 0
        ? 'not root: mounting needs it'
        : spawnSync('unshare', ['-m', 'true']).status !== 0
          ? 'unshare -m is missing or refused'
          : undefined;
  if (why !== undefined) {
    // Loud on purpose: this is the only test of the path macOS takes.
    process.stderr.write(`\n*** SKIPPED: the no-/proc runner suites did not run: ${why} ***\n\n`);
    return t.skip(`SKIPPED: ${why}`);
  }
  const real = join(tempDir(t), 'proc');
  mkdirSync(real);
  const script = 'mount -t proc proc "$1" && mount -t tmpfs tmpfs /proc && shift && exec "$@"';
  // Without NODE_TEST_CONTEXT, the inner runner reports as a runner of its own (TAP), not to ours.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', real, process.execPath, '--test', '--test-reporter=tap', ...SUITES], {
    env: { ...env, GSD_CHECK_TEST_PROC: real },
    encoding: 'utf8',
    timeout: 240_000,
  });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  // It ran the suites, not nothing.
  assert.match(run.stdout, /^# pass [1-9]/m);
  assert.match(run.stdout, /^# fail 0$/m);
});
