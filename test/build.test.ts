// build.mjs's map of what each output is made of (.test-out/inputs.json) and
// its --only rebuild, which the mutation harness trusts to rebuild only what a
// changed source file goes into: an output that does not list the file must
// come out the same, and a partial rebuild must equal a full one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { BUILD_INPUTS } from './helpers/build-inputs.ts';
import { ROOT, tempDir } from './helpers/support.ts';

type Inputs = Record<string, { entry?: string; inputs: string[] }>;

const build = (tree: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, ['build.mjs', ...args], { cwd: tree, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
};
const copy = (from: string, to: string) => {
  for (const name of [...BUILD_INPUTS, 'test']) cpSync(join(from, name), join(to, name), { recursive: true });
  // runtimes/' lockfiles, not its installed Nodes.
  cpSync(join(from, 'runtimes'), join(to, 'runtimes'), { recursive: true, filter: (path) => !path.includes('node_modules') });
  mkdirSync(join(to, 'dist'));
  symlinkSync(join(ROOT, 'node_modules'), join(to, 'node_modules'));
};
const outputs = (tree: string, inputs: Inputs) => new Map(Object.keys(inputs).map((out) => [out, readFileSync(join(tree, out), 'utf8')]));

test('a changed source file changes only the outputs that list it, and --only rebuilds them as a full build does', (t) => {
  const tree = tempDir(t);
  copy(ROOT, tree);
  build(tree, '--tests');
  const inputs = JSON.parse(readFileSync(join(tree, '.test-out', 'inputs.json'), 'utf8')) as Inputs;
  const before = outputs(tree, inputs);
  assert.ok(Object.values(inputs).every(({ entry, inputs: files }) => entry === undefined || files.includes(entry)));

  // The source file the most test bundles hold, changed by a statement no
  // bundler may drop.
  const count = new Map<string, number>();
  for (const { inputs: files } of Object.values(inputs)) for (const f of files) if (f.startsWith('src/')) count.set(f, (count.get(f) ?? 0) + 1);
  const [file] = [...count].sort((a, b) => b[1] - a[1])[0]!;
  const probe = `\n;(globalThis as { gsdBuildProbe?: number }).gsdBuildProbe = 1;\n`;
  appendFileSync(join(tree, file), probe);

  const full = tempDir(t);
  copy(tree, full);
  build(full, '--tests');
  const after = outputs(full, inputs);
  const listing = Object.keys(inputs).filter((out) => inputs[out]!.inputs.includes(file));
  for (const out of Object.keys(inputs)) {
    if (listing.includes(out)) assert.notEqual(after.get(out), before.get(out), `${out} lists ${file} but did not change`);
    else assert.equal(after.get(out), before.get(out), `${out} changed with ${file}, which it does not list`);
  }

  build(tree, '--only', listing.join(','));
  assert.deepEqual(outputs(tree, inputs), after);
});

// Node 22 and 24 take a directory given to --test for a module and run
// nothing, so npm test names the bundles by the shell's globs, one for each
// depth of test/: a test file deeper than they reach would never run.
test("npm test's globs reach every test file build.mjs --tests bundles", () => {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts.test;
  const globs = script.split(' ').filter((word) => word.startsWith('.test-out/'));
  const depths = new Set(globs.map((glob) => glob.split('/').length - 2));
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
    );
  const unreached = files('test').filter((file) => !depths.has(file.split('/').length - 2));
  assert.deepEqual(unreached, []);
  for (const glob of globs) assert.match(glob, /^\.test-out\/(?:\*\/)*\*\.test\.mjs$/, glob);
});

test('a character past ASCII in the program fails the build, named with where it is: it would make the whole program two bytes a character', (t) => {
  const tree = tempDir(t);
  copy(ROOT, tree);
  appendFileSync(join(tree, 'src', 'main.ts'), "\nif (/^caf\u00e9$/.test(process.argv[2] ?? '')) process.exitCode = 3;\n");
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: tree, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /Error: build: the program holds "\u00e9" \(U\+E9\) near ".*caf\u00e9\$\/\.test.*": write it as a \\u escape\n/);
});
