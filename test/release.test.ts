// What `npm run release` refuses before it builds anything: an argument it
// does not know, a signing key that is not there (a release meant to be
// signed must not come out unsigned), a version already tagged on another
// commit, a CHANGELOG.md without the version's section or with entries
// still Unreleased, a public surface not recorded for the version, and
// --write-doc with nowhere to write. The
// refusals after the first three run in a repository made here, holding only
// what they read. The release itself builds everything twice and runs as a
// release step (docs/maintainers/build-and-release.md); its parts are tested
// in test/release/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { recordedAsReleased, releasedChangelog } from './helpers/release-tree.ts';
import { ROOT, tempDir } from './helpers/support.ts';

const USAGE = 'release: usage: node release.mjs [--sign <OpenSSH private key file>] [--write-doc]';

const release = (args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env) => {
  const r = spawnSync(process.execPath, [join(ROOT, 'release.mjs'), ...args], { cwd, env, encoding: 'utf8', timeout: 30_000 });
  return [r.status, r.stdout, r.stderr];
};

test('an unknown argument, or --sign with no key file: one line, exit 1, nothing built', { timeout: 60_000 }, (t) => {
  const missing = join(tempDir(t), 'release-key');
  assert.deepEqual(release(['--sign', missing]), [1, '', `release: --sign: ${missing}: no such key file\n`]);
  assert.deepEqual(release(['--sign']), [1, '', `${USAGE} (not --sign)\n`]);
  assert.deepEqual(release(['--key', missing]), [1, '', `${USAGE} (not --key ${missing})\n`]);
  assert.deepEqual(release(['--write-doc', '--sign']), [1, '', `${USAGE} (not --write-doc --sign)\n`]);
});

const GIT = {
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release@example.invalid',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release@example.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

const RELEASED = releasedChangelog();

// A repository with what the checks before the build read (src/ as this
// checkout's, through a link), committed, so that the tree is clean.
function repository(t: import('node:test').TestContext) {
  const dir = tempDir(t);
  const env = { ...process.env, ...GIT };
  for (const file of ['package.json', '.pre-commit-hooks.yaml', 'release/surface.json', 'schemas'])
    cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  writeFileSync(join(dir, 'CHANGELOG.md'), RELEASED);
  symlinkSync(join(ROOT, 'src'), join(dir, 'src'));
  recordedAsReleased(dir);
  mkdirSync(join(dir, 'docs', 'how-to'), { recursive: true });
  writeFileSync(join(dir, 'docs', 'how-to', 'install.md'), '# How to install gsd-check\n');
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  git('init', '-q');
  commit('the release');
  const edit = (file: string, change: (text: string) => string) => {
    writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
    return commit(`edit ${file}`);
  };
  return { dir, env, git, commit, edit };
}

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
// Its stderr's first line: stdout has the commands it ran (git status …).
const refusal = (r: unknown[]) => [r[0], (r[2] as string).split('\n')[0]];

test('a version tagged on another commit, a CHANGELOG.md without its section, a surface not recorded for it: refused before the build', {
  timeout: 60_000,
}, (t) => {
  const { dir, env, git, commit, edit } = repository(t);
  const tagged = git('rev-parse', 'HEAD');
  git('tag', `v${version}`);
  const next = commit('a later commit');
  assert.deepEqual(refusal(release([], dir, env)), [
    1,
    `release: tag v${version} already names ${tagged.slice(0, 12)}, not ${next.slice(0, 12)}: a version is released once (bump package.json's version)`,
  ]);
  git('tag', '-d', `v${version}`);

  // Its section and links named for another version, after it: still in order.
  const other = version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
  edit('CHANGELOG.md', (text) =>
    text.replace(`## [${version}] - `, `## [${other}] - `).replace(`[${version}]: `, `[${other}]: `).replaceAll(`v${version}`, `v${other}`),
  );
  assert.deepEqual(refusal(release([], dir, env)), [
    1,
    `release: CHANGELOG.md has no section for ${version}: move the Unreleased entries under ## [${version}] - <date>`,
  ]);
  edit('CHANGELOG.md', () => RELEASED.replace('## [Unreleased]\n', ''));
  assert.deepEqual(refusal(release([], dir, env)), [1, "release: CHANGELOG.md is not in Keep a Changelog's form:"]);
  edit('CHANGELOG.md', () => RELEASED);

  edit('release/surface.json', (text) => text.replace(`{"version": "${version}"`, '{"version": "0.9.0"'));
  assert.deepEqual(refusal(release([], dir, env)), [
    1,
    `release: release/surface.json is the surface of 0.9.0, not of ${version}: node release/surface.mjs --write, and commit it`,
  ]);
  edit('release/surface.json', (text) => text.replace('{"version": "0.9.0"', `{"version": "${version}"`).replace(/^\{"item":"flag","name":"--raw",.*\n/m, ''));
  assert.deepEqual(refusal(release([], dir, env)), [
    1,
    `release: the public surface changed since release/surface.json was written for ${version}: bump the version, then node release/surface.mjs --write`,
  ]);
});

test("entries still Unreleased, or a version whose section is not CHANGELOG.md's newest: refused before the build, which would name itself a build between releases", {
  timeout: 60_000,
}, (t) => {
  const { dir, env, edit } = repository(t);
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  const between = (after: string, next: string) =>
    `release: a build of this tree says gsd-check ${next} (unreleased, after ${after}), not ${version}: CHANGELOG.md's newest section must be ${version}'s and its Unreleased section empty`;
  edit('CHANGELOG.md', (text) => text.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Fixed\n\n- A fix not yet released.\n'));
  assert.deepEqual(refusal(release([], dir, env)), [1, between(version, `${major}.${minor}.${patch + 1}-dev`)]);

  edit('CHANGELOG.md', () =>
    RELEASED.replace('## [Unreleased]\n', `## [Unreleased]\n\n## [${major + 1}.0.0] - 2027-01-01\n`).replace(
      /^\[unreleased\]: (.*)\/compare\/v.*$/m,
      `[unreleased]: $1/compare/v${major + 1}.0.0...HEAD\n[${major + 1}.0.0]: $1/compare/v${version}...v${major + 1}.0.0`,
    ),
  );
  assert.deepEqual(refusal(release([], dir, env)), [1, between(`${major + 1}.0.0`, `${major + 1}.0.1-dev`)]);
});

test('--write-doc with no figures markers in install.md: refused once every other check has passed', { timeout: 60_000 }, (t) => {
  const { dir, env } = repository(t);
  assert.deepEqual(refusal(release(['--write-doc'], dir, env)), [1, 'release: --write-doc: docs/how-to/install.md has no release-figures markers']);
});
