// Installs the pinned Node builds of a folder of runtimes/ (its package.json
// and lockfile name them: node-<platform> packages of the npm registry) into
// its git-ignored node_modules/, with npm ci, so nothing but the registry (or
// npm's cache) is used and every tarball is checked against the lockfile's
// integrity. A folder already installed and verified is skipped.
//   node runtimes/install.mjs linux-x64 [linux-arm64] [linux-x64-lines]
// A folder is named <os>-<cpu>, the standalone binary's runtime (node24), or
// <os>-<cpu>-lines, the other Node lines CI tests on: so building a binary
// installs the one Node it needs. Then
// runtimes/<folder>/node_modules/node<major>/bin/node is that Node.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// ELF e_machine values, to tell a whole binary of the right architecture from
// a truncated or foreign one without running it (arm64 cannot run here).
const ELF_MACHINE = { x64: 0x3e, arm64: 0xb7 };

// Why the install of `dir` cannot be used as it is, or null when it can.
function problem(dir) {
  const locked = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')).packages;
  let installed;
  try {
    // npm writes this record of what it installed after a complete install.
    installed = JSON.parse(readFileSync(join(dir, 'node_modules', '.package-lock.json'), 'utf8')).packages;
  } catch {
    return 'not installed';
  }
  for (const [path, want] of Object.entries(locked)) {
    if (path === '') continue;
    const have = installed[path];
    if (have?.version !== want.version || have?.integrity !== want.integrity) return `${path} differs from the lockfile`;
    const node = join(dir, path, 'bin', 'node');
    let header = Buffer.alloc(20);
    try {
      if (!(statSync(node).mode & 0o100)) return `${node} is not executable`;
      const fd = openSync(node, 'r');
      try {
        readSync(fd, header, 0, 20, 0);
      } finally {
        closeSync(fd);
      }
    } catch {
      return `${node} is missing`;
    }
    if (header.readUInt32BE(0) !== 0x7f454c46 || header.readUInt16LE(18) !== ELF_MACHINE[want.cpu]) {
      return `${node} is not a ${want.cpu} ELF executable`;
    }
    if (want.cpu === process.arch) {
      const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim();
      if (version !== `v${want.version}`) return `${node} answers ${version || 'nothing'} to --version, not v${want.version}`;
    }
  }
  return null;
}

let failed = false;
for (const platform of process.argv.slice(2)) {
  const dir = join(here, platform);
  const [, os, cpu] = /^([a-z]+)-([a-z0-9]+)(?:-lines)?$/.exec(platform) ?? [];
  if (!ELF_MACHINE[cpu] || os !== 'linux' || !existsSync(join(dir, 'package-lock.json'))) {
    const known = readdirSync(here).filter((name) => existsSync(join(here, name, 'package-lock.json')));
    console.error(`runtimes: no pinned Node for ${platform}; known: ${known.join(', ')}`);
    failed = true;
    continue;
  }
  const before = problem(dir);
  if (before === null) {
    console.log(`runtimes: ${platform} present and verified`);
    continue;
  }
  console.log(`runtimes: ${platform}: ${before}; installing from the lockfile`);
  // --os/--cpu select the lockfile's optional packages of that platform, even
  // on another host; no bin links, as every package would link `node`.
  const npm = spawnSync('npm', ['ci', '--prefix', dir, `--os=${os}`, `--cpu=${cpu}`, '--ignore-scripts', '--no-bin-links', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
  });
  // An optional package that fails to install does not fail npm ci: check.
  const after = npm.status === 0 ? problem(dir) : `npm ci exited ${npm.status}`;
  if (after !== null) {
    console.error(`runtimes: ${platform}: ${after}`);
    failed = true;
  } else {
    console.log(`runtimes: ${platform} installed and verified`);
  }
}
process.exitCode = failed ? 1 : 0;
