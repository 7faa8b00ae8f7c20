// The packages an offline rebuild of a release needs: every npm tarball that
// `npm ci` installs from the lockfiles on the rebuild machine (linux-x64: the
// main lockfile's packages for that platform, and the pinned Nodes of
// runtimes/ that the binaries embed), as the registry serves them, so that a
// site with Node and no network can seed an empty npm cache with them
// (`npm cache add`) and run `npm ci --offline` (docs/how-to/install.md).
// npm finds a tarball in its cache by the lockfile's integrity, which it checks,
// once the lockfile names where the tarball comes from (`resolved`): an entry
// without it needs the registry's metadata, which no cache made from
// tarballs holds, so such an entry is refused here.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The lockfiles of a release's build, each with the platform its packages are
// installed for: the main one on the rebuild machine, the runtimes' for the
// platform whose Node they pin (runtimes/install.mjs installs them with
// --os and --cpu).
export const LOCKFILES = [
  { lockfile: 'package-lock.json', os: 'linux', cpu: 'x64' },
  { lockfile: 'runtimes/linux-x64/package-lock.json', os: 'linux', cpu: 'x64' },
  { lockfile: 'runtimes/linux-arm64/package-lock.json', os: 'linux', cpu: 'arm64' },
];

const fits = (field, value) => field === undefined || [field].flat().includes(value);

// The tarballs the lockfiles name for their platforms, once each: { name,
// version, resolved, integrity, file } with `file` npm pack's name for it.
export function neededPackages(root, lockfiles = LOCKFILES) {
  const byFile = new Map();
  for (const { lockfile, os, cpu } of lockfiles) {
    const { packages } = JSON.parse(readFileSync(join(root, lockfile), 'utf8'));
    for (const [path, entry] of Object.entries(packages)) {
      if (path === '' || entry.link || !fits(entry.os, os) || !fits(entry.cpu, cpu)) continue;
      const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      if (typeof entry.resolved !== 'string' || typeof entry.integrity !== 'string' || !entry.integrity.startsWith('sha512-')) {
        throw new Error(`${lockfile}: ${path} has no resolved URL or sha512 integrity; an offline npm ci cannot install it (see .npmrc)`);
      }
      const file = `${name.replace(/^@/, '').replace('/', '-')}-${entry.version}.tgz`;
      const seen = byFile.get(file);
      if (seen !== undefined && seen.integrity !== entry.integrity) throw new Error(`${lockfile}: ${file} is locked with two integrities`);
      byFile.set(file, { name, version: entry.version, resolved: entry.resolved, integrity: entry.integrity, file });
    }
  }
  return [...byFile.values()].sort((a, b) => (a.file < b.file ? -1 : 1));
}

// Writes each needed tarball into `dest` under its `file` name, from npm's
// cache when it holds it (else the registry), each checked against the
// lockfile's integrity.
export function collectPackages(needed, dest, npm) {
  const work = mkdtempSync(join(dest, '.pack-'));
  try {
    // By URL: npm pack of a URL needs no registry metadata, and writes the
    // tarball as it was served.
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work, ...needed.map((p) => p.resolved)]));
    for (const p of needed) {
      const written = packed.find((w) => w.name === p.name && w.version === p.version);
      if (written === undefined) throw new Error(`npm pack wrote no tarball for ${p.name}@${p.version}`);
      const from = join(work, written.filename);
      const integrity = `sha512-${createHash('sha512').update(readFileSync(from)).digest('base64')}`;
      if (integrity !== p.integrity) throw new Error(`${p.resolved} is not the tarball the lockfile pins (${integrity}, locked ${p.integrity})`);
      renameSync(from, join(dest, p.file));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// The environment of every npm command of an offline rebuild: npm's cache
// only, and a registry that refuses, so that a package the bundle lacks fails
// the install rather than coming from the network. npm settings handed down by
// `npm run` are dropped: they would point back at the machine's own cache.
export function offlineEnv(cache, env = process.env) {
  const kept = Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...kept, npm_config_cache: cache, npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/' };
}

// Seeds the empty npm cache of `env` with the tarballs in `dir`.
export function seedCache(dir, files, env) {
  execFileSync('npm', ['cache', 'add', ...files.map((f) => join(dir, f))], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
}
