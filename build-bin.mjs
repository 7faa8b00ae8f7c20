// Builds out/gsd-check-<platform>-<arch>, one executable that needs no Node:
// Node's own single-executable-application support, offline. The Node inside
// is the one pinned by runtimes/<platform>-<arch>/package-lock.json (installed
// by `node runtimes/install.mjs`), never the machine's, so one commit builds
// the same runtime anywhere. The blob comes from the pinned Node of this host
// and postject (an npm package) injects it into a copy of the target's.
// It installs the pinned Nodes it needs (runtimes/install.mjs): the host's,
// and the target's when another.
// The binaries go to out/ (git-ignored), not dist/: dist/ is what is
// committed and what a copy of the Action takes, and a binary is not.
//   node build-bin.mjs [--all | <target>…]   (default: this host's; --all: linux-x64 and linux-arm64)
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'postject';

// The LTS line the binaries carry: GSD 1.14 needs Node >= 24, and 26 adds
// 23 MB to every binary.
const RUNTIME = 'node24';
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const TARGETS = ['linux-x64', 'linux-arm64'];
const main = resolve('dist/gsd-check');
const OUT = resolve('out');
const host = `${process.platform}-${process.arch}`;

const runtime = (target) => resolve('runtimes', target, 'node_modules', RUNTIME, 'bin', 'node');
const pinnedVersion = (target) =>
  JSON.parse(readFileSync(resolve('runtimes', target, 'package-lock.json'), 'utf8')).packages[`node_modules/${RUNTIME}`]?.version;

function refuse(reason) {
  console.error(`build:bin: ${reason}`);
  process.exitCode = 1;
}

// postject's ELF writer (LIEF) gives every note it rewrites a section named
// for its type, .note.100 for each of the pinned Node's annobin build notes
// (NT_GNU_BUILD_ATTRIBUTE_OPEN) and .note for the blob's, and warns, through
// console.warn, once per name missing from the section-name table: those
// section headers go nameless. Nothing reads notes by section name (the
// loader and Node's lookup of the blob go through the program headers), and
// the built file's --version below proves it runs: that one warning, and only
// it, is dropped.
async function quietly(inject) {
  const warn = console.warn;
  console.warn = (...args) => {
    if (!(args.length === 1 && /^warning: Can't find string offset for section name '\.note(\.[0-9a-f]+)?'$/.test(args[0]))) warn(...args);
  };
  try {
    await inject();
  } finally {
    console.warn = warn;
  }
}

async function build(target) {
  const output = join(OUT, `gsd-check-${target}`);
  // macOS and Windows need signing steps (codesign, signtool) not written here.
  if (!TARGETS.includes(target)) return refuse(`no pinned Node for ${target}; targets: ${TARGETS.join(', ')} (or --all)`);
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
    // No V8 code cache: it holds hashes of V8's random per-process seed, so
    // two builds would differ and a site could not rebuild the bytes it was
    // given (a fixed --hash-seed makes it repeatable but the runtime then
    // rejects it); it is also valid only on the architecture that made it.
    // Relative names, from the work folder: the blob records the main's path.
    writeFileSync(
      join(work, 'sea-config.json'),
      JSON.stringify({ main: 'gsd-check.cjs', output: 'sea.blob', disableExperimentalSEAWarning: true, useCodeCache: false }),
    );
    execFileSync(runtime(host), ['--experimental-sea-config', 'sea-config.json'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
    mkdirSync(OUT, { recursive: true });
    copyFileSync(runtime(target), output);
    chmodSync(output, 0o755);
    await quietly(() => inject(output, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  if (target !== host)
    return console.log(`${output}: built for ${target} with Node v${pinnedVersion(target)} (run it there, or under qemu-user: test/against-qemu.mjs)`);
  // Prove it runs with no Node to be found.
  const [version] = execFileSync(output, ['--version'], { env: { PATH: '' }, encoding: 'utf8', timeout: 30_000 }).split('\n');
  if (!version.includes(`standalone build: Node v${pinnedVersion(target)}`)) return refuse(`the built file answered --version with "${version}"`);
  console.log(`${output}: ${version}`);
}

const args = process.argv.slice(2);
const targets = args.includes('--all') ? TARGETS : args.length > 0 ? args : [host];
if (process.platform !== 'linux') {
  refuse(`building on ${process.platform} is not supported yet; build on Linux`);
} else if (
  spawnSync(process.execPath, [resolve('runtimes/install.mjs'), ...new Set([host, ...targets.filter((t) => TARGETS.includes(t))])], { stdio: 'inherit' })
    .status !== 0
) {
  refuse('the pinned Nodes could not be installed (above)');
} else {
  for (const target of targets) await build(target);
}
