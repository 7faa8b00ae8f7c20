// What `npm run release` refuses before it builds anything: an argument it
// does not know, and a signing key that is not there (a release meant to be
// signed must not come out unsigned). The release itself builds everything
// twice and runs as a release step (docs/maintainers/build-and-release.md);
// its parts are tested in test/release/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { ROOT, tempDir } from './helpers/support.ts';

const release = (args: string[]) => {
  const r = spawnSync(process.execPath, [join(ROOT, 'release.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return [r.status, r.stdout, r.stderr];
};

test('an unknown argument, or --sign with no key file: one line, exit 1, nothing built', { timeout: 60_000 }, (t) => {
  const missing = join(tempDir(t), 'release-key');
  assert.deepEqual(release(['--sign', missing]), [1, '', `release: --sign: ${missing}: no such key file\n`]);
  assert.deepEqual(release(['--sign']), [1, '', 'release: usage: node release.mjs [--sign <OpenSSH private key file>] (not --sign)\n']);
  assert.deepEqual(release(['--key', missing]), [1, '', `release: usage: node release.mjs [--sign <OpenSSH private key file>] (not --key ${missing})\n`]);
});
