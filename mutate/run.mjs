// npm run mutate [-- --files src/run/,src/text/tail.ts] [--since REF] [--jobs N] [--tests test/a.test.ts,…]
// Mutates src/ in a temporary copy of the repository, runs against each mutant
// the test files that execute its line (mirror test first, then the fastest),
// stops at the first that fails, and prints the score and every survivor.
// Frozen: fixed when it breaks, never extended. StrykerJS, run beside it by
// hand, makes the mutants it lacks; why in docs/maintainers/mutation.md.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { transform } from 'esbuild';
import { coverageDir, coveredLines } from './coverage.mjs';
import { lineOf, mutants } from './mutants.mjs';
import { embeddedProgram } from './program.mjs';
import { checkoutFiles, makeTree, removeTree, run, stopAll } from './tree.mjs';

const ROOT = join(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    files: { type: 'string' },
    since: { type: 'string' },
    jobs: { type: 'string', default: '1' },
    tests: { type: 'string' },
  },
});

// --tests: only these test files are measured and run, a sample that proves
// the harness works (CI runs one) rather than a score of the suite. Set by
// main(), which refuses a name that is not a test file.
let onlyTests;
function selectedTests() {
  return opts.tests
    ?.split(',')
    .filter(Boolean)
    .map((file) => {
      if (!/^test\/.+\.test\.ts$/.test(file) || !existsSync(join(ROOT, file))) throw new Error(`--tests ${file}: not a test file (test/….test.ts)`);
      return file.replace(/^test\//, '.test-out/').replace(/\.ts$/, '.mjs');
    });
}

const walk = (dir) => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

function selectedFiles() {
  let files = walk('src').filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  if (opts.files) {
    const wanted = opts.files.split(',').filter(Boolean);
    files = files.filter((f) => wanted.some((w) => f === w || f.startsWith(w.endsWith('/') ? w : `${w}/`)));
  }
  if (opts.since) {
    const changed = new Set(execFileSync('git', ['diff', '--name-only', opts.since, '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).split('\n'));
    files = files.filter((f) => changed.has(f));
  }
  return files.sort();
}

// "file | source line | mutation | reason" lines: survivors shown to be equivalent.
function equivalents() {
  const text = readFileSync(join(import.meta.dirname, 'equivalent.txt'), 'utf8');
  const keys = text
    .split('\n')
    .filter((l) => l.includes(' | ') && !l.startsWith('#'))
    .map((l) => l.split(' | ').slice(0, 3).join(' | '));
  // A mutant explained twice is a sign that the list was not read before it was written to.
  const twice = keys.filter((key, i) => keys.indexOf(key) !== i);
  if (twice.length > 0) throw new Error(`mutate/equivalent.txt lists these twice:\n${twice.join('\n')}`);
  return new Set(keys);
}

const trees = [];
let stopping = false;
function cleanUp() {
  stopAll();
  for (const t of trees) removeTree(t);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\nmutate: ${sig}, removing the temporary trees`);
    cleanUp();
    process.exit(128 + { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[sig]);
  });
}

// The bundle's code cache goes in the tree, not the user's cache (and the tests'
// temp dirs with it, see tree.mjs): a mutant is a
// program build of its own, and a cache written by another copy would report
// that copy's path in the coverage of this one.
const treeEnv = (tree) => ({ XDG_CACHE_HOME: join(tree, '.cache'), TMPDIR: join(tree, '.tmp') });
const build = (tree) => run(process.execPath, ['build.mjs', '--tests'], { cwd: tree });
const testFiles = (tree) =>
  readdirRec(join(tree, '.test-out'))
    .map((f) => relative(tree, f))
    .filter((f) => onlyTests === undefined || onlyTests.includes(f))
    .sort();
function readdirRec(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? readdirRec(join(dir, e.name)) : e.name.endsWith('.mjs') ? [join(dir, e.name)] : [],
  );
}

function fingerprint() {
  const h = createHash('sha256');
  for (const f of checkoutFiles(ROOT).sort()) {
    h.update(f).update(readFileSync(join(ROOT, f)));
  }
  return h.digest('hex').slice(0, 16);
}

// {test file: {ms, lines: [...]}} for the unmutated tree, cached by content.
async function baseline(tree) {
  const cacheDir = join(ROOT, 'node_modules', '.cache', 'gsd-mutate');
  const sample = onlyTests === undefined ? '' : `-${createHash('sha256').update(onlyTests.join(',')).digest('hex').slice(0, 8)}`;
  const cache = join(cacheDir, `coverage-${fingerprint()}${sample}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8'));
  // The committed build, plus inline source maps for the launcher and the
  // program it embeds, so that the coverage of the CLI tests' processes maps
  // back to src/ lines.
  const mapped = await run(process.execPath, ['build.mjs', '--tests', '--program-maps'], { cwd: tree });
  if (mapped.status !== 0) throw new Error(`build failed:\n${mapped.output}`);
  const launcher = join(tree, 'dist', 'gsd-check');
  const programs = new Map([[launcher, embeddedProgram(launcher)]]);
  const covBase = join(tree, '.coverage');
  const result = {};
  const queue = testFiles(tree);
  process.stderr.write(`mutate: measuring coverage of ${queue.length} test files…\n`);
  const worker = async () => {
    for (let f; (f = queue.shift()); ) {
      const dir = coverageDir(covBase, f);
      const r = await run(process.execPath, ['--test', f], { cwd: tree, env: { ...treeEnv(tree), NODE_V8_COVERAGE: dir, GSD_MUTATE_MAPPED_DIST: '1' } });
      if (r.status !== 0) {
        queue.length = 0;
        throw new Error(`${f} fails on the unmutated tree:\n${r.output.slice(-3000)}`);
      }
      result[f] = { ms: Math.round(r.ms), lines: [...coveredLines(dir, tree, programs)] };
    }
  };
  await settled([worker(), worker()]);
  rmSync(covBase, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cache, JSON.stringify(result));
  return result;
}

// Every one ended, then the first error: a worker still running a test
// would be writing into the tree that the clean-up removes.
async function settled(promises) {
  const failed = (await Promise.allSettled(promises)).find((p) => p.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

// A mutant that changes nothing esbuild emits (it sits in a type) is no mutant.
async function emitted(code) {
  try {
    return (await transform(code, { loader: 'ts', format: 'esm' })).code;
  } catch {
    return null;
  }
}

async function main() {
  const files = selectedFiles();
  if (files.length === 0) throw new Error('no source file selected');
  onlyTests = selectedTests();
  const jobs = Math.max(1, Number(opts.jobs));
  for (let i = 0; i < jobs; i++) trees.push(makeTree(ROOT));
  // Read now to refuse a broken list before the run; read again at the end, so
  // that lines added during a run count.
  const before = equivalents();
  const started = performance.now();
  const cov = await baseline(trees[0]);
  const byLine = new Map();
  for (const [f, { lines }] of Object.entries(cov)) for (const l of lines) byLine.set(l, [...(byLine.get(l) ?? []), f]);

  const todo = [];
  for (const file of files) {
    const src = readFileSync(join(ROOT, file), 'utf8');
    const plain = await emitted(src);
    for (const m of mutants(src)) {
      const code = src.slice(0, m.start) + m.replacement + src.slice(m.end);
      const out = await emitted(code);
      if (out === null || out === plain) continue;
      const line = lineOf(src, m.start);
      const text = src.split('\n')[line - 1].trim();
      const mirror = file.replace(/^src\//, '.test-out/').replace(/\.ts$/, '.');
      const tests = (byLine.get(`${file}:${line}`) ?? []).sort(
        (a, b) => Number(!a.startsWith(mirror)) - Number(!b.startsWith(mirror)) || cov[a].ms - cov[b].ms,
      );
      todo.push({ file, line, text, description: m.description, code, src, tests });
    }
  }
  process.stderr.write(`mutate: ${todo.length} mutants in ${files.length} files, ${jobs} tree(s)\n`);

  // Each tree builds once unmutated (the first one again, without the source
  // maps of the coverage run), and keeps what it built to go back to.
  await settled(trees.map(prepare));
  let done = 0;
  const total = todo.length;
  const results = [];
  const worker = async (tree) => {
    for (let m; (m = todo.shift()); ) {
      let r;
      try {
        r = await runMutant(tree, m, cov);
      } catch (error) {
        todo.length = 0;
        throw error;
      }
      results.push(r);
      done++;
      // Said as they come, so that an interrupted run still tells what it found.
      if (r.status === 'survived' || r.status === 'no-coverage')
        process.stderr.write(`${done}/${total} ${r.status}: ${r.file}:${r.line}: ${r.description} | ${r.text}\n`);
      if (done % 10 === 0)
        process.stderr.write(
          `${done}/${total} done: ${['killed', 'timeout', 'survived', 'no-coverage'].map((s) => `${s} ${results.filter((x) => x.status === s).length}`).join(', ')}\n`,
        );
    }
  };
  await settled(trees.map(worker));
  // A list broken during the run must not cost the run's report: the list as
  // it was at the start counts then, and the error is said.
  let equivalent = before;
  try {
    equivalent = equivalents();
  } catch (error) {
    process.stderr.write(`mutate: ${error.message}\nmutate: counting the list as it was when the run started\n`);
  }
  report(results, equivalent, performance.now() - started, files);
}

// Per tree, the unmutated outputs of its build ({output: bytes}) and the
// files each is made of (build.mjs's .test-out/inputs.json, from esbuild's
// metafile).
const built = new Map();
async function prepare(tree) {
  const r = await build(tree);
  if (r.status !== 0) throw new Error(`build failed:\n${r.output}`);
  const inputs = JSON.parse(readFileSync(join(tree, '.test-out', 'inputs.json'), 'utf8'));
  const outputs = new Map(Object.keys(inputs).map((out) => [out, readFileSync(join(tree, out))]));
  built.set(tree, { inputs, outputs });
}

// What a mutant must rebuild: each program of dist/ (gsd-check, the Action's
// entry) its file goes into, and the
// bundles of the tests it will run that hold its file. Every other output is
// the unmutated one, which a test that does not reach the line cannot tell.
function affected(tree, m) {
  const { inputs } = built.get(tree);
  const programs = Object.keys(inputs).filter((out) => out.startsWith('dist/'));
  const outs = [...programs, ...m.tests].filter((out) => inputs[out]?.inputs.includes(m.file));
  // A test reaches the line only through a bundle that holds its file.
  if (outs.length === 0) throw new Error(`${m.file}:${m.line} is reached by ${m.tests.join(', ')}, but no output holds it: update mutate/run.mjs`);
  return outs;
}

async function runMutant(tree, m, cov) {
  if (m.tests.length === 0) return { ...m, status: 'no-coverage' };
  const path = join(tree, m.file);
  const outs = affected(tree, m);
  writeFileSync(path, m.code);
  try {
    const rebuilt = await run(process.execPath, ['build.mjs', '--only', outs.join(',')], { cwd: tree });
    if (rebuilt.status !== 0) return { ...m, status: 'invalid' };
    for (const t of m.tests) {
      const r = await run(process.execPath, ['--test', t], { cwd: tree, env: treeEnv(tree), timeoutMs: Math.max(15_000, cov[t].ms * 3) });
      if (r.timedOut) return { ...m, status: 'timeout', by: t };
      if (r.status !== 0) return { ...m, status: 'killed', by: t };
    }
    return { ...m, status: 'survived' };
  } finally {
    writeFileSync(path, m.src);
    const { outputs } = built.get(tree);
    for (const out of outs) writeFileSync(join(tree, out), outputs.get(out));
  }
}

function report(results, equivalent, ms, files) {
  const key = (r) => `${r.file} | ${r.text} | ${r.description}`;
  for (const r of results) if ((r.status === 'survived' || r.status === 'no-coverage') && equivalent.has(key(r))) r.status = 'equivalent';
  const count = (rs, s) => rs.filter((r) => r.status === s).length;
  const score = (rs) => {
    const detected = count(rs, 'killed') + count(rs, 'timeout');
    const total = detected + count(rs, 'survived') + count(rs, 'no-coverage');
    return total ? ((100 * detected) / total).toFixed(1) : '-';
  };
  const line = (name, rs) =>
    `${name.padEnd(44)} ${String(count(rs, 'killed')).padStart(6)} ${String(count(rs, 'timeout')).padStart(7)} ${String(count(rs, 'survived')).padStart(8)} ${String(count(rs, 'no-coverage')).padStart(7)} ${String(count(rs, 'equivalent')).padStart(10)} ${score(rs).padStart(6)}`;
  console.log(
    `${'file'.padEnd(44)} ${'killed'.padStart(6)} ${'timeout'.padStart(7)} ${'survived'.padStart(8)} ${'no-cov'.padStart(7)} ${'equivalent'.padStart(10)} ${'score'.padStart(6)}`,
  );
  for (const f of files) {
    const rs = results.filter((r) => r.file === f);
    if (rs.length) console.log(line(f, rs));
  }
  console.log(line('all', results));
  const left = results.filter((r) => r.status === 'survived' || r.status === 'no-coverage');
  if (left.length) console.log(`\nsurvivors (file:line: mutation | source line | tests run):`);
  for (const r of left.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
    console.log(
      `${r.file}:${r.line}: ${r.description} | ${r.text} | ${r.tests.length ? r.tests.map((t) => t.replace('.test-out/', '')).join(' ') : 'no test reaches this line'}`,
    );
  }
  // A timeout counts as killed, but on a loaded machine it may be only slow:
  // named, so that it can be run again with time to spare.
  const slow = results.filter((r) => r.status === 'timeout');
  if (slow.length) console.log(`\ntimed out (counted as killed):`);
  for (const r of slow.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line))
    console.log(`${r.file}:${r.line}: ${r.description} | ${r.text} | ${r.by.replace('.test-out/', '')}`);
  console.log(
    `\nscore ${score(results)}% (killed + timeout over all but equivalent and invalid), ${results.length} mutants, ${count(results, 'invalid')} invalid, ${(ms / 1000).toFixed(0)} s`,
  );
}

main()
  .catch((e) => {
    console.error(`mutate: ${e.message}`);
    process.exitCode = 2;
  })
  .finally(cleanUp);
