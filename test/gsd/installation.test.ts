import { testGateContext } from '../helpers/deps.ts';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from '../helpers/bounded.ts';
import { writeTree } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';
import { fakeRunner, type RunResultSketch } from '../helpers/fake-runner.ts';
import { fail, ok } from '../../src/failure.ts';
import { agentHomes, findGsd, gsdCommand, locateGsd, runtimeRoot } from '../../src/gsd/installation.ts';
import type { GateContext } from '../../src/predicate/kind.ts';
import type { RunOptions } from '../../src/run/runner.ts';

// Which GSD gsd_run finds, in the order GSD 1.14's skills carry in their
// preamble, laid out in temp trees: nothing of the machine's PATH or home is
// looked at (every env is the test's own).

const TOOLS = join('gsd-core', 'bin', 'gsd-tools.cjs');

// findGsd's world: git's answer for the top level, and nothing else runs.
const signal = new AbortController().signal;
const force = new AbortController().signal;
const stdout = (text: string) => ({ stdout: { text, complete: true } });
function context(root: string, world: { readonly top?: RunResultSketch } = {}, env: Record<string, string> = {}): { context: GateContext; seen: RunOptions[] } {
  const seen: RunOptions[] = [];
  const run = fakeRunner(
    (options) =>
      options.command === 'git rev-parse --show-toplevel' ? (world.top ?? { exitCode: 128 }) : assert.fail(`unexpected command: ${options.command}`),
    seen,
  );
  return {
    context: testGateContext(root, run, { env, killAfterMs: 250, signal, force }),
    seen,
  };
}
function installed(t: TestContext) {
  const root = tempDir(t);
  writeTree(root, { [TOOLS]: '' });
  return { root, gsd: { path: join(root, TOOLS), how: 'node' as const, found: join(root, 'gsd-core/bin') } };
}

// An executable launcher named `name` in a new directory of `root`.
function launcher(root: string, dir: string, name: string, mode = 0o755): string {
  const path = join(root, dir, name);
  writeTree(root, { [join(dir, name)]: '#!/bin/sh\n' });
  chmodSync(path, mode);
  return join(root, dir);
}

test('the root: RUNTIME_DIR when given and not empty, else the checkout git names, else the working directory', () => {
  assert.equal(runtimeRoot({ RUNTIME_DIR: '/runtime' }, '/top', '/cwd'), '/runtime');
  assert.equal(runtimeRoot({ RUNTIME_DIR: '' }, '/top', '/cwd'), '/top');
  assert.equal(runtimeRoot({}, '/top', '/cwd'), '/top');
  assert.equal(runtimeRoot({}, undefined, '/cwd'), '/cwd');
  assert.equal(runtimeRoot({ RUNTIME_DIR: '' }, undefined, '/cwd'), '/cwd');
});

test("at the root: gsd-core/, then .claude/'s, then .codex/'s gsd-tools.cjs, run by node", (t) => {
  const root = tempDir(t);
  writeTree(root, { [TOOLS]: '', [join('.claude', TOOLS)]: '', [join('.codex', TOOLS)]: '' });
  const found: unknown[] = [];
  for (const dir of ['', '.claude', '.codex']) {
    found.push(locateGsd(root, {}));
    rmSync(join(root, dir, TOOLS));
  }
  found.push(locateGsd(root, {}));
  assert.deepEqual(found, [
    { path: join(root, TOOLS), how: 'node', found: join(root, 'gsd-core/bin') },
    { path: join(root, '.claude', TOOLS), how: 'node', found: join(root, '.claude/gsd-core/bin') },
    { path: join(root, '.codex', TOOLS), how: 'node', found: join(root, '.codex/gsd-core/bin') },
    undefined,
  ]);
});

test('at the root, only a file counts: a directory in its place, or a link to nothing, is passed over; a link to a file is taken as named', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, TOOLS), { recursive: true });
  mkdirSync(join(root, '.claude/gsd-core/bin'), { recursive: true });
  symlinkSync(join(root, 'nowhere.cjs'), join(root, '.claude', TOOLS));
  writeTree(root, { 'real/gsd-tools.cjs': '' });
  mkdirSync(join(root, '.codex/gsd-core/bin'), { recursive: true });
  symlinkSync(join(root, 'real/gsd-tools.cjs'), join(root, '.codex', TOOLS));
  assert.deepEqual(locateGsd(root, {}), { path: join(root, '.codex', TOOLS), how: 'node', found: join(root, '.codex/gsd-core/bin') });
  rmSync(join(root, '.codex', TOOLS));
  assert.equal(locateGsd(root, {}), undefined);
});

test('then on PATH: gsd_run, else gsd-tools, each the first executable file of an absolute PATH entry, run itself', (t) => {
  const root = tempDir(t);
  const tools = launcher(root, 'a', 'gsd-tools');
  const run = launcher(root, 'b', 'gsd_run');
  // gsd_run anywhere on PATH comes before gsd-tools earlier on it.
  assert.deepEqual(locateGsd(root, { PATH: `${tools}:${run}` }), { path: join(run, 'gsd_run'), how: 'exec', found: 'gsd_run on PATH' });
  assert.deepEqual(locateGsd(root, { PATH: `${tools}:${join(root, 'none')}` }), { path: join(tools, 'gsd-tools'), how: 'exec', found: 'gsd-tools on PATH' });
  // A gsd-tools.cjs at the root comes first.
  writeTree(root, { [TOOLS]: '' });
  assert.deepEqual(locateGsd(root, { PATH: run }), { path: join(root, TOOLS), how: 'node', found: join(root, 'gsd-core/bin') });
});

test('on PATH, what is not run is passed over: a file that is not executable, a directory, a relative entry, an empty one', (t) => {
  const root = tempDir(t);
  const plain = launcher(root, 'plain', 'gsd_run', 0o644);
  mkdirSync(join(root, 'dir/gsd_run'), { recursive: true });
  launcher(root, 'rel', 'gsd_run');
  const good = launcher(root, 'good', 'gsd-tools');
  const env = { PATH: `${plain}::${join(root, 'dir')}:rel:./rel:${good}` };
  const cwd = process.cwd();
  process.chdir(root);
  try {
    assert.deepEqual(locateGsd(join(root, 'elsewhere'), env), { path: join(good, 'gsd-tools'), how: 'exec', found: 'gsd-tools on PATH' });
  } finally {
    process.chdir(cwd);
  }
  assert.equal(locateGsd(root, { PATH: `${plain}:rel` }), undefined);
  assert.equal(locateGsd(root, {}), undefined);
});

// The agents' homes in the preamble's order: each variable, and where it
// defaults to under HOME (or XDG_CONFIG_HOME, else ~/.config).
const HOMES: readonly [string, string][] = [
  ['CLAUDE_CONFIG_DIR', '.claude'],
  ['HERMES_HOME', '.hermes'],
  ['CURSOR_CONFIG_DIR', '.cursor'],
  ['CODEX_HOME', '.codex'],
  ['GEMINI_CONFIG_DIR', '.gemini'],
  ['COPILOT_CONFIG_DIR', '.copilot'],
  ['WINDSURF_CONFIG_DIR', '.codeium/windsurf'],
  ['AUGMENT_CONFIG_DIR', '.augment'],
  ['TRAE_CONFIG_DIR', '.trae'],
  ['QWEN_CONFIG_DIR', '.qwen'],
  ['CODEBUDDY_CONFIG_DIR', '.codebuddy'],
  ['CLINE_CONFIG_DIR', '.cline'],
  ['GROK_AGENTS_HOME', '.agents'],
  ['ANTIGRAVITY_CONFIG_DIR', '.gemini/antigravity'],
  ['OPENCODE_CONFIG_DIR', '.config/opencode'],
  ['KILO_CONFIG_DIR', '.config/kilo'],
];

test("last, the agents' homes under HOME, in the preamble's order, after PATH", (t) => {
  const root = tempDir(t);
  const home = join(root, 'home');
  writeTree(home, Object.fromEntries(HOMES.map(([, dir]) => [join(dir, TOOLS), ''])));
  const run = launcher(root, 'bin', 'gsd_run');
  assert.deepEqual(locateGsd(join(root, 'project'), { HOME: home, PATH: run }), { path: join(run, 'gsd_run'), how: 'exec', found: 'gsd_run on PATH' });
  const found: string[] = [];
  for (let gsd = locateGsd(join(root, 'project'), { HOME: home }); gsd !== undefined; gsd = locateGsd(join(root, 'project'), { HOME: home })) {
    assert.deepEqual(gsd, { path: join(gsd.found, 'gsd-tools.cjs'), how: 'node', found: gsd.found });
    found.push(gsd.found);
    rmSync(gsd.path);
  }
  assert.deepEqual(
    found,
    HOMES.map(([, dir]) => join(home, dir, 'gsd-core/bin')),
  );
});

test("HOME unset or empty: the agents' homes are the preamble's /.claude and the rest, not paths relative to where gsd-check runs", () => {
  const atRoot = HOMES.map(([, dir]) => `/${dir}`);
  for (const env of [{}, { HOME: '' }])
    assert.deepEqual(
      agentHomes(env).map((dir) => join(dir)),
      atRoot,
    );
  // sh joins text: a HOME that ends in / gives a //, which names the same folder.
  assert.deepEqual(agentHomes({ HOME: '/h/' }).slice(0, 1), ['/h//.claude']);
  assert.deepEqual(agentHomes({ HOME: '/h', XDG_CONFIG_HOME: '' }).slice(-1), ['/h/.config/kilo']);
});

test("each home's variable stands for its default, and an empty one does not; XDG_CONFIG_HOME for ~/.config", (t) => {
  const root = tempDir(t);
  const home = join(root, 'home');
  mkdirSync(home);
  const elsewhere = join(root, 'elsewhere');
  writeTree(elsewhere, { [TOOLS]: '' });
  for (const [variable] of HOMES) {
    assert.deepEqual(
      locateGsd(root, { HOME: home, [variable]: elsewhere }),
      { path: join(elsewhere, TOOLS), how: 'node', found: join(elsewhere, 'gsd-core/bin') },
      variable,
    );
  }
  // Set, the variable replaces the default: ~/.claude is not looked at.
  writeTree(home, { [join('.claude', TOOLS)]: '' });
  assert.equal(locateGsd(root, { HOME: home, CLAUDE_CONFIG_DIR: join(root, 'empty') }), undefined);
  assert.deepEqual(locateGsd(root, { HOME: home, CLAUDE_CONFIG_DIR: '' }), {
    path: join(home, '.claude', TOOLS),
    how: 'node',
    found: join(home, '.claude/gsd-core/bin'),
  });
  rmSync(join(home, '.claude', TOOLS));
  const xdg = join(root, 'xdg');
  writeTree(xdg, { [join('kilo', TOOLS)]: '' });
  assert.deepEqual(locateGsd(root, { HOME: home, XDG_CONFIG_HOME: xdg }), {
    path: join(xdg, 'kilo', TOOLS),
    how: 'node',
    found: join(xdg, 'kilo/gsd-core/bin'),
  });
  writeTree(home, { [join('.config/opencode', TOOLS)]: '' });
  assert.deepEqual(locateGsd(root, { HOME: home, XDG_CONFIG_HOME: xdg }), {
    path: join(xdg, 'kilo', TOOLS),
    how: 'node',
    found: join(xdg, 'kilo/gsd-core/bin'),
  });
  assert.deepEqual(locateGsd(root, { HOME: home, XDG_CONFIG_HOME: '' }), {
    path: join(home, '.config/opencode', TOOLS),
    how: 'node',
    found: join(home, '.config/opencode/gsd-core/bin'),
  });
});

test('a home that is not absolute (no HOME, a relative variable) is never looked in, wherever gsd-check runs', (t) => {
  const cwd = tempDir(t);
  writeTree(cwd, { [join('.claude', TOOLS)]: '', [join('rel', TOOLS)]: '' });
  const was = process.cwd();
  process.chdir(cwd);
  try {
    assert.equal(locateGsd(join(cwd, 'project'), {}), undefined);
    assert.equal(locateGsd(join(cwd, 'project'), { CLAUDE_CONFIG_DIR: 'rel', HOME: join(cwd, 'nobody') }), undefined);
  } finally {
    process.chdir(was);
  }
});

test('the command line for sh: node and the script, or the launcher, each path quoted, the arguments as given', () => {
  assert.equal(
    gsdCommand({ path: '/p/gsd-core/bin/gsd-tools.cjs', how: 'node', found: '/p/gsd-core/bin' }, 'runtime-identity --raw'),
    "node '/p/gsd-core/bin/gsd-tools.cjs' runtime-identity --raw",
  );
  assert.equal(
    gsdCommand({ path: '/usr/bin/gsd_run', how: 'exec', found: 'gsd_run on PATH' }, 'loop render-hooks ship:pre --raw'),
    "'/usr/bin/gsd_run' loop render-hooks ship:pre --raw",
  );
  assert.equal(gsdCommand({ path: "/it's $(here)/gsd_run", how: 'exec', found: 'gsd_run on PATH' }, 'x'), "'/it'\\''s $(here)/gsd_run' x");
});

test("findGsd: from the checkout's top level git names, asked from the project root with the run's env, signals and a bound", async (t) => {
  const top = tempDir(t);
  writeTree(top, { [TOOLS]: '' });
  const root = join(top, 'sub');
  mkdirSync(root);
  const { context: at, seen } = context(root, { top: stdout(`${top}\n`) }, { PATH: '/nowhere' });
  assert.deepEqual(await findGsd(at, undefined), ok({ path: join(top, TOOLS), how: 'node', found: join(top, 'gsd-core/bin') }));
  assert.deepEqual(seen, [
    {
      command: 'git rev-parse --show-toplevel',
      cwd: root,
      env: { PATH: '/nowhere' },
      timeoutMs: 10_000,
      killAfterMs: 250,
      signal,
      force,
      keepStdout: 64 * 1024,
    },
  ]);
});

test('findGsd: the project root when git names no top level (not a checkout, no git, an answer cut short or blank); RUNTIME_DIR over both', async (t) => {
  const top = tempDir(t);
  writeTree(top, { [TOOLS]: '' });
  const { root, gsd } = installed(t);
  const answers: RunResultSketch[] = [
    { exitCode: 128 },
    { spawnError: 'ENOENT' },
    { timedOut: true, exitCode: null, signal: 'SIGKILL', ...stdout(top) },
    { exitCode: 1, ...stdout(top) },
    { stdout: { text: top, complete: false } },
    stdout(' \n'),
    {},
  ];
  for (const answer of answers) {
    assert.deepEqual(await findGsd(context(root, { top: answer }).context, undefined), ok(gsd), JSON.stringify(answer));
  }
  const runtime = tempDir(t);
  writeTree(runtime, { [join('.claude', TOOLS)]: '' });
  assert.deepEqual(
    await findGsd(context(root, { top: stdout(top) }, { RUNTIME_DIR: runtime }).context, undefined),
    ok({ path: join(runtime, '.claude', TOOLS), how: 'node', found: join(runtime, '.claude/gsd-core/bin') }),
  );
  assert.deepEqual(await findGsd(context(tempDir(t)).context, undefined), ok(undefined));
});

test("last of all, the project's node_modules/.bin/gsd-tools, as npm links a devDependency's bin: after the agents' homes", (t) => {
  const root = tempDir(t);
  writeTree(root, { 'node_modules/@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs': '' });
  mkdirSync(join(root, 'node_modules/.bin'));
  symlinkSync('../@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs', join(root, 'node_modules/.bin/gsd-tools'));
  const project = join(root, 'app');
  mkdirSync(project);
  assert.deepEqual(locateGsd(root, {}, project), { path: join(root, 'node_modules/.bin/gsd-tools'), how: 'node', found: join(root, 'node_modules/.bin') });
  // The project's own, where the checkout's top level has none.
  const other = tempDir(t);
  assert.deepEqual(locateGsd(other, {}, root), { path: join(root, 'node_modules/.bin/gsd-tools'), how: 'node', found: join(root, 'node_modules/.bin') });
  const home = tempDir(t);
  writeTree(home, { [join('.claude', TOOLS)]: '' });
  assert.equal(locateGsd(root, { HOME: home })?.found, join(home, '.claude/gsd-core/bin'));
});

test('--gsd names the GSD: taken as given, run by node for a script or the npm link, by itself otherwise; a name that is no file fails', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'tools/gsd-tools.cjs': '', 'tools/gsd_run': '#!/bin/sh\n', [TOOLS]: '' });
  const { context: at, seen } = context(root);
  assert.deepEqual(
    await findGsd(at, { given: 'tools/gsd-tools.cjs', path: join(root, 'tools/gsd-tools.cjs') }),
    ok({ path: join(root, 'tools/gsd-tools.cjs'), how: 'node', found: '--gsd' }),
  );
  assert.deepEqual(
    await findGsd(at, { given: 'tools/gsd_run', path: join(root, 'tools/gsd_run') }),
    ok({ path: join(root, 'tools/gsd_run'), how: 'exec', found: '--gsd' }),
  );
  assert.deepEqual(seen, [], 'nothing is looked for where gsd_run looks');
  assert.deepEqual(
    await findGsd(at, { given: 'tools', path: join(root, 'tools') }),
    fail('usage', "--gsd tools: no such file (give GSD's gsd-tools.cjs, or the node_modules/.bin/gsd-tools npm links to it)"),
  );
});
