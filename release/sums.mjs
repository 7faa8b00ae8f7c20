// SHA256SUMS of a release folder, and who vouches for it: signed with an
// OpenSSH key (`ssh-keygen -Y sign`, which every site has to verify with), or
// said to be unsigned in a file beside it, so that a folder without a
// signature cannot pass for a signed one by someone forgetting to look.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The signature's namespace: a signature made for anything else (a git
// commit, another project's release) does not verify as this one.
export const NAMESPACE = 'gsd-check-release';
export const UNSIGNED_NOTE = 'SHA256SUMS.unsigned';

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

// SHA256SUMS's text over `names` (paths inside dir, forward slashes), in
// sha256sum's own form, so that `sha256sum -c` reads it.
export const sumsText = (dir, names) => names.map((name) => `${sha256(readFileSync(join(dir, name)))}  ${name}\n`).join('');

// Writes dir/SHA256SUMS over `names` (paths inside dir, forward slashes), then
// dir/SHA256SUMS.sig with `key` (an OpenSSH private key file), or, without
// one, dir/SHA256SUMS.unsigned. Returns the sums' text and one line to print.
export function writeSums(dir, names, key) {
  const sums = sumsText(dir, names);
  writeFileSync(join(dir, 'SHA256SUMS'), sums);
  if (key === undefined) {
    writeFileSync(
      join(dir, UNSIGNED_NOTE),
      'SHA256SUMS is not signed: this release was made without a key (npm run release -- --sign <key>).\n' +
        'Its hashes prove that the files are the ones it lists, not who listed them:\n' +
        'get SHA256SUMS, or its own SHA-256, by a channel you trust.\n',
    );
    return { sums, said: `SHA256SUMS is unsigned (no --sign key given): ${UNSIGNED_NOTE} says so beside it` };
  }
  // ssh-keygen asks on the terminal for the key's passphrase, if it has one.
  execFileSync('ssh-keygen', ['-Y', 'sign', '-q', '-f', key, '-n', NAMESPACE, 'SHA256SUMS'], {
    cwd: dir,
    stdio: ['inherit', 'inherit', 'inherit'],
    timeout: 300_000,
  });
  // The signature checked against the key inside it (whether that key is
  // trusted is the site's question): what the signer's key is, to publish.
  const checked = execFileSync('ssh-keygen', ['-Y', 'check-novalidate', '-n', NAMESPACE, '-s', 'SHA256SUMS.sig'], {
    cwd: dir,
    input: sums,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit'],
    timeout: 60_000,
  });
  const signer = / with (\S+ key \S+)/.exec(checked)?.[1] ?? checked.trim();
  return { sums, said: `SHA256SUMS.sig: SHA256SUMS signed (namespace ${NAMESPACE}) with ${signer}` };
}
