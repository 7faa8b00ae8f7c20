// The docs' shape: sections a reader relies on stay, links lead somewhere,
// every page is reachable, and the README stays a README.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/support.ts';
import { docFiles, docText } from './doc-examples.mjs';

// The sections each reference page must keep, as heading paths ("parent >
// child", headings below the page title). An entry ending in " …" matches a
// heading that starts with the rest (a difference's id, whatever its title).
// Add a section here when it must not disappear in an edit.
const REQUIRED_SECTIONS: Record<string, readonly string[]> = {
  'docs/reference/cli.md': ['Flags', 'Flags > Input files', 'Flags > Flag syntax', 'Help', 'Exit status', 'Errors', 'Signals'],
  'docs/reference/predicates.md': [
    'Declaration',
    'Evaluation path',
    'Rules every kind shares',
    '`command-exit-zero`',
    '`command-exit-zero` > Where and how it runs',
    '`command-exit-zero` > Placeholders',
    '`command-exit-zero` > Project root',
    '`command-exit-zero` > Timeout and ending the command',
    '`command-exit-zero` > Output',
    '`command-exit-zero` > Result',
    '`artifact-frontmatter-equals`',
    '`artifact-frontmatter-equals` > Finding the artifact',
    '`artifact-frontmatter-equals` > Reading it',
    '`artifact-frontmatter-equals` > Comparing',
    '`artifact-frontmatter-equals` > Result',
    'Adding a kind',
  ],
  'docs/reference/gates.md': [
    '`gsd-check validate <capability.json>… [--json]`',
    '`gsd-check gates run --point <point> (--capability <file>… | --hooks <file|->)`',
    '`gsd-check gates run --point <point> (--capability <file>… | --hooks <file|->)` > Output',
  ],
  'docs/reference/differences.md': [
    ...['D1', 'D11', 'D12', 'D22'].map((id) => `Exit statuses and output > ${id} …`),
    ...['D13', 'D14', 'D15', 'D16'].map((id) => `Input > ${id} …`),
    ...['D17', 'D18', 'D19', 'D20', 'D21'].map((id) => `Running a command > ${id} …`),
    ...['D2', 'D3', 'D4', 'D5'].map((id) => `Where: the project root and the artifact > ${id} …`),
    ...['D7', 'D8', 'D9', 'D10', 'D30', 'D31'].map((id) => `Reading frontmatter > ${id} …`),
    '`gates run` > D23 …',
  ],
  'docs/reference/environment.md': ['Read by gsd-check', 'Given to the commands it runs', 'Read by the tests and tools of this repository'],
  'docs/reference/platforms.md': ['Node', 'Operating systems', 'GSD'],
  'docs/explanation/reliability.md': ['Load', 'Tests under load', 'Faults', 'Hostile input'],
};

const FILES = docFiles(ROOT);

interface Heading {
  readonly text: string;
  readonly path: string;
  readonly slug: string;
}

// Headings outside code blocks, with their path and GitHub's anchor for them.
function headings(text: string): Heading[] {
  const out: Heading[] = [];
  const chain: string[] = [];
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (open) {
      if (fence === undefined) fence = open[1];
      else if (line.trim().startsWith(fence)) fence = undefined;
      continue;
    }
    const match = fence === undefined ? /^(#{1,6}) (.+?)\s*$/.exec(line) : null;
    if (!match) continue;
    const level = match[1]!.length;
    const title = match[2]!;
    chain.length = level - 1;
    chain[level - 1] = title;
    const base = title
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ text: title, path: chain.slice(1).filter((t) => t !== undefined).join(' > '), slug: n === 0 ? base : `${base}-${n}` });
  }
  return out;
}

// Relative links of a page, outside code: [text](target), target with its anchor.
function links(text: string): string[] {
  const prose = text.replace(/^([ \t]*)(`{3,})[\s\S]*?^\1\2/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

test('each reference page keeps its required sections', () => {
  const missing: string[] = [];
  for (const [file, required] of Object.entries(REQUIRED_SECTIONS)) {
    const paths = headings(docText(ROOT, file)).map((h) => h.path);
    for (const entry of required) {
      const found = entry.endsWith(' …') ? paths.some((p) => p.startsWith(`${entry.slice(0, -1)}`)) : paths.includes(entry);
      if (!found) missing.push(`${file}: ${entry}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('a section cut out of a reference page is caught', () => {
  const text = docText(ROOT, 'docs/reference/predicates.md');
  const cut = text.slice(0, text.indexOf('## `artifact-frontmatter-equals`')) + text.slice(text.indexOf('## Adding a kind'));
  const paths = headings(cut).map((h) => h.path);
  assert.equal(paths.includes('`artifact-frontmatter-equals` > Result'), false);
  assert.equal(paths.includes('`command-exit-zero` > Result'), true);
});

test('every relative link and #anchor of README.md, CONTRIBUTING.md and docs/ leads somewhere', () => {
  const broken: string[] = [];
  for (const file of FILES) {
    for (const link of links(docText(ROOT, file))) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, target))) {
        broken.push(`${file}: ${link} (no ${target})`);
        continue;
      }
      if (anchor === undefined || statSync(join(ROOT, target)).isDirectory()) continue;
      if (!headings(docText(ROOT, target)).some((h) => h.slug === anchor)) broken.push(`${file}: ${link} (no heading #${anchor} in ${target})`);
    }
  }
  assert.deepEqual(broken, []);
});

test('every page under docs/ is linked from another page', () => {
  const linked = new Set<string>();
  for (const file of FILES) {
    for (const link of links(docText(ROOT, file))) {
      const path = link.split('#')[0]!;
      if (path !== '') linked.add(normalize(join(dirname(file), path)));
    }
  }
  assert.deepEqual(FILES.filter((f) => f.startsWith('docs/') && !linked.has(f)), []);
});

test('the README is for users: at most 8 KB, and its set-up keeps the two commands the project promises', () => {
  const readme = docText(ROOT, 'README.md');
  assert.ok(Buffer.byteLength(readme) <= 8192, `README.md is ${Buffer.byteLength(readme)} bytes`);
  const setUp = readme.slice(readme.indexOf('## Set-up'));
  assert.ok(setUp.includes(`./dist/gsd-check check predicate --predicate '{"kind":"command-exit-zero","command":"true"}'\n`));
  assert.ok(setUp.includes('npm ci && npm test\n'));
});
