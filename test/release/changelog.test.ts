// CHANGELOG.md in the form Keep a Changelog 1.1.0 gives it (release/changelog.mjs),
// its newest release the version package.json says, and each way out of
// that form caught.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { changelogProblems, readChangelog, section } from '../../release/changelog.mjs';
import { ROOT } from '../helpers/support.ts';

const TEXT = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test("CHANGELOG.md keeps the form, and its newest release is package.json's version", () => {
  assert.deepEqual(changelogProblems(TEXT), []);
  const { sections } = readChangelog(TEXT);
  assert.equal(sections[0]!.name, 'Unreleased');
  assert.equal(sections[1]!.name, VERSION);
  assert.ok(section(TEXT, VERSION)!.includes('### Added'));
});

const FORM = [
  '# Changelog',
  '',
  '## [Unreleased]',
  '',
  '## [1.1.0] - 2026-12-02',
  '',
  '### Added',
  '',
  '- `--raw`',
  '',
  '## [1.0.0] - 2026-12-01',
  '',
  '### Added',
  '',
  '- all of it',
  '',
  '[unreleased]: https://github.com/o/gsd-check/compare/v1.1.0...HEAD',
  '[1.1.0]: https://github.com/o/gsd-check/compare/v1.0.0...v1.1.0',
  '[1.0.0]: https://github.com/o/gsd-check/releases/tag/v1.0.0',
  '',
].join('\n');

test('a section, a heading, an order, a date or a link out of form is named', () => {
  assert.deepEqual(changelogProblems(FORM), []);
  assert.equal(section(FORM, '1.1.0'), '\n### Added\n\n- `--raw`\n\n');
  assert.equal(section(FORM, '1.2.0'), undefined);
  const broken = (from: string, to: string) => changelogProblems(FORM.replace(from, to));
  assert.deepEqual(broken('# Changelog\n', '# Changes\n'), ['the first line is not "# Changelog"']);
  assert.deepEqual(broken('## [Unreleased]\n', ''), ['the first section is not ## [Unreleased]']);
  assert.deepEqual(broken('## [Unreleased]\n', '## [Unreleased] - 2026-12-03\n'), ['## [Unreleased] has a date']);
  assert.deepEqual(broken('## [1.1.0] - 2026-12-02', '## [1.1.0]'), ['line 5: 1.1.0 has no date (## [1.1.0] - YYYY-MM-DD)']);
  assert.deepEqual(broken('### Added\n\n- `--raw`', '### New\n\n- `--raw`'), [
    '## [1.1.0]: ### New is not one of Added, Changed, Deprecated, Removed, Fixed, Security',
  ]);
  assert.deepEqual(broken('compare/v1.1.0...HEAD', 'compare/v1.0.0...HEAD'), [
    '[unreleased]: https://github.com/o/gsd-check/compare/v1.0.0...HEAD, not https://github.com/o/gsd-check/compare/v1.1.0...HEAD',
  ]);
  assert.deepEqual(broken('[1.0.0]: https://github.com/o/gsd-check/releases/tag/v1.0.0\n', ''), [
    '[1.0.0]: no link, not https://github.com/o/gsd-check/releases/tag/v1.0.0',
  ]);
  const swapped = FORM.replace('## [1.1.0] - 2026-12-02', '## [0.9.0] - 2026-12-02');
  assert.ok(changelogProblems(swapped).includes('line 11: 1.0.0 comes after 0.9.0: newest first'));
  assert.deepEqual(broken('## [1.0.0] - 2026-12-01', '## [first] - 2026-12-01'), [
    'line 11: first is not a version (MAJOR.MINOR.PATCH)',
    '[1.1.0]: https://github.com/o/gsd-check/compare/v1.0.0...v1.1.0, not https://github.com/o/gsd-check/compare/vfirst...v1.1.0',
    '[first]: no link, not https://github.com/o/gsd-check/releases/tag/vfirst',
  ]);
});
