// The figures of a release, as docs/how-to/install.md shows them between its
// release-figures markers: what was measured (each file's size, the packages,
// the pinned Nodes installed, how long it took), and on what (the date, the
// commit, Node, npm, the cores), so that a figure in the doc is always a
// dated measurement written by the release itself, never one typed in that
// goes stale. release.mjs measures and writes them (--write-doc); the test
// reads them back and checks them against the commit they name.
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIGURES_PAGE = 'docs/how-to/install.md';
const BEGIN = '<!-- release-figures:begin -->';
const END = '<!-- release-figures:end -->';

// Bytes as the docs give sizes: kB under a megabyte, else MB to a tenth (SI).
export const size = (bytes) => (bytes < 1e6 ? `${Math.round(bytes / 1e3)} kB` : `${(bytes / 1e6).toFixed(1)} MB`);

// The bytes of every file under `path`, links not followed.
export function treeBytes(path) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + treeBytes(join(path, name)), 0);
}

// The block for figures { version, date, commit, node, npm, cores, files:
// [{ name, size }], packages: { file, size, count }, runtimes: [{ path,
// size }], seconds: { total, rebuild } }, sizes already as size() gives them.
export function figuresBlock(f) {
  return [
    BEGIN,
    `\`npm run release\` of gsd-check ${f.version} on ${f.date}, at ${f.commit}, with Node ${f.node} and npm ${f.npm} on a ${f.cores}-core machine:`,
    '',
    '| File | Size |',
    '| --- | ---: |',
    ...f.files.map((file) => `| \`${file.name}\` | ${file.size} |`),
    `| \`${f.packages.file}\` | ${f.packages.size}, ${f.packages.count} packages |`,
    '',
    `The pinned Nodes installed in the checkout: ${f.runtimes.map((r) => `\`${r.path}\` ${r.size}`).join(', ')}. The release took ${f.seconds.total} s, ${f.seconds.rebuild} s of it the offline rebuild's steps.`,
    END,
  ].join('\n');
}

// The figures the page's block holds, or undefined when it holds none.
export function readFigures(page) {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end < start) return undefined;
  const lines = page.slice(start + BEGIN.length + 1, end).split('\n');
  const head = /^`npm run release` of gsd-check (\S+) on (\S+), at (\S+), with Node (\S+) and npm (\S+) on a (\d+)-core machine:$/.exec(lines[0] ?? '');
  const tail = /^The pinned Nodes installed in the checkout: (.+)\. The release took (\d+) s, (\d+) s of it the offline rebuild's steps\.$/.exec(
    lines.at(-2) ?? '',
  );
  if (head === null || tail === null) return { block: page.slice(start, end + END.length), figures: undefined };
  const rows = lines.slice(4, -3).map((line) => /^\| `([^`]+)` \| (.+) \|$/.exec(line));
  const files = rows.filter((r) => r !== null && !/, \d+ packages$/.test(r[2])).map((r) => ({ name: r[1], size: r[2] }));
  const pack = rows.find((r) => r !== null && /, \d+ packages$/.test(r[2]));
  const [, packSize, count] = /^(.+), (\d+) packages$/.exec(pack?.[2] ?? '') ?? [];
  const figures = {
    version: head[1],
    date: head[2],
    commit: head[3],
    node: head[4],
    npm: head[5],
    cores: Number(head[6]),
    files,
    packages: { file: pack?.[1], size: packSize, count: Number(count) },
    runtimes: tail[1]
      .split(', ')
      .map((r) => /^`([^`]+)` (.+)$/.exec(r))
      .map((m) => ({ path: m?.[1], size: m?.[2] })),
    seconds: { total: Number(tail[2]), rebuild: Number(tail[3]) },
  };
  return { block: page.slice(start, end + END.length), figures };
}

// Writes the block into the page between its markers; false when it has none.
export function writeFigures(path, figures) {
  const page = readFileSync(path, 'utf8');
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end < start) return false;
  writeFileSync(path, page.slice(0, start) + figuresBlock(figures) + page.slice(end + END.length));
  return true;
}

export const hasFigureMarkers = (page) => page.indexOf(BEGIN) !== -1 && page.indexOf(END) > page.indexOf(BEGIN);
