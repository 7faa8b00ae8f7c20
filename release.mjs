// `npm run release`: what an air-gapped site is given, in dist/release/
// (git-ignored): the bundle, the standalone binaries, the npm tarball, the
// source of the commit, a CycloneDX SBOM and SHA256SUMS over all of them.
// Built from HEAD (not the working tree) twice, each time in a clean copy of
// its own (git archive, npm ci from npm's cache), and refused unless both
// builds are the same bytes and the bundle is the committed dist/gsd-check:
// so a site can rebuild what it was given from the source and compare.
//   node release.mjs
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sourceId } from './build-id.mjs';

const TARGETS = ['linux-x64', 'linux-arm64'];
const root = resolve('.');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const out = resolve('dist', 'release');
// A reason to stop, said in one line; anything else thrown is a bug.
class Refusal extends Error {}
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

const run = (command, args, options = {}) => {
  console.log(`release: ${options.cwd ? `(${options.cwd}) ` : ''}${command} ${args.join(' ')}`);
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000, ...options });
};
const npm = (args, cwd) => run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd });

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
function sbom(copy, commit, committedAt, id) {
  const bom = JSON.parse(npm(['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application'], copy));
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

// One build in a clean copy of HEAD: the folder of its artefacts, and its source id.
function build(work, commit, committedAt) {
  const copy = join(work, 'gsd-check');
  mkdirSync(copy);
  run('sh', ['-c', `git archive --format=tar HEAD | tar -x -C '${copy}'`]);
  const committed = readFileSync(join(copy, 'dist', 'gsd-check'));
  npm(['ci'], copy);
  // The pinned Nodes, verified in this checkout, not fetched again.
  for (const target of TARGETS) symlinkSync(join(root, 'runtimes', target, 'node_modules'), join(copy, 'runtimes', target, 'node_modules'));
  run(process.execPath, ['build.mjs'], { cwd: copy });
  if (!readFileSync(join(copy, 'dist', 'gsd-check')).equals(committed)) {
    throw new Refusal('the committed dist/gsd-check is not the build of this commit: run npm run build and commit dist/');
  }
  run(process.execPath, ['build-bin.mjs', '--all'], { cwd: copy });

  const files = join(work, 'files');
  mkdirSync(files);
  copyFileSync(join(copy, 'dist', 'gsd-check'), join(files, 'gsd-check'));
  for (const target of TARGETS) copyFileSync(join(copy, 'dist', `gsd-check-${target}`), join(files, `gsd-check-${target}`));
  npm(['pack', '--pack-destination', files], copy);
  const id = sourceId(copy);
  writeFileSync(join(files, `${pkg.name}-${pkg.version}.cdx.json`), sbom(copy, commit, committedAt, id));
  run('git', ['archive', '--format=tar.gz', `--prefix=${pkg.name}-${pkg.version}/`, '-o', join(files, `${pkg.name}-${pkg.version}-source.tar.gz`), 'HEAD']);
  return { files, id };
}

function release() {
  const started = Date.now();
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no']);
  if (dirty !== '') throw new Refusal(`uncommitted changes:\n${dirty}a release is built from a commit: commit or stash them`);
  const commit = run('git', ['rev-parse', 'HEAD']).trim();
  const committedAt = run('git', ['show', '-s', '--format=%cI', 'HEAD']).trim();
  run(process.execPath, ['runtimes/install.mjs', ...TARGETS], { stdio: 'inherit' });

  const works = [];
  try {
    const builds = [];
    for (const n of [1, 2]) {
      const work = mkdtempSync(join(tmpdir(), `gsd-check-release-${n}-`));
      works.push(work);
      builds.push(build(work, commit, committedAt));
    }
    const [a, b] = builds.map(({ files }) => readdirSync(files).sort());
    const differ = [...new Set([...a, ...b])].filter(
      (name) => !a.includes(name) || !b.includes(name) || !readFileSync(join(builds[0].files, name)).equals(readFileSync(join(builds[1].files, name))),
    );
    if (differ.length > 0) throw new Refusal(`two builds of ${commit} differ in ${differ.join(', ')}: the build is not reproducible`);

    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const sums = a.map((name) => {
      copyFileSync(join(builds[0].files, name), join(out, name));
      return `${sha256(readFileSync(join(out, name)))}  ${name}\n`;
    });
    writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
    console.log(`release: ${out}: gsd-check ${pkg.version} (source ${builds[0].id}), commit ${commit}, built twice alike in ${Math.round((Date.now() - started) / 1000)} s`);
    process.stdout.write(sums.join(''));
  } finally {
    for (const work of works) rmSync(work, { recursive: true, force: true });
  }
}

try {
  release();
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(`release: ${error.message}`);
  process.exitCode = 1;
}
