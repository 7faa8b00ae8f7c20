// `npm run release [-- --sign <key>]`: what an air-gapped site is given, in
// out/release/ (git-ignored): the bundle, the standalone binaries, the npm
// tarball, the source of the commit, the packages its build installs (so it
// can be rebuilt with no network), a CycloneDX SBOM, the docs, and SHA256SUMS
// over all of them, signed with the OpenSSH key given (release/sums.mjs).
// Built from HEAD (not the working tree) twice: once in a clean copy (git
// archive, npm ci from npm's cache or the registry), and once as a site would
// rebuild it, from the released source archive and packages alone with npm
// offline and an empty cache of its own. Refused unless both builds are the
// same bytes and the bundle is the committed dist/gsd-check: so a site can
// rebuild what it was given from what it was given, and compare.
//   node release.mjs [--sign <OpenSSH private key file>]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { sourceId } from './build-id.mjs';
import { releaseDocs } from './release/docs.mjs';
import { collectPackages, neededPackages, offlineEnv, seedCache } from './release/packages.mjs';
import { writeSums } from './release/sums.mjs';

const TARGETS = ['linux-x64', 'linux-arm64'];
const root = resolve('.');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const out = resolve('out', 'release');
const SOURCE = `${pkg.name}-${pkg.version}-source.tar.gz`;
const PACKAGES = `${pkg.name}-${pkg.version}-packages`;
// A reason to stop, said in one line; anything else thrown is a bug.
class Refusal extends Error {}

const run = (command, args, options = {}) => {
  console.log(`release: ${options.cwd ? `(${options.cwd}) ` : ''}${command} ${args.join(' ')}`);
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000, ...options });
};

// A name-based UUID (RFC 9562 version 5, URL namespace): the same release
// gets the same serial number.
function uuid5(name) {
  const namespace = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const h = createHash('sha1').update(namespace).update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

// npm sbom describes the project's installed tree; made repeatable (npm puts
// a random serial number, the time and the folder's name in it) and true of
// what ships: the packages the bundle holds are required, the build and test
// tools excluded, and the Node inside each binary listed.
function sbom(copy, npm, commit, committedAt, id) {
  const bom = JSON.parse(npm(['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application']));
  const bundled = new Set(JSON.parse(run(process.execPath, ['build.mjs', '--bundled'], { cwd: copy })));
  bom.serialNumber = `urn:uuid:${uuid5(`gsd-check ${pkg.version} ${id}`)}`;
  bom.metadata.timestamp = committedAt;
  Object.assign(bom.metadata.component, {
    name: pkg.name,
    properties: [
      { name: 'gsd-check:source-id', value: id },
      { name: 'gsd-check:git-commit', value: commit },
    ],
  });
  for (const c of bom.components) c.scope = bundled.has(c.name) ? 'required' : 'excluded';
  for (const name of bundled) {
    if (!bom.components.some((c) => c.name === name)) throw new Refusal(`the bundle holds ${name}, which npm sbom does not list`);
  }
  for (const target of TARGETS) {
    const lock = JSON.parse(readFileSync(join(copy, 'runtimes', target, 'package-lock.json'), 'utf8')).packages['node_modules/node24'];
    bom.components.push({
      'bom-ref': `${lock.name}@${lock.version}`,
      type: 'platform',
      name: lock.name,
      version: lock.version,
      scope: 'required',
      description: `the Node.js runtime inside gsd-check-${target}`,
      purl: `pkg:npm/${lock.name}@${lock.version}`,
      hashes: [{ alg: 'SHA-512', content: Buffer.from(lock.integrity.replace(/^sha512-/, ''), 'base64').toString('hex') }],
      licenses: [{ license: { id: lock.license } }],
    });
  }
  return `${JSON.stringify(bom, null, 2)}\n`;
}

// One build in the source tree `copy`, with npm run in `env`: the folder of
// its artefacts (the bundle, the binaries, the npm tarball, the SBOM), and
// its source id.
function build(copy, env, { commit, committedAt }) {
  const npm = (args) => run('npm', [...args, '--no-audit', '--no-fund'], { cwd: copy, env });
  const committed = readFileSync(join(copy, 'dist', 'gsd-check'));
  npm(['ci']);
  run(process.execPath, ['build.mjs'], { cwd: copy, env });
  if (!readFileSync(join(copy, 'dist', 'gsd-check')).equals(committed)) {
    throw new Refusal('the committed dist/gsd-check is not the build of this commit: run npm run build and commit dist/');
  }
  run(process.execPath, ['build-bin.mjs', '--all'], { cwd: copy, env });

  const files = join(dirname(copy), 'files');
  mkdirSync(files);
  copyFileSync(join(copy, 'dist', 'gsd-check'), join(files, 'gsd-check'));
  for (const target of TARGETS) copyFileSync(join(copy, 'out', `gsd-check-${target}`), join(files, `gsd-check-${target}`));
  npm(['pack', '--pack-destination', files]);
  const id = sourceId(copy);
  writeFileSync(join(files, `${pkg.name}-${pkg.version}.cdx.json`), sbom(copy, npm, commit, committedAt, id));
  return { files, id };
}

// The first build: a clean copy of HEAD, npm as the machine has it set up;
// the pinned Nodes, verified in this checkout, are not installed again.
function buildClean(work, commit) {
  const copy = join(work, 'gsd-check');
  mkdirSync(copy);
  run('sh', ['-c', `git archive --format=tar HEAD | tar -x -C '${copy}'`]);
  for (const target of TARGETS) symlinkSync(join(root, 'runtimes', target, 'node_modules'), join(copy, 'runtimes', target, 'node_modules'));
  const npmEnv = { ...process.env, npm_config_prefer_offline: 'true' };
  return { copy, ...build(copy, npmEnv, commit) };
}

// The packages the build installs, from the first build's lockfiles, as one
// tar of npm's tarballs, the same bytes for the same commit.
function packPackages(copy, work, dest, { epoch }) {
  const dir = join(work, PACKAGES);
  mkdirSync(dir);
  const needed = neededPackages(copy);
  collectPackages(needed, dir, (args) => run('npm', [...args, '--prefer-offline'], { cwd: copy }));
  const tarball = join(dest, `${PACKAGES}.tar`);
  run('tar', ['--sort=name', '--format=ustar', `--mtime=@${epoch}`, '--owner=0', '--group=0', '--numeric-owner', '--mode=u+rwX,go=rX', '-cf', tarball, '-C', work, PACKAGES]);
  return needed;
}

// The second build, as docs/how-to/install.md tells a site to rebuild: the
// released source archive and packages unpacked, an empty npm cache seeded
// with the packages, npm offline with a registry that refuses.
function buildOffline(work, released, needed, commit) {
  run('tar', ['-xzf', join(released, SOURCE), '-C', work]);
  run('tar', ['-xf', join(released, `${PACKAGES}.tar`), '-C', work]);
  const env = offlineEnv(join(work, 'npm-cache'));
  seedCache(join(work, PACKAGES), needed.map((p) => p.file), env);
  return build(join(work, `${pkg.name}-${pkg.version}`), env, commit);
}

function parseArgs(args) {
  if (args.length === 0) return { key: undefined };
  if (args.length === 2 && args[0] === '--sign') {
    const key = resolve(args[1]);
    if (!existsSync(key)) throw new Refusal(`--sign: ${args[1]}: no such key file`);
    if (spawnSync('ssh-keygen', ['-Y', 'sign'], { stdio: 'ignore' }).error) throw new Refusal('--sign: ssh-keygen not found (OpenSSH 8.1 or later signs)');
    return { key };
  }
  throw new Refusal(`usage: node release.mjs [--sign <OpenSSH private key file>] (not ${args.join(' ')})`);
}

function release() {
  const started = Date.now();
  const { key } = parseArgs(process.argv.slice(2));
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no']);
  if (dirty !== '') throw new Refusal(`uncommitted changes:\n${dirty}a release is built from a commit: commit or stash them`);
  const commit = run('git', ['rev-parse', 'HEAD']).trim();
  const committedAt = run('git', ['show', '-s', '--format=%cI', 'HEAD']).trim();
  const epoch = run('git', ['show', '-s', '--format=%ct', 'HEAD']).trim();
  const at = { commit, committedAt, epoch };
  run(process.execPath, ['runtimes/install.mjs', ...TARGETS], { stdio: 'inherit' });

  const works = [];
  const work = (n) => {
    const dir = mkdtempSync(join(tmpdir(), `gsd-check-release-${n}-`));
    works.push(dir);
    return dir;
  };
  try {
    const first = work(1);
    const clean = buildClean(first, at);
    // What only the first build makes: the source and the packages.
    const released = join(first, 'released');
    mkdirSync(released);
    run('git', ['archive', '--format=tar.gz', `--prefix=${pkg.name}-${pkg.version}/`, '-o', join(released, SOURCE), 'HEAD']);
    const needed = packPackages(clean.copy, first, released, at);
    const rebuilt = buildOffline(work(2), released, needed, at);

    const [a, b] = [clean, rebuilt].map(({ files }) => readdirSync(files).sort());
    const differ = [...new Set([...a, ...b])].filter(
      (name) => !a.includes(name) || !b.includes(name) || !readFileSync(join(clean.files, name)).equals(readFileSync(join(rebuilt.files, name))),
    );
    if (differ.length > 0) throw new Refusal(`the offline rebuild of ${commit} from its source and packages differs in ${differ.join(', ')}`);

    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const name of a) copyFileSync(join(clean.files, name), join(out, name));
    for (const name of readdirSync(released)) copyFileSync(join(released, name), join(out, name));
    const docs = releaseDocs(clean.copy);
    for (const doc of docs) {
      mkdirSync(dirname(join(out, doc)), { recursive: true });
      copyFileSync(join(clean.copy, doc), join(out, doc));
    }
    const names = [...a, ...readdirSync(released), ...docs].sort();
    let signed;
    try {
      signed = writeSums(out, names, key);
    } catch (error) {
      rmSync(out, { recursive: true, force: true });
      throw new Refusal(`signing SHA256SUMS failed (${error.message.split('\n')[0]}): no release written`);
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`release: ${out}: gsd-check ${pkg.version} (source ${clean.id}), commit ${commit}, rebuilt alike offline from its source and ${needed.length} packages in ${seconds} s`);
    console.log(`release: ${signed.said}`);
    process.stdout.write(signed.sums);
  } finally {
    for (const dir of works) rmSync(dir, { recursive: true, force: true });
  }
}

try {
  release();
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(`release: ${error.message}`);
  process.exitCode = 1;
}
