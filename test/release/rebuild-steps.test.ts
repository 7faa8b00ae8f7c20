// install.md's offline rebuild (release/rebuild-steps.mjs), the blocks the
// page shows run as written on a release folder made here, with an npm that
// only stands in for the build: the check names every artefact the release
// builds (release/artefacts.mjs) and passes when each was rebuilt, and fails
// when the rebuild made nothing, made only the bundle, or made other bytes:
// the committed dist/gsd-check of the source archive cannot stand in for a
// rebuilt one. npm run release runs the same steps with the real npm.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { BUILT, releaseNames } from '../../release/artefacts.mjs';
import { REBUILD_PAGE, rebuildSteps, runRebuild } from '../../release/rebuild-steps.mjs';
import { ROOT, tempDir } from '../helpers/support.ts';

const PAGE = readFileSync(join(ROOT, REBUILD_PAGE), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const NAMES = releaseNames(pkg.name, pkg.version);
const rebuilt = (name: string) => `rebuilt ${name}\n`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// A release folder: the source archive (its committed bundle, which is not
// the rebuilt one), the packages tar, and SHA256SUMS naming the rebuilt
// artefacts' bytes and a file the check must leave alone.
function releaseFolder(t: import('node:test').TestContext) {
  const work = tempDir(t);
  const tree = join(work, `${pkg.name}-${pkg.version}`);
  // The bundle is committed where the build writes it.
  mkdirSync(dirname(join(tree, BUILT[0]!.path)), { recursive: true });
  writeFileSync(join(tree, BUILT[0]!.path), 'the committed bundle\n');
  writeFileSync(join(tree, 'package.json'), '{}\n');
  mkdirSync(join(work, NAMES.packages));
  writeFileSync(join(work, NAMES.packages, 'a-1.0.0.tgz'), 'a tarball\n');
  const folder = join(work, 'release');
  mkdirSync(folder);
  const tar = (...args: string[]) => assert.equal(spawnSync('tar', args, { cwd: work, timeout: 30_000 }).status, 0);
  tar('-czf', join(folder, NAMES.source), tree.slice(work.length + 1));
  tar('-cf', join(folder, `${NAMES.packages}.tar`), NAMES.packages);
  writeFileSync(join(folder, 'README.md'), '# gsd-check\n');
  const sums = [...BUILT.map((b) => `${sha256(rebuilt(b.name))}  ${b.name}\n`), `${sha256('# gsd-check\n')}  README.md\n`].sort((a, b) =>
    a.slice(66) < b.slice(66) ? -1 : 1,
  );
  writeFileSync(join(folder, 'SHA256SUMS'), sums.join(''));
  return folder;
}

// npm as the steps call it: each call logged with the settings it saw;
// `run build:bin -- --all` writes what BUILDS says, at the paths a build
// leaves each artefact.
function standInNpm(t: import('node:test').TestContext) {
  const bin = tempDir(t);
  const writes = BUILT.map((b) => `mkdir -p '${dirname(b.path)}' && printf '%s\\n' "\${WRONG:-rebuilt} ${b.name}" > '${b.path}'`);
  const script = [
    '#!/bin/sh',
    'echo "npm $* (offline $npm_config_offline, cache $npm_config_cache)" >> "$NPM_LOG"',
    'if [ "$*" = "run build:bin -- --all" ]; then',
    '  [ "$BUILDS" = none ] && exit 0',
    `  ${writes[0]}`,
    '  [ "$BUILDS" = bundle ] && exit 0',
    ...writes.slice(1).map((w) => `  ${w}`),
    'fi',
    'exit 0',
    '',
  ].join('\n');
  writeFileSync(join(bin, 'npm'), script);
  chmodSync(join(bin, 'npm'), 0o755);
  return bin;
}

function rebuild(t: import('node:test').TestContext, builds: string, wrong?: string) {
  const release = releaseFolder(t);
  const cwd = tempDir(t);
  const log = join(cwd, 'npm.log');
  const env = {
    PATH: `${standInNpm(t)}:${process.env.PATH}`,
    HOME: cwd,
    LANG: 'C',
    NPM_LOG: log,
    BUILDS: builds,
    ...(wrong === undefined ? {} : { WRONG: wrong }),
  };
  const done = runRebuild(PAGE, { release, cwd, env, stdio: 'pipe' });
  return { ...done, cwd, npm: readFileSync(log, 'utf8') };
}

// In SHA256SUMS's order, which is the names'.
const ok = BUILT.map((b) => b.name)
  .sort()
  .map((name) => `${name}: OK\n`)
  .join('');

test('the page checks exactly the artefacts a release builds, each by name, and says each is OK', () => {
  const { rebuild: steps, check } = rebuildSteps(PAGE);
  assert.equal(check.expected, ok);
  for (const { name, path } of BUILT) {
    assert.ok(
      check.commands.some((c) => c.includes(` ${path} `) || c.includes(` ${path}\n`)),
      `the check copies ${path}`,
    );
    assert.ok(
      check.commands.some((c) => new RegExp(`[(|]${name.replace(/[-]/g, '\\-')}[|)]`).test(c)),
      `the check takes ${name}'s line of SHA256SUMS`,
    );
  }
  assert.equal(
    check.commands.some((c) => c.includes('--ignore-missing')),
    false,
  );
  // The archive's committed bundle is gone before anything is built.
  assert.ok(steps.indexOf('rm dist/gsd-check') !== -1 && steps.indexOf('rm dist/gsd-check') < steps.indexOf('npm run build:bin'));
});

test("a rebuild of every artefact passes, npm offline with the folder's packages in a cache of its own", (t) => {
  const done = rebuild(t, 'all');
  assert.deepEqual([done.status, done.output], [0, ok]);
  assert.equal(done.expected, ok);
  const rebuiltTree = join(done.cwd, 'rebuild', `${pkg.name}-${pkg.version}`);
  assert.equal(done.tree, rebuiltTree);
  const cache = join(done.cwd, 'rebuild', 'npm-cache');
  assert.equal(done.cache, cache);
  assert.equal(
    done.npm,
    [`cache add ./${NAMES.packages}/a-1.0.0.tgz`, 'ci', 'run build:bin -- --all'].map((c) => `npm ${c} (offline true, cache ${cache})\n`).join(''),
  );
});

test('a rebuild that made nothing, or only the bundle, or other bytes, fails the check', (t) => {
  const nothing = rebuild(t, 'none');
  assert.equal(nothing.status, 1);
  for (const { name } of BUILT) assert.match(nothing.output, new RegExp(`^${name}: FAILED open or read$`, 'm'));
  assert.doesNotMatch(nothing.output, /: OK$/m);

  const bundle = rebuild(t, 'bundle');
  assert.equal(bundle.status, 1);
  assert.match(bundle.output, /^gsd-check: OK$/m);
  for (const { name } of BUILT.slice(1)) assert.match(bundle.output, new RegExp(`^${name}: FAILED open or read$`, 'm'));

  const other = rebuild(t, 'all', 'other');
  assert.equal(other.status, 1);
  for (const { name } of BUILT) assert.match(other.output, new RegExp(`^${name}: FAILED$`, 'm'));
});

test('a rebuild step that fails stops the steps before the check', (t) => {
  const release = releaseFolder(t);
  const cwd = tempDir(t);
  // No packages tar: tar fails, and nothing after it runs.
  const done = runRebuild(PAGE, {
    release: join(release, 'missing'),
    cwd,
    env: { PATH: `${standInNpm(t)}:${process.env.PATH}`, NPM_LOG: join(cwd, 'npm.log') },
    stdio: 'pipe',
  });
  assert.notEqual(done.status, 0);
  assert.equal(done.tree, undefined);
  assert.equal(done.output, '');
});
