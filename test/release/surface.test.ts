// The public surface (release/surface.mjs) against the one the last release
// recorded (release/surface.json): here, and in a copy of the tree whose
// record is made to differ, so that each rule shows: a change CHANGELOG.md's
// Unreleased section does not name fails, a version bumped without writing
// the record fails, and writing it for a release needs the bump semver asks
// of the changes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { ROOT, tempDir } from '../helpers/support.ts';
import { recordedAsReleased } from '../helpers/release-tree.ts';

const surface = (cwd: string, ...args: string[]): [number | null, string, string] => {
  const r = spawnSync(process.execPath, [join(ROOT, 'release', 'surface.mjs'), ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return [r.status, r.stdout, r.stderr];
};

interface Entry {
  item: string;
  name: string;
  of?: string;
  value: unknown;
}

// A tree the command reads (src/ as this checkout's, recorded as released:
// what this checkout changed since is no part of these tests), its record as
// a list to change, and the writers of what a release changes.
function tree(t: import('node:test').TestContext) {
  const dir = tempDir(t);
  for (const file of ['package.json', 'CHANGELOG.md', '.pre-commit-hooks.yaml', 'release/surface.json', 'schemas'])
    cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  symlinkSync(join(ROOT, 'src'), join(dir, 'src'));
  asReleased100(dir);
  recordedAsReleased(dir);
  const read = () => JSON.parse(readFileSync(join(dir, 'release', 'surface.json'), 'utf8')) as { version: string; surface: Entry[] };
  const record = (change: (entries: Entry[]) => Entry[]) => {
    const { version, surface: entries } = read();
    writeFileSync(join(dir, 'release', 'surface.json'), JSON.stringify({ version, surface: change(entries) }));
  };
  const version = (v: string) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version: v }));
  };
  const changelog = (edit: (text: string) => string) => writeFileSync(join(dir, 'CHANGELOG.md'), edit(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')));
  return { dir, read, record, version, changelog };
}

// The copy as release 1.0.0 left it, whatever this checkout released since,
// so that the versions below stay the tests' own: package.json's version,
// the record's, and CHANGELOG.md without the later sections or their links.
function asReleased100(dir: string): void {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version: '1.0.0' }));
  const record = join(dir, 'release', 'surface.json');
  writeFileSync(record, readFileSync(record, 'utf8').replace(/^\{"version": "[^"]+"/, '{"version": "1.0.0"'));
  const changelog = join(dir, 'CHANGELOG.md');
  writeFileSync(
    changelog,
    readFileSync(changelog, 'utf8')
      .replace(/(## \[Unreleased\]\n)[\s\S]*?(?=## \[1\.0\.0\])/, '$1\n')
      .replace(/^\[unreleased\]: .*$/m, '[unreleased]: https://github.com/<owner>/gsd-check/compare/v1.0.0...HEAD')
      .replace(/^\[(?!1\.0\.0\]|unreleased\])[^\]\n]+\]: .*\n/gm, ''),
  );
}

const unreleased = (entry: string) => (text: string) => text.replace('## [Unreleased]\n', `## [Unreleased]\n\n### Added\n\n- ${entry}\n`);
const release = (version: string) => (text: string) => text.replace('## [Unreleased]\n', `## [Unreleased]\n\n## [${version}] - 2026-12-02\n`);

test("this tree: the surface is the recorded release's, or each change is named in CHANGELOG.md's Unreleased section", { timeout: 60_000 }, () => {
  const [status, stdout, stderr] = surface(ROOT);
  assert.equal(status, 0, stderr);
  assert.match(stdout, /^surface: /);
});

test('a change to the surface fails until the Unreleased section names it in backticks', { timeout: 60_000 }, (t) => {
  const { dir, record, changelog } = tree(t);
  // The record without --raw: to the command, --raw is new since the release.
  record((entries) => entries.filter((e) => e.name !== '--raw'));
  assert.deepEqual(surface(dir), [
    1,
    '',
    [
      "surface: the public surface changed since 1.0.0 (release/surface.json) in what CHANGELOG.md's Unreleased section does not name, in backticks:",
      'surface:   flag `--raw`: added',
      'surface:   flag of `--raw` (check predicate): added',
      'surface:   flag of `--raw` (gates run): added',
      '',
    ].join('\n'),
  ]);
  // Named, but not as code: still not named.
  changelog(unreleased('the --raw flag'));
  assert.equal(surface(dir)[0], 1);
  changelog(unreleased('`--raw`: the envelope as one line'));
  const [status, stdout] = surface(dir);
  assert.equal(status, 0);
  assert.match(stdout, /^surface: 3 changes since 1\.0\.0, each named in CHANGELOG\.md's Unreleased section:\n/);
});

test('a version bumped without writing the record fails; writing it needs the bump the changes need and a section naming them', { timeout: 120_000 }, (t) => {
  const { dir, read, record, version, changelog } = tree(t);
  record((entries) => entries.filter((e) => e.name !== '--raw'));
  changelog(unreleased('`--raw`'));
  assert.deepEqual(surface(dir, '--write').slice(0, 2), [1, '']);
  assert.match(
    surface(dir, '--write')[2],
    /^surface: release\/surface\.json is already 1\.0\.0's, and the surface has changed since: bump package\.json's version first\n/,
  );

  // An addition is a minor release at least.
  version('1.0.1');
  assert.deepEqual(surface(dir), [
    1,
    '',
    "surface: release/surface.json is the surface of 1.0.0, but package.json's version is 1.0.1: a release writes it (node release/surface.mjs --write)\n",
  ]);
  assert.match(surface(dir, '--write')[2], /^surface: 1\.0\.0 -> 1\.0\.1 is not a minor release, which these changes need/);
  version('1.1.0');
  assert.deepEqual(surface(dir, '--write'), [
    1,
    '',
    'surface: CHANGELOG.md has no section for 1.1.0: move the Unreleased entries under ## [1.1.0] - <date> first\n',
  ]);
  changelog(release('1.1.0'));
  assert.deepEqual(surface(dir, '--write'), [0, 'surface: release/surface.json: the surface of 1.1.0 (minor release: 3 changes since 1.0.0)\n', '']);
  assert.equal(read().version, '1.1.0');
  assert.ok(read().surface.some((e) => e.name === '--raw'));
  assert.deepEqual(surface(dir), [0, "surface: the public surface is 1.1.0's\n", '']);

  // A removal, or a changed default, is a major release; a changed JSON
  // Schema is judged, so a minor one at least.
  record((entries) => [...entries, { item: 'flag', name: '--gone', value: { takes: 'nothing', default: null, trimsJoinedValue: false } }]);
  version('1.2.0');
  changelog((text) => release('1.2.0')(text).replace('## [1.2.0] - 2026-12-02\n', '## [1.2.0] - 2026-12-02\n\n### Removed\n\n- `--gone`\n'));
  assert.match(
    surface(dir, '--write')[2],
    /^surface: 1\.1\.0 -> 1\.2\.0 is not a major release, which these changes need \(docs\/maintainers\/versioning\.md\):\nsurface:   flag `--gone`: removed\n$/,
  );
  version('2.0.0');
  changelog((text) => text.replace('## [1.2.0]', '## [2.0.0]'));
  assert.equal(surface(dir, '--write')[0], 0);

  record((entries) =>
    entries.map((e) => (e.name === '--kill-after' && e.item === 'flag' ? { ...e, value: { takes: 'a value', default: 5, trimsJoinedValue: false } } : e)),
  );
  version('2.1.0');
  changelog((text) => release('2.1.0')(text).replace('## [2.1.0] - 2026-12-02\n', '## [2.1.0] - 2026-12-02\n\n### Changed\n\n- `--kill-after`\n'));
  assert.match(
    surface(dir, '--write')[2],
    /^surface: 2\.0\.0 -> 2\.1\.0 is not a major release, which these changes need \(docs\/maintainers\/versioning\.md\):\nsurface:   flag `--kill-after`: changed\n$/,
  );

  record((entries) =>
    entries.map((e) =>
      e.name === '--kill-after' && e.item === 'flag'
        ? { ...e, value: { takes: 'a value', default: 3, trimsJoinedValue: false } }
        : e.item === 'JSON Schema' && e.name === 'schemas/gate.schema.json'
          ? { ...e, value: '0000000000000000' }
          : e,
    ),
  );
  changelog((text) => text.replace('- `--kill-after`\n', '- `schemas/gate.schema.json`\n'));
  assert.deepEqual(surface(dir, '--write'), [0, 'surface: release/surface.json: the surface of 2.1.0 (minor release: 1 change since 2.0.0)\n', '']);
});

test('the command takes --write or nothing', { timeout: 60_000 }, (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'release'));
  assert.deepEqual(surface(dir, '--check'), [2, '', 'surface: usage: node release/surface.mjs [--write] (not --check)\n']);
});
