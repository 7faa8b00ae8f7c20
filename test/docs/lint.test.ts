// The docs' shape: sections a reader relies on stay, links lead somewhere
// (in the repository and in a release folder), every path of the repository
// they name is in it, every page is reachable, the README stays a README,
// and no command reaches the registry for gsd-check.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { releaseDocs } from '../../release/docs.mjs';
import { ROOT } from '../helpers/support.ts';
import { docFiles, docText } from './doc-examples.mjs';
import { hasHistory } from '../helpers/history.ts';

// The sections each reference page must keep, as heading paths ("parent >
// child", headings below the page title). An entry ending in " …" matches a
// heading that starts with the rest (a difference's id, whatever its title).
// Add a section here when it must not disappear in an edit.
const REQUIRED_SECTIONS: Record<string, readonly string[]> = {
  'docs/reference/cli.md': ['Flags', 'Flags > Input files', 'Flags > Flag syntax', 'Help', 'Version', 'Exit status', 'Errors', 'Signals'],
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
    '`gsd-check gates run (--point <point>… | --all-points | --reached) (--builtin | --capability <file>… | --hooks <file|-> | --render)`',
    '`gsd-check gates run (--point <point>… | --all-points | --reached) (--builtin | --capability <file>… | --hooks <file|-> | --render)` > Several points in one run',
    "`gsd-check gates run (--point <point>… | --all-points | --reached) (--builtin | --capability <file>… | --hooks <file|-> | --render)` > The points GSD's loop has reached",
    '`gsd-check gates run (--point <point>… | --all-points | --reached) (--builtin | --capability <file>… | --hooks <file|-> | --render)` > Which GSD decides: `--render` and `--builtin`',
    '`gsd-check gates run (--point <point>… | --all-points | --reached) (--builtin | --capability <file>… | --hooks <file|-> | --render)` > Output',
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
    out.push({
      text: title,
      path: chain
        .slice(1)
        .filter((t) => t !== undefined)
        .join(' > '),
      slug: n === 0 ? base : `${base}-${n}`,
    });
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
  assert.deepEqual(
    FILES.filter((f) => f.startsWith('docs/') && !linked.has(f)),
    [],
  );
});

// The paths of this repository a page names, each with its line: anywhere in
// its text (prose, code spans, code blocks, link targets), since a reader
// follows every one and types the ones in a command. A path starts with one
// of the repository's own top-level folders (src/, test/, compat/, …: not
// what .gitignore leaves out, which a build or an install makes), or is a
// file of src/ named from there (`run/runner.ts`, as architecture.md names
// them). `*`, `**`, `<name>` and `…` stand for any name. A bundle in
// .test-out/ stands for the test file it is built from. A file as it was at
// a commit is named in git's own form, `52d9ed5:src/run/tail-buffer.ts`
// (what `git show` takes), and checked at that commit. Not this
// repository's, so not checked: a path inside another (/tmp/demo/src/…,
// js-yaml/dist/…) and whatever is under a node_modules/ (an install's).
interface NamedPath {
  readonly line: number;
  readonly shown: string;
  readonly path: string;
  readonly commit?: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A name within a path: its characters, a `<placeholder>`, a glob.
const SEGMENT = String.raw`(?:[\w.@+*?…-]|<[^<>\s/]+>)+`;

// The top-level folders git keeps: not the build's, nor what a run leaves
// beside them (the mutation harness's trees hold their tests' TMPDIR and
// cache at the top, and those come and go while this test walks).
function topFolders(root: string): string[] {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 30_000 });
  assert.equal(listed.status, 0, `git ls-files: ${listed.stderr}`);
  return [...new Set(listed.stdout.split('\0').flatMap((file) => (file.includes('/') ? [file.slice(0, file.indexOf('/'))] : [])))].sort();
}

function namedPaths(text: string, root: string): NamedPath[] {
  const folders = [...topFolders(root), '.test-out'].map(escapeRegExp).join('|');
  const inSrc = readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => escapeRegExp(e.name))
    .join('|');
  const path = new RegExp(
    String.raw`(?<![\w./~$@:-])(?:([0-9a-f]{7,40}):)?(?:((?:${folders})/(?:${SEGMENT}/?)*)|((?:${inSrc})/(?:${SEGMENT}/)*${SEGMENT}\.ts)(?![\w/]))`,
    'g',
  );
  const out: NamedPath[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(path)) {
      const [shown, commit, rooted, fromSrc] = m as unknown as [string, string | undefined, string | undefined, string | undefined];
      let named = rooted === undefined ? `src/${fromSrc!}` : rooted.replace(/[.…]+$/, (end) => (end.includes('…') ? '…' : ''));
      named = named.replace(/\/node_modules\/.*$/, '/');
      if (named.startsWith('.test-out/')) {
        const bundle = /^\.test-out\/((?:[^/]+\/)*)(?:([^/]+)\.test\.mjs)?$/.exec(named);
        if (bundle === null) continue; // the build's own files (inputs.json)
        named = `test/${bundle[1]!}${bundle[2] === undefined ? '' : `${bundle[2]}.test.ts`}`;
      }
      out.push({ line: i + 1, shown: shown.replace(/\.+$/, ''), path: named, ...(commit === undefined ? {} : { commit }) });
    }
  });
  return out;
}

// Every file and folder (a folder with its trailing /) under the
// repository's top-level folders, node_modules/ left out.
function repositoryPaths(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
      if (e.name === 'node_modules') return [];
      const path = `${dir}/${e.name}`;
      return e.isDirectory() ? [`${path}/`, ...walk(path)] : [path];
    });
  return topFolders(root).flatMap((folder) => (existsSync(join(root, folder)) ? [`${folder}/`, ...walk(folder)] : []));
}

const GLOB = /[*?<…]/;
function globRegExp(glob: string): RegExp {
  const parts = glob.split(/(\*\*\/|\*\*|\*|\?|<[^<>]+>|…)/);
  const body = parts
    .map((part) => ({ '**/': '(?:[^/]+/)*', '**': '.*', '*': '[^/]*', '?': '[^/]', '…': '.*' })[part] ?? (part.startsWith('<') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${body}$`);
}

// Whether the repository holds each path git's way of naming one at a
// commit; undefined when this checkout has no history to look in (a shallow
// clone, or mutate/'s copy of the tree in one commit).
function atCommits(root: string, named: readonly NamedPath[]): Map<string, boolean> | undefined {
  const git = (args: string[], input?: string) => spawnSync('git', args, { cwd: root, input, encoding: 'utf8', timeout: 30_000 });
  if (!hasHistory(root)) return undefined;
  const asked = [...new Set(named.flatMap((p) => (p.commit === undefined ? [] : [`${p.commit}:${p.path.replace(/\/$/, '')}`])))];
  const answers = git(['cat-file', '--batch-check'], asked.map((a) => `${a}\n`).join('')).stdout.split('\n');
  return new Map(asked.map((a, i) => [a, /^[0-9a-f]{40} \w+ \d+$/.test(answers[i] ?? '')]));
}

// Each path of `named` (from `file`) that the repository does not hold, with why.
function missingPaths(file: string, named: readonly NamedPath[], root: string, history: Map<string, boolean> | undefined): string[] {
  let all: string[] | undefined;
  const missing: string[] = [];
  for (const p of named) {
    const at = `${file}:${p.line}: ${p.shown}`;
    if (p.commit !== undefined) {
      if (history !== undefined && !history.get(`${p.commit}:${p.path.replace(/\/$/, '')}`)) missing.push(`${at}: not at ${p.commit}`);
      continue;
    }
    const shown = p.path === p.shown ? '' : ` (${p.path})`;
    if (GLOB.test(p.path)) {
      const glob = globRegExp(p.path);
      all ??= repositoryPaths(root);
      if (!all.some((path) => glob.test(path))) missing.push(`${at}${shown}: matches nothing`);
    } else {
      const target = join(root, p.path.replace(/\/$/, ''));
      if (!existsSync(target)) missing.push(`${at}${shown}: no such file or folder`);
      else if (p.path.endsWith('/') && !statSync(target).isDirectory()) missing.push(`${at}${shown}: not a folder`);
    }
  }
  return missing;
}

test('every path of this repository that README.md, CONTRIBUTING.md and docs/ name is in it', (t) => {
  const named = FILES.map((file) => [file, namedPaths(docText(ROOT, file), ROOT)] as const);
  const history = atCommits(
    ROOT,
    named.flatMap(([, paths]) => paths),
  );
  if (history === undefined) t.diagnostic('no history in this checkout: the paths named at a commit are not checked');
  assert.deepEqual(
    named.flatMap(([file, paths]) => missingPaths(file, paths, ROOT, history)),
    [],
  );
});

test('the path rule catches a path that is not there, in every form a page names one, and only those', () => {
  const page = [
    'Run `node --test .test-out/cli/args.test.mjs`; see `src/cli/args.ts` and [the args](src/cli/args.ts#flags).',
    '```sh',
    'npm run mutate -- --files src/run/,src/run/timer.ts --tests test/**/*.tests.ts',
    '```',
    'A folder that is a file: `src/main.ts/`; from src/: `run/tail-buffer.ts`; a kind: `src/kinds/<kind>.js`.',
    'There: `src/main.ts:116`, `test/main*.test.ts`, `src/kinds/`, `src/kinds/<kind>.ts`, `.test-out/docs/lint.test.mjs`,',
    '`.test-out/inputs.json`, `run/runner.ts`, `src/…`, test/docs/lint.test.ts. And `compat/node_modules/x/bin/y`.',
    "Not this repository's: `/tmp/demo/src/x.ts`, `~/src/x.ts`, `$HOME/test/x`, js-yaml/dist/js-yaml.js, `.planning/phases/`.",
  ].join('\n');
  assert.deepEqual(missingPaths('page.md', namedPaths(page, ROOT), ROOT, undefined), [
    'page.md:1: .test-out/cli/args.test.mjs (test/cli/args.test.ts): no such file or folder',
    'page.md:1: src/cli/args.ts: no such file or folder',
    'page.md:1: src/cli/args.ts: no such file or folder',
    'page.md:3: src/run/timer.ts: no such file or folder',
    'page.md:3: test/**/*.tests.ts: matches nothing',
    'page.md:5: src/main.ts/: not a folder',
    'page.md:5: run/tail-buffer.ts (src/run/tail-buffer.ts): no such file or folder',
    'page.md:5: src/kinds/<kind>.js: matches nothing',
  ]);
});

test('a path named at a commit is checked at that commit', (t) => {
  const page =
    'Then `52d9ed5:src/run/tail-buffer.ts` and `52d9ed5:src/run/` were there; `52d9ed5:src/run/buffer.ts` was not, nor `fb2ad74:src/run/tail-buffer.ts:104`.';
  const named = namedPaths(page, ROOT);
  const history = atCommits(ROOT, named);
  if (history === undefined) return t.skip('no history in this checkout');
  assert.deepEqual(missingPaths('page.md', named, ROOT, history), [
    'page.md:1: 52d9ed5:src/run/buffer.ts: not at 52d9ed5',
    'page.md:1: fb2ad74:src/run/tail-buffer.ts: not at fb2ad74',
  ]);
});

// 11 KB since the Action's section (its `uses:`, inputs, outputs,
// permissions and a halt), which an Action user reads here or nowhere.
test('the README is for users: at most 11 KB, and its set-up keeps the two commands the project promises', () => {
  const readme = docText(ROOT, 'README.md');
  assert.ok(Buffer.byteLength(readme) <= 11 * 1024, `README.md is ${Buffer.byteLength(readme)} bytes`);
  const setUp = readme.slice(readme.indexOf('## Set-up'));
  assert.ok(setUp.includes(`./dist/gsd-check check predicate --predicate '{"kind":"command-exit-zero","command":"true"}'\n`));
  assert.ok(setUp.includes('npm ci && npm test\n'));
});

test('the pages a release folder carries link only to pages it carries', () => {
  const carried = releaseDocs(ROOT);
  const broken: string[] = [];
  for (const file of carried.filter((f) => f.endsWith('.md'))) {
    for (const link of links(docText(ROOT, file))) {
      const path = link.split('#')[0]!;
      const target = path === '' ? file : normalize(join(dirname(file), path)).replace(/\/$/, '');
      if (!carried.some((c) => c === target || c.startsWith(`${target}/`))) broken.push(`${file}: ${link}`);
    }
  }
  assert.deepEqual(broken, []);
});

// A command that runs gsd-check by its name through npx or npm exec, or
// installs it by name: npm takes the name to the registry when no local
// install has it, where gsd-check is not this project's (unclaimed: anyone
// may publish it), and npx in CI runs what it fetched without asking. Safe:
// --no (never fetch) and --package with a path.
function reachesRegistry(line: string): boolean {
  const words = line.split(/\s+/).filter((w) => w !== '');
  // A path, or a placeholder for one (<tarball>).
  const path = (w: string | undefined) => w !== undefined && (/^[./~<]/.test(w) || w.endsWith('.tgz'));
  for (let i = 0; i < words.length; i++) {
    const exec = words[i] === 'npx' ? i + 1 : words[i] === 'npm' && ['exec', 'x'].includes(words[i + 1]!) ? i + 2 : -1;
    if (exec !== -1) {
      let safe = false;
      let j = exec;
      for (; j < words.length && words[j]!.startsWith('-') && words[j] !== '--'; j++) {
        const [flag, value] = words[j]!.split('=') as [string, string | undefined];
        if (flag === '--no' || flag === '--no-install') safe = true;
        if (flag === '--package' || flag === '-p') {
          const named = value ?? words[++j];
          if (path(named)) safe = true;
          else if (named === 'gsd-check' || named?.startsWith('gsd-check@')) return true;
        }
      }
      if (words[j] === '--') j++;
      if (!safe && /^gsd-check(@|$)/.test(words[j] ?? '')) return true;
    }
    if (words[i] === 'npm' && ['i', 'install', 'add'].includes(words[i + 1]!)) {
      if (words.slice(i + 2).some((w) => /^gsd-check(@|$)/.test(w))) return true;
    }
  }
  return false;
}

// What a page tells a reader to type, with its line: the lines of code
// blocks, and the inline code spans of the rest (prose may name a form to
// warn of it).
function code(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (open) {
      if (fence === undefined) fence = open[1];
      else if (line.trim().startsWith(fence)) fence = undefined;
    } else if (fence !== undefined) out.push({ line: i + 1, text: line });
    else for (const [, span] of line.matchAll(/`([^`]+)`/g)) out.push({ line: i + 1, text: span! });
  });
  return out;
}

test('no page runs or installs gsd-check by its name through the registry (npx --no, ./node_modules/.bin, --package <tarball>)', () => {
  const reaching = FILES.flatMap((file) =>
    code(docText(ROOT, file)).flatMap(({ line, text }) => (reachesRegistry(text) ? [`${file}:${line}: ${text.trim()}`] : [])),
  );
  assert.deepEqual(reaching, []);
});

test('the registry rule catches each form that can fetch gsd-check, and only those', () => {
  for (const line of [
    'npx gsd-check --version',
    'npx --yes gsd-check',
    'npm exec gsd-check',
    'npm exec -- gsd-check check predicate',
    'npm x gsd-check',
    'npx --package gsd-check gsd-check',
    'npx -p gsd-check@1.0.0 gsd-check',
    'npm install --save-dev gsd-check',
    'npm i -g gsd-check@1.0.0',
  ]) {
    assert.equal(reachesRegistry(line), true, line);
  }
  assert.deepEqual(
    code('Run `npx gsd-check` here.\n\n```sh\nnpx gsd-check --version\n```\n').map((c) => reachesRegistry(c.text)),
    [true, true],
  );
  for (const line of [
    'npx --no gsd-check --version',
    'npx --package ./gsd-check-1.0.0.tgz gsd-check check predicate',
    'npx --package=/opt/gsd-check-1.0.0.tgz gsd-check',
    './node_modules/.bin/gsd-check --version',
    'npm install -g ./gsd-check',
    'npm install --offline ./vendor/gsd-check-1.0.0.tgz',
    'npx tsc',
    'npm exec --no -- gsd-check',
    'npx --package <tarball> gsd-check',
  ]) {
    assert.equal(reachesRegistry(line), false, line);
  }
});

// A config a page offers is a file a reader copies: each is marked with its
// kind and path (test/docs/ci-files.mjs), and so parsed and run by its tool.
test('every yaml block of the docs is a CI file the tests parse and run', () => {
  const unmarked = docFiles(ROOT).flatMap((file) => {
    const lines = docText(ROOT, file).split('\n');
    return lines.flatMap((line, i) => {
      if (line.trim() !== '```yaml') return [];
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      return /^<!-- ci-file: [\w-]+ \S+ -->$/.test(lines[before] ?? '') ? [] : [`${file}:${i + 1}`];
    });
  });
  assert.deepEqual(unmarked, []);
});

// The Action and the hook repository are pinned by release tag: a page that
// names one names this version's.
test("every release tag the docs pin (uses: …@v, rev: v) is this version's", () => {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const pins = docFiles(ROOT).flatMap((file) => [...docText(ROOT, file).matchAll(/(?:gsd-check@|rev: )v(\d+\.\d+\.\d+)/g)].map((m) => `${file}: v${m[1]}`));
  assert.ok(pins.length >= 3, pins.join('\n'));
  assert.deepEqual(
    pins.filter((pin) => !pin.endsWith(`v${version}`)),
    [],
  );
});
