// `npm run release [-- --sign <key>] [--write-doc]`: what an air-gapped site
// is given, in out/release/ (git-ignored): the bundle, the standalone
// binaries, the npm tarball, the source of the commit, the packages its build
// installs (so it can be rebuilt with no network), a CycloneDX SBOM, the
// docs, and SHA256SUMS over all of them, signed with the OpenSSH key given
// (release/sums.mjs); then the tags v<version> and v<major> in this
// repository (release/tags.mjs), never pushed.
// Built from HEAD (not the working tree) twice: once in a clean copy (git
// archive, npm ci from npm's cache or the registry), and once as a site
// rebuilds it: docs/how-to/install.md's own rebuild steps, run as written on
// the folder (release/rebuild-steps.mjs), npm offline with a registry that
// refuses. Refused unless both builds are the same bytes, the page's check
// prints what the page says, and the bundle is the committed dist/gsd-check:
// so a site can rebuild what it was given from what it was given, by the
// steps it was given, and compare. Refused before anything is built when
// the version is tagged on another commit, CHANGELOG.md has no section for
// it or still has Unreleased entries (its build would name itself a build
// between releases: release/built-version.mjs), or its public surface is
// not recorded (release/surface.mjs).
// --write-doc: the figures it measured go into docs/how-to/install.md
// (release/figures.mjs), to commit after.
//   node release.mjs [--sign <OpenSSH private key file>] [--write-doc]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { sourceId } from './build-id.mjs';
import { BUILT, RELEASE_DIR, TARGETS, releaseNames } from './release/artefacts.mjs';
import { builtVersion } from './release/built-version.mjs';
import { changelogProblems, section } from './release/changelog.mjs';
import { releaseDocs } from './release/docs.mjs';
import { FIGURES_PAGE, figuresBlock, hasFigureMarkers, size, treeBytes, writeFigures } from './release/figures.mjs';
import { collectPackages, neededPackages, offlineEnv } from './release/packages.mjs';
import { REBUILD_PAGE, runRebuild } from './release/rebuild-steps.mjs';
import { writeSums, sumsText } from './release/sums.mjs';
import { releaseRefusal } from './release/surface.mjs';
import { tagConflict, tagRelease } from './release/tags.mjs';

const root = resolve('.');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const out = resolve(RELEASE_DIR);
const NAMES = releaseNames(pkg.name, pkg.version);
const SOURCE = NAMES.source;
const PACKAGES = NAMES.packages;
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

// A built tree's artefacts in a folder of their own, with the npm tarball
// and the SBOM made from the tree with npm run in `env`: { files, id }.
function gather(copy, env, { commit, committedAt }) {
  const npm = (args) => run('npm', [...args, '--no-audit', '--no-fund'], { cwd: copy, env });
  const files = join(dirname(copy), 'files');
  mkdirSync(files);
  for (const { name, path } of BUILT) copyFileSync(join(copy, path), join(files, name));
  npm(['pack', '--pack-destination', files]);
  const id = sourceId(copy);
  writeFileSync(join(files, NAMES.sbom), sbom(copy, npm, commit, committedAt, id));
  return { files, id };
}

// The first build: a clean copy of HEAD, npm as the machine has it set up;
// the pinned Nodes, verified in this checkout, are not installed again.
function buildClean(work, commit) {
  const copy = join(work, 'gsd-check');
  mkdirSync(copy);
  run('sh', ['-c', `git archive --format=tar HEAD | tar -x -C '${copy}'`]);
  for (const target of TARGETS) symlinkSync(join(root, 'runtimes', target, 'node_modules'), join(copy, 'runtimes', target, 'node_modules'));
  const env = { ...process.env, npm_config_prefer_offline: 'true' };
  const committed = readFileSync(join(copy, 'dist', 'gsd-check'));
  run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: copy, env });
  run(process.execPath, ['build.mjs'], { cwd: copy, env });
  if (!readFileSync(join(copy, 'dist', 'gsd-check')).equals(committed)) {
    throw new Refusal('the committed dist/gsd-check is not the build of this commit: run npm run build and commit dist/');
  }
  // What users will read of it: the release's own line, never a build
  // between releases (release/built-version.mjs), whatever the build became.
  const said = run(process.execPath, ['dist/gsd-check', '--version'], { cwd: copy, env }).trim();
  const release = `gsd-check ${pkg.version} (source ${sourceId(copy)})`;
  if (said !== release) throw new Refusal(`the build answers --version with "${said}", not "${release}"`);
  run(process.execPath, ['build-bin.mjs', '--all'], { cwd: copy, env });
  return { copy, ...gather(copy, env, commit) };
}

// The packages the build installs, from the first build's lockfiles, as one
// tar of npm's tarballs, the same bytes for the same commit.
function packPackages(copy, work, dest, { epoch }) {
  const dir = join(work, PACKAGES);
  mkdirSync(dir);
  const needed = neededPackages(copy);
  collectPackages(needed, dir, (args) => run('npm', [...args, '--prefer-offline'], { cwd: copy }));
  const tarball = join(dest, `${PACKAGES}.tar`);
  run('tar', [
    '--sort=name',
    '--format=ustar',
    `--mtime=@${epoch}`,
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '--mode=u+rwX,go=rX',
    '-cf',
    tarball,
    '-C',
    work,
    PACKAGES,
  ]);
  return needed;
}

// The second build, as docs/how-to/install.md tells a site to rebuild: the
// page's rebuild block run on the release folder `stage` as written (the
// source and packages unpacked, npm's cache seeded with them, npm offline),
// with a registry that refuses, then the page's check against the folder's
// SHA256SUMS, which must print what the page shows. The page is the
// released one, from the first build's copy.
function buildOffline(work, stage, page, at) {
  // The page's steps set npm's cache and offline mode themselves; the C
  // locale, so that the check prints the page's words (sha256sum's OK is
  // translated in some).
  const env = { ...offlineEnv(join(work, 'npm-cache')), LC_ALL: 'C' };
  delete env.npm_config_cache;
  delete env.npm_config_offline;
  console.log(`release: (${work}) ${REBUILD_PAGE}'s offline rebuild, release=${stage}`);
  const started = Date.now();
  const done = runRebuild(page, { release: stage, cwd: work, env });
  const seconds = Math.round((Date.now() - started) / 1000);
  if (done.tree === undefined) throw new Refusal(`${REBUILD_PAGE}'s rebuild steps failed (${done.status}) before their check`);
  if (done.status !== 0 || done.output !== done.expected) {
    throw new Refusal(`${REBUILD_PAGE}'s check of the offline rebuild exited ${done.status} and printed:\n${done.output}instead of:\n${done.expected}`);
  }
  // npm pack and npm sbom in the rebuilt tree, with the npm the steps set up.
  const npmEnv = { ...env, npm_config_cache: done.cache, npm_config_offline: 'true' };
  return { ...gather(done.tree, npmEnv, at), seconds };
}

const USAGE = 'usage: node release.mjs [--sign <OpenSSH private key file>] [--write-doc]';

function parseArgs(args) {
  const rest = [...args];
  const writeDoc = rest.includes('--write-doc');
  if (writeDoc) rest.splice(rest.indexOf('--write-doc'), 1);
  if (rest.length === 0) return { key: undefined, writeDoc };
  if (rest.length === 2 && rest[0] === '--sign') {
    const key = resolve(rest[1]);
    if (!existsSync(key)) throw new Refusal(`--sign: ${rest[1]}: no such key file`);
    if (spawnSync('ssh-keygen', ['-Y', 'sign'], { stdio: 'ignore' }).error) throw new Refusal('--sign: ssh-keygen not found (OpenSSH 8.1 or later signs)');
    return { key, writeDoc };
  }
  throw new Refusal(`${USAGE} (not ${args.join(' ')})`);
}

// What must hold of the tree before a build is worth starting: the version
// free to tag on this commit, its CHANGELOG section and nothing left
// Unreleased, its surface recorded, and the page the figures would go to.
async function refusalBefore(commit, writeDoc) {
  const conflict = tagConflict(root, commit, pkg.version);
  if (conflict !== undefined) return conflict;
  const changelog = existsSync('CHANGELOG.md') ? readFileSync('CHANGELOG.md', 'utf8') : undefined;
  if (changelog === undefined) return 'no CHANGELOG.md: a release is described there first';
  const problems = changelogProblems(changelog);
  if (problems.length > 0) return `CHANGELOG.md is not in Keep a Changelog's form:\n${problems.join('\n')}`;
  if (section(changelog, pkg.version) === undefined)
    return `CHANGELOG.md has no section for ${pkg.version}: move the Unreleased entries under ## [${pkg.version}] - <date>`;
  const built = builtVersion(root);
  if (built.after !== undefined)
    return `a build of this tree says gsd-check ${built.version} (unreleased, after ${built.after}), not ${pkg.version}: CHANGELOG.md's newest section must be ${pkg.version}'s and its Unreleased section empty`;
  const surface = await releaseRefusal(root, pkg.version);
  if (surface !== undefined) return surface;
  if (writeDoc && !hasFigureMarkers(readFileSync(FIGURES_PAGE, 'utf8'))) return `--write-doc: ${FIGURES_PAGE} has no release-figures markers`;
  return undefined;
}

async function release() {
  const started = Date.now();
  const { key, writeDoc } = parseArgs(process.argv.slice(2));
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no']);
  if (dirty !== '') throw new Refusal(`uncommitted changes:\n${dirty}a release is built from a commit: commit or stash them`);
  const commit = run('git', ['rev-parse', 'HEAD']).trim();
  const committedAt = run('git', ['show', '-s', '--format=%cI', 'HEAD']).trim();
  const epoch = run('git', ['show', '-s', '--format=%ct', 'HEAD']).trim();
  const at = { commit, committedAt, epoch };
  const refusal = await refusalBefore(commit, writeDoc);
  if (refusal !== undefined) throw new Refusal(refusal);
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
    // The folder as a site gets it, but for the signature: the first build's
    // files, the source and the packages, the docs and SHA256SUMS.
    const stage = join(first, 'release');
    mkdirSync(stage);
    const built = readdirSync(clean.files).sort();
    for (const name of built) copyFileSync(join(clean.files, name), join(stage, name));
    run('git', ['archive', '--format=tar.gz', `--prefix=${pkg.name}-${pkg.version}/`, '-o', join(stage, SOURCE), 'HEAD']);
    const needed = packPackages(clean.copy, first, stage, at);
    const docs = releaseDocs(clean.copy);
    for (const doc of docs) {
      mkdirSync(dirname(join(stage, doc)), { recursive: true });
      copyFileSync(join(clean.copy, doc), join(stage, doc));
    }
    const names = [...built, SOURCE, `${PACKAGES}.tar`, ...docs].sort();
    writeFileSync(join(stage, 'SHA256SUMS'), sumsText(stage, names));

    const rebuilt = buildOffline(work(2), stage, readFileSync(join(clean.copy, REBUILD_PAGE), 'utf8'), at);
    const again = readdirSync(rebuilt.files).sort();
    const differ = [...new Set([...built, ...again])].filter(
      (name) => !built.includes(name) || !again.includes(name) || !readFileSync(join(clean.files, name)).equals(readFileSync(join(rebuilt.files, name))),
    );
    if (differ.length > 0) throw new Refusal(`the offline rebuild of ${commit} from its source and packages differs in ${differ.join(', ')}`);

    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const name of names) {
      mkdirSync(dirname(join(out, name)), { recursive: true });
      copyFileSync(join(stage, name), join(out, name));
    }
    let signed;
    try {
      signed = writeSums(out, names, key);
    } catch (error) {
      rmSync(out, { recursive: true, force: true });
      throw new Refusal(`signing SHA256SUMS failed (${error.message.split('\n')[0]}): no release written`);
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `release: ${out}: gsd-check ${pkg.version} (source ${clean.id}), commit ${commit}, rebuilt alike offline from its source and ${needed.length} packages by ${REBUILD_PAGE}'s steps`,
    );
    console.log(`release: ${signed.said}`);
    process.stdout.write(signed.sums);

    const figures = {
      version: pkg.version,
      date: new Date().toISOString().slice(0, 10),
      commit: commit.slice(0, 7),
      node: process.version,
      npm: run('npm', ['--version']).trim(),
      cores: availableParallelism(),
      files: built
        .map((name) => ({ name, size: size(statSync(join(out, name)).size) }))
        .concat([{ name: SOURCE, size: size(statSync(join(out, SOURCE)).size) }])
        .sort((a, b) => (a.name < b.name ? -1 : 1)),
      packages: { file: `${PACKAGES}.tar`, size: size(statSync(join(out, `${PACKAGES}.tar`)).size), count: needed.length },
      runtimes: TARGETS.map((target) => ({ path: `runtimes/${target}`, size: size(treeBytes(join(root, 'runtimes', target, 'node_modules'))) })),
      seconds: { total: seconds, rebuild: rebuilt.seconds },
    };
    console.log(
      `release: the figures ${writeDoc ? `written into ${FIGURES_PAGE}` : `for ${FIGURES_PAGE} (--write-doc writes them)`}:\n${figuresBlock(figures)}`,
    );
    if (writeDoc) writeFigures(resolve(FIGURES_PAGE), figures);

    const title = `gsd-check ${pkg.version} (source ${clean.id})`;
    let tagged;
    try {
      tagged = tagRelease(root, commit, pkg.version, title);
    } catch (error) {
      throw new Refusal(`the release is written, but tagging it failed: ${error.message.split('\n')[0]}`);
    }
    for (const line of tagged.said) console.log(`release: ${line}`);
    console.log(`release: nothing is pushed; to publish the tags: ${tagged.push.join(' && ')}`);
  } finally {
    for (const dir of works) rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await release();
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(`release: ${error.message}`);
  process.exitCode = 1;
}
