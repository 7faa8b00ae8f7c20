// Builds dist/gsd-check-<platform>-<arch>, one executable that needs no Node:
// Node's own single-executable-application support, offline. The blob comes
// from the Node running this script and is injected by postject (an npm
// package) into a copy of that same Node. Nothing is downloaded, unlike pkg
// and @yao-pkg/pkg, which fetch a Node base binary at build time.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'postject';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const main = resolve('dist/gsd-check');
const output = resolve(`dist/gsd-check-${process.platform}-${process.arch}`);

function refuse(reason) {
  console.error(`build:bin: ${reason}`);
  process.exitCode = 1;
}

async function build() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  // useCodeCache arrived in 20.6.
  if (major < 20 || (major === 20 && minor < 6)) return refuse(`Node ${process.version} cannot build it; use Node 20.6 or later`);
  // macOS and Windows need signing steps (codesign, signtool) not written here.
  if (process.platform !== 'linux') return refuse(`building on ${process.platform} is not supported yet; build on Linux for Linux`);
  if (!existsSync(main)) return refuse('dist/gsd-check is missing; run npm run build first');
  if (!readFileSync(process.execPath).includes(FUSE)) {
    return refuse(`${process.execPath} has no single-executable fuse (a Node built without SEA support); use an official Node build`);
  }

  const work = mkdtempSync(join(tmpdir(), 'gsd-check-sea-'));
  try {
    const blob = join(work, 'sea.blob');
    writeFileSync(
      join(work, 'sea-config.json'),
      JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }),
    );
    execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'inherit', timeout: 120_000 });
    copyFileSync(process.execPath, output);
    chmodSync(output, 0o755);
    await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  // Prove it runs with no Node to be found.
  const version = execFileSync(output, ['--version'], { env: { PATH: '' }, encoding: 'utf8', timeout: 30_000 }).trim();
  if (!version.includes('standalone build')) return refuse(`the built file answered --version with "${version}"`);
  console.log(`${output}: ${version}`);
}

await build();
