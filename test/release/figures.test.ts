// The figures of the last release in docs/how-to/install.md
// (release/figures.mjs): the block is the one `npm run release --
// --write-doc` writes, read back and written again to the same text; its
// commit is one of this repository; its package count is what that commit's
// lockfiles need; its version has its CHANGELOG section. And the pages about
// building and installing state no size or time of the build without the
// date it was measured on, so that none is left to go stale.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { section } from '../../release/changelog.mjs';
import { FIGURES_PAGE, figuresBlock, readFigures, size, writeFigures } from '../../release/figures.mjs';
import { LOCKFILES, neededPackages } from '../../release/packages.mjs';
import { hasHistory } from '../helpers/history.ts';
import { ROOT, tempDir } from '../helpers/support.ts';

const PAGE = readFileSync(join(ROOT, FIGURES_PAGE), 'utf8');
const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

test("install.md holds the last release's figures, as the release writes them", () => {
  const read = readFigures(PAGE);
  assert.ok(read !== undefined, `${FIGURES_PAGE} has no release-figures markers`);
  assert.ok(read.figures !== undefined, `${FIGURES_PAGE}'s release-figures block holds no figures: npm run release -- --write-doc writes them`);
  assert.equal(figuresBlock(read.figures), read.block);
  assert.match(read.figures.date, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(
    section(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), read.figures.version) !== undefined,
    `CHANGELOG.md has no section for ${read.figures.version}`,
  );
});

test('their commit is one of this repository, and its lockfiles need the packages they count', (t) => {
  if (!hasHistory(ROOT)) return t.skip('a checkout without its history (a mutation tree, a shallow clone) has no past commit to look at');
  const { figures } = readFigures(PAGE)!;
  assert.ok(figures !== undefined);
  assert.equal(git('cat-file', '-e', `${figures.commit}^{commit}`).status, 0, `${figures.commit} is no commit of this repository`);
  const tree = tempDir(t);
  for (const { lockfile } of LOCKFILES) {
    const shown = git('show', `${figures.commit}:${lockfile}`);
    assert.equal(shown.status, 0, shown.stderr);
    mkdirSync(dirname(join(tree, lockfile)), { recursive: true });
    writeFileSync(join(tree, lockfile), shown.stdout);
  }
  assert.equal(figures.packages.count, neededPackages(tree).length);
});

test('the block is written between the markers and nowhere else; a page without them is left alone', (t) => {
  const dir = tempDir(t);
  const figures = {
    version: '1.0.0',
    date: '2026-12-01',
    commit: '0123abc',
    node: 'v20.20.2',
    npm: '11.19.1',
    cores: 2,
    files: [
      { name: 'gsd-check', size: size(215_122) },
      { name: 'gsd-check-linux-x64', size: size(127_412_345) },
    ],
    packages: { file: 'gsd-check-1.0.0-packages.tar', size: size(124_300_000), count: 22 },
    runtimes: [{ path: 'runtimes/linux-x64', size: size(189_000_000) }],
    seconds: { total: 177, rebuild: 56 },
  };
  writeFileSync(join(dir, 'page.md'), '# Page\n\nbefore\n\n<!-- release-figures:begin -->\nold\n<!-- release-figures:end -->\n\nafter\n');
  assert.equal(writeFigures(join(dir, 'page.md'), figures), true);
  const page = readFileSync(join(dir, 'page.md'), 'utf8');
  assert.equal(page, `# Page\n\nbefore\n\n${figuresBlock(figures)}\n\nafter\n`);
  assert.deepEqual(readFigures(page)!.figures, figures);
  assert.ok(
    figuresBlock(figures).includes(
      '| `gsd-check` | 215 kB |\n| `gsd-check-linux-x64` | 127.4 MB |\n| `gsd-check-1.0.0-packages.tar` | 124.3 MB, 22 packages |',
    ),
  );
  writeFileSync(join(dir, 'bare.md'), '# Page\n');
  assert.equal(writeFigures(join(dir, 'bare.md'), figures), false);
  assert.equal(readFileSync(join(dir, 'bare.md'), 'utf8'), '# Page\n');
});

// A size or a duration, in the units the docs use (not a 2-core machine, not Node 24).
const MEASURED = /\b\d[\d,.]*\s?(?:[kMG]i?B|ms|s|min)\b/;

test('the pages about building and installing give no size or time of it without the date it was measured', () => {
  const undated: string[] = [];
  for (const file of ['docs/how-to/install.md', 'docs/how-to/use-the-standalone-binary.md', 'docs/maintainers/build-and-release.md']) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const read = readFigures(text);
    const rest = read === undefined ? text : text.replace(read.block, '');
    for (const paragraph of rest.split(/\n\s*\n/)) {
      if (MEASURED.test(paragraph) && !/\b\d{4}-\d{2}-\d{2}\b/.test(paragraph))
        undated.push(`${file}: ${MEASURED.exec(paragraph)![0]} in "${paragraph.trim().slice(0, 80)}…"`);
    }
  }
  assert.deepEqual(undated, []);
});
