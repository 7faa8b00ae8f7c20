// The version a build names (release/built-version.mjs): a release's own
// only when the tree is as cutting it leaves it, otherwise a pre-release
// after the last release, named with it; and the line a build of each kind
// of tree prints.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { BUILD_INPUTS } from '../helpers/build-inputs.ts';
import { releasedChangelog } from '../helpers/release-tree.ts';
import { DIST, ROOT, tempDir } from '../helpers/support.ts';
import { builtVersion } from '../../release/built-version.mjs';

const changelog = (...sections: string[]) => `# Changelog\n\n${sections.join('\n')}`;

test('a release only with nothing Unreleased and its own dated section newest; anything else names the last release and comes after it', (t) => {
  const tree = tempDir(t);
  const of = (version: string, text: string) => {
    writeFileSync(join(tree, 'package.json'), JSON.stringify({ name: 'gsd-check', version }));
    writeFileSync(join(tree, 'CHANGELOG.md'), text);
    return builtVersion(tree);
  };
  const released = ['## [1.2.3] - 2027-01-02\n\n### Fixed\n\n- a fix\n', '## [1.2.2] - 2027-01-01\n\n### Added\n\n- a flag\n'];
  assert.deepEqual(of('1.2.3', changelog('## [Unreleased]\n', ...released)), { version: '1.2.3', after: undefined });
  assert.deepEqual(
    of('1.2.3', changelog('## [Unreleased]\n\n### Added\n\n', ...released)),
    { version: '1.2.3', after: undefined },
    'headings alone are no entry',
  );
  const between = { version: '1.2.4-dev', after: '1.2.3' };
  assert.deepEqual(of('1.2.3', changelog('## [Unreleased]\n\n### Added\n\n- `--new`\n', ...released)), between);
  // The version bumped, its entries not yet moved; moved, not yet dated.
  assert.deepEqual(of('1.3.0', changelog('## [Unreleased]\n\n### Added\n\n- `--new`\n', ...released)), between);
  assert.deepEqual(of('1.3.0', changelog('## [Unreleased]\n', '## [1.3.0]\n\n### Added\n\n- `--new`\n', ...released)), between);
  // package.json behind the CHANGELOG's newest release.
  assert.deepEqual(of('1.2.2', changelog('## [Unreleased]\n', ...released)), between);
  assert.deepEqual(of('2.0.0-rc.1', changelog('## [Unreleased]\n\n- more\n', '## [2.0.0-rc.1] - 2027-02-01\n', ...released)), {
    version: '2.0.0-rc.1.dev',
    after: '2.0.0-rc.1',
  });
  assert.throws(() => of('0.1.0', changelog('## [Unreleased]\n\n- the first\n')), /CHANGELOG\.md has no dated release for a build between releases to name/);
});

test("a build's --version: the release's line in a tree as a release leaves it, and with an entry Unreleased the pre-release after it, naming it", (t) => {
  const tree = tempDir(t);
  for (const name of BUILD_INPUTS) cpSync(join(ROOT, name), join(tree, name), { recursive: true });
  mkdirSync(join(tree, 'dist'));
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  const source = spawnSync(process.execPath, [join(ROOT, 'build-id.mjs'), tree], { encoding: 'utf8' }).stdout.trim();
  const built = (text: string) => {
    writeFileSync(join(tree, 'CHANGELOG.md'), text);
    const build = spawnSync(process.execPath, ['build.mjs'], { cwd: tree, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const r = spawnSync(process.execPath, [join(tree, relative(ROOT, DIST)), '--version'], { encoding: 'utf8' });
    return [r.status, r.stdout, r.stderr];
  };
  const released = releasedChangelog();
  assert.deepEqual(built(released), [0, `gsd-check ${version} (source ${source})\n`, '']);
  assert.deepEqual(built(released.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Fixed\n\n- A fix.\n')), [
    0,
    `gsd-check ${major}.${minor}.${patch + 1}-dev (source ${source}; unreleased, after ${version})\n`,
    '',
  ]);
});
