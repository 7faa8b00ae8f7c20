// Builds dist/gsd-check-<platform>-<arch>, one executable that needs no Node:
// Node's own single-executable-application support, offline. The Node inside
// is the one pinned by runtimes/<platform>-<arch>/package-lock.json (installed
// by `node runtimes/install.mjs`), never the machine's, so one commit builds
// the same runtime anywhere. The blob comes from the pinned Node of this host
// and postject (an npm package) injects it into a copy of the target's.
//   node build-bin.mjs [linux-x64] [linux-arm64]   (default: both)
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'postject';

// The LTS line the binaries carry: GSD 1.14 needs Node >= 24, and 26 adds
// 23 MB to every binary.
const RUNTIME = 'node24';
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const main = resolve('dist/gsd-check');
const host = `${process.platform}-${process.arch}`;

const runtime = (target) => resolve('runtimes', target, 'node_modules', RUNTIME, 'bin', 'node');
const pinnedVersion = (target) =>
  JSON.parse(readFileSync(resolve('runtimes', target, 'package-lock.json'), 'utf8')).packages[`node_modules/${RUNTIME}`]?.version;

function refuse(reason) {
  console.error(`build:bin: ${reason}`);
  process.exitCode = 1;
}

async function build(target) {
  const output = resolve(`dist/gsd-check-${target}`);
  // macOS and Windows need signing steps (codesign, signtool) not written here.
  if (!['linux-x64', 'linux-arm64'].includes(target)) return refuse(`no pinned Node for ${target}; targets: linux-x64, linux-arm64`);
  if (!existsSync(main)) return refuse('dist/gsd-check is missing; run npm run build first');
  for (const needed of [target, host]) {
    if (!existsSync(runtime(needed))) return refuse(`${runtime(needed)} is missing; run node runtimes/install.mjs ${needed}`);
  }
  // The blob's format belongs to one Node version: the host's Node must be the target's.
  if (pinnedVersion(target) !== pinnedVersion(host)) {
    return refuse(`runtimes pin ${RUNTIME} ${pinnedVersion(host)} for ${host} but ${pinnedVersion(target)} for ${target}`);
  }
  if (!readFileSync(runtime(target)).includes(FUSE)) return refuse(`${runtime(target)} has no single-executable fuse`);

  const work = mkdtempSync(join(tmpdir(), 'gsd-check-sea-'));
  try {
    const blob = join(work, 'sea.blob');
    // The program, from the comment at the end of dist/gsd-check, becomes a
    // function the launcher calls (src/launch.ts): a binary's own file is the
    // Node executable, not something to read the program back from.
    const launcher = readFileSync(main, 'utf8');
    const open = launcher.lastIndexOf('\n/* gsd-check program\n');
    if (open === -1 || !launcher.endsWith('\n*/\n')) return refuse('dist/gsd-check holds no program at its end; run npm run build');
    const program = launcher.slice(open + '\n/* gsd-check program\n'.length, -'\n*/\n'.length);
    const seaMain = join(work, 'gsd-check.cjs');
    writeFileSync(seaMain, `${launcher.slice(0, open)}\nfunction gsdCheckProgramText() { return ${JSON.stringify(program)}; }\n`);
    // V8's code cache is machine code's sibling: valid only on the
    // architecture that made it, so a cross build goes without.
    writeFileSync(
      join(work, 'sea-config.json'),
      JSON.stringify({ main: seaMain, output: blob, disableExperimentalSEAWarning: true, useCodeCache: target === host }),
    );
    execFileSync(runtime(host), ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'inherit', timeout: 120_000 });
    copyFileSync(runtime(target), output);
    chmodSync(output, 0o755);
    await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  if (target !== host) return console.log(`${output}: built for ${target} with Node v${pinnedVersion(target)} (run it there, or under qemu-user: test/against-qemu.mjs)`);
  // Prove it runs with no Node to be found.
  const version = execFileSync(output, ['--version'], { env: { PATH: '' }, encoding: 'utf8', timeout: 30_000 }).trim();
  if (!version.includes(`standalone build: Node v${pinnedVersion(target)}`)) return refuse(`the built file answered --version with "${version}"`);
  console.log(`${output}: ${version}`);
}

if (process.platform !== 'linux') {
  refuse(`building on ${process.platform} is not supported yet; build on Linux`);
} else {
  const targets = process.argv.slice(2);
  for (const target of targets.length > 0 ? targets : ['linux-x64', 'linux-arm64']) await build(target);
}
