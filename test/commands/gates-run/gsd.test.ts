import { testGateContext } from '../../helpers/deps.ts';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from '../../helpers/bounded.ts';
import { fakeRunner, type RunResultSketch } from '../../helpers/fake-runner.ts';
import { writeTree } from '../../helpers/project.ts';
import { tempDir } from '../../helpers/support.ts';
import type { GatesOptions } from '../../../src/cli/gates-options.ts';
import { decider as decide } from '../../../src/commands/gates-run/gsd.ts';
import { gsdAsker } from '../../../src/gsd/ask.ts';
import { findGsd } from '../../../src/gsd/installation.ts';
import { ok } from '../../../src/failure.ts';
import type { GateContext } from '../../../src/predicate/kind.ts';
import type { RunOptions } from '../../../src/run/runner.ts';

// Requests asked once each, one after another.
const POOL = <T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> =>
  items.reduce<Promise<R[]>>(async (done, item) => [...(await done), await work(item)], Promise.resolve([]));

// Which GSD decides a run (--render, --builtin) and what it says it is, with
// a runner that starts nothing: git and GSD answer as each test says.

const TOOLS = join('gsd-core', 'bin', 'gsd-tools.cjs');
const IDENTITY_1_14 = '{"packageName":"@opengsd/gsd-core","version":"1.14.0"}\n';
const signal = new AbortController().signal;
const force = new AbortController().signal;

// How git and GSD answer: git's top level, GSD's runtime-identity.
interface World {
  readonly top?: RunResultSketch;
  readonly identity?: RunResultSketch;
}
const stdout = (text: string) => ({ stdout: { text, complete: true } });
const output = (text: string) => ({ text, stdoutBytes: text.length, stderrBytes: 0, truncated: false });

function context(root: string, world: World = {}, env: Record<string, string> = {}): { context: GateContext; seen: RunOptions[] } {
  const seen: RunOptions[] = [];
  const run = fakeRunner((options) => {
    if (options.command === 'git rev-parse --show-toplevel') return world.top ?? { exitCode: 128 };
    if (options.command.endsWith(" 'runtime-identity' '--raw'")) return world.identity ?? stdout(IDENTITY_1_14);
    return assert.fail(`unexpected command: ${options.command}`);
  }, seen);
  return {
    context: testGateContext(root, run, { env, killAfterMs: 250, signal, force }),
    seen,
  };
}

// The decider as gates run calls it: nothing named, each GSD asked through its asker.
const decider = (options: GatesOptions, at: GateContext) =>
  decide(
    options,
    () => findGsd(at, undefined),
    (gsd) => gsdAsker(gsd, at, (line) => assert.fail(`unexpected warning: ${line}`), POOL),
  );

const OPTIONS: GatesOptions = {
  points: ['ship:pre'],
  printed: 'point',
  capabilities: [],
  consent: [],
  builtin: false,
  render: false,
  reached: false,
  ship: false,
  requireTestedGsd: false,
  killAfter: 0.25,
  currentPhase: false,
  queryTimeout: 30,
  reports: [],
  raw: true,
  exitCode: false,
  jsonErrors: false,
};
const render: GatesOptions = { ...OPTIONS, render: true };
const builtin: GatesOptions = { ...OPTIONS, builtin: true };

// A project whose top level holds a gsd-tools.cjs, and the GSD found there.
function installed(t: TestContext, files: Record<string, string> = {}) {
  const root = tempDir(t);
  writeTree(root, { [TOOLS]: '', ...files });
  return { root, gsd: { path: join(root, TOOLS), how: 'node' as const, found: join(root, 'gsd-core/bin') } };
}

test('decider: neither --render nor --builtin asks for no GSD, and runs nothing', async (t) => {
  const { root } = installed(t);
  const { context: at, seen } = context(root);
  assert.deepEqual(await decider(OPTIONS, at), ok({ gsd: undefined, report: undefined, warnings: [] }));
  assert.deepEqual(seen, []);
});

test('no GSD found: --render fails, saying where it looked; --builtin runs, its report saying none was found', async (t) => {
  const { context: at, seen } = context(tempDir(t));
  assert.deepEqual(await decider(render, at), {
    ok: false,
    failure: {
      reason: 'spawn-failed',
      message:
        "--render: no GSD found where gsd_run looks (the top level's gsd-core/, .claude/ or .codex/, gsd_run or gsd-tools on PATH, the agents' homes, the project's node_modules/.bin); install GSD, name it with --gsd, or give --hooks",
      issues: [],
    },
  });
  assert.deepEqual(
    await decider({ ...builtin, requireTestedGsd: true }, at),
    ok({ gsd: undefined, report: { found: null, version: null, tested: false, registry: '1.14.0' }, warnings: [] }),
  );
  assert.deepEqual(
    seen.map((s) => s.command),
    ['git rev-parse --show-toplevel', 'git rev-parse --show-toplevel'],
  );
});

test('GSD 1.14 found: asked runtime-identity by node from the project root, tested, no warning; --builtin names the registry', async (t) => {
  const { root, gsd } = installed(t);
  const { context: at, seen } = context(root);
  assert.deepEqual(await decider(render, at), ok({ gsd, report: { found: gsd.path, version: '1.14.0', tested: true }, warnings: [] }));
  assert.deepEqual(seen[1], {
    command: `node '${gsd.path}' 'runtime-identity' '--raw'`,
    cwd: root,
    env: {},
    timeoutMs: 30_000,
    killAfterMs: 250,
    signal,
    force,
    keepStdout: 64 * 1024,
  });
  assert.deepEqual(
    await decider({ ...render, builtin: true }, at),
    ok({ gsd, report: { found: gsd.path, version: '1.14.0', tested: true, registry: '1.14.0' }, warnings: [] }),
  );
});

test("--builtin runs none of GSD's code: its package.json says which it is, or it says none", async (t) => {
  const packaged = (version: string) => installed(t, { 'package.json': JSON.stringify({ name: '@opengsd/gsd-core', version }) });
  const tested = packaged('1.14.3');
  const { context: at, seen } = context(tested.root);
  assert.deepEqual(
    await decider({ ...builtin, requireTestedGsd: true }, at),
    ok({ gsd: tested.gsd, report: { found: tested.gsd.path, version: '1.14.3', tested: true, registry: '1.14.0' }, warnings: [] }),
  );
  assert.deepEqual(
    seen.map((s) => s.command),
    ['git rev-parse --show-toplevel'],
  );
  const other = packaged('1.15.0');
  const building = `--builtin runs GSD 1.14.0's built-in gates, but the GSD gsd_run finds, ${other.gsd.path} (${other.gsd.found}), is GSD 1.15.0 by its package.json: its own gates may differ; --render evaluates what it loads`;
  assert.deepEqual(
    await decider(builtin, context(other.root).context),
    ok({ gsd: other.gsd, report: { found: other.gsd.path, version: '1.15.0', tested: false, registry: '1.14.0' }, warnings: [building] }),
  );
  assert.deepEqual(await decider({ ...builtin, requireTestedGsd: true }, context(other.root).context), {
    ok: false,
    failure: { reason: 'untested-gsd', message: building, issues: [] },
  });
  // A gsd-tools.cjs committed at the top level, with no package: it says nothing, and is not run.
  const bare = installed(t);
  const silent = context(bare.root);
  assert.deepEqual(
    await decider(builtin, silent.context),
    ok({
      gsd: bare.gsd,
      report: { found: bare.gsd.path, version: null, tested: false, registry: '1.14.0' },
      warnings: [
        `--builtin runs GSD 1.14.0's built-in gates, but the GSD gsd_run finds, ${bare.gsd.path} (${bare.gsd.found}), has no package.json beside it that says which GSD it is (--builtin runs none of its code to ask): its own gates may differ; --render evaluates what it loads`,
      ],
    }),
  );
  assert.deepEqual(
    silent.seen.map((s) => s.command),
    ['git rev-parse --show-toplevel'],
  );
});

test('another GSD version: a warning naming both versions; with --require-tested-gsd a failure', async (t) => {
  const { root, gsd } = installed(t);
  const at = context(root, { identity: stdout('{"packageName":"@opengsd/gsd-core","version":"1.15.0"}') }).context;
  const rendering = `the GSD that renders the hooks, ${gsd.path} (${gsd.found}), is GSD 1.15.0; gsd-check is tested with GSD 1.14.x`;
  assert.deepEqual(await decider(render, at), ok({ gsd, report: { found: gsd.path, version: '1.15.0', tested: false }, warnings: [rendering] }));
  assert.deepEqual(await decider({ ...render, requireTestedGsd: true }, at), {
    ok: false,
    failure: { reason: 'untested-gsd', message: rendering, issues: [] },
  });
});

test('a GSD that does not say which it is: how runtime-identity ended, and what its package says when it says', async (t) => {
  const { root, gsd } = installed(t);
  const warned = async (identity: RunResultSketch) => {
    const decided = await decider(render, context(root, { identity }).context);
    assert.ok(decided.ok);
    assert.deepEqual(decided.value.gsd, gsd);
    return [decided.value.report, ...decided.value.warnings];
  };
  const said = (why: string) =>
    `the GSD that renders the hooks, ${gsd.path} (${gsd.found}), did not say which GSD it is (${why}); gsd-check is tested with GSD 1.14.x`;
  const unknown = { found: gsd.path, version: null, tested: false };
  assert.deepEqual(await warned({ exitCode: 1, output: output('\u001b[31mUnknown command: runtime-identity\u001b[0m\n') }), [
    unknown,
    said('runtime-identity exited 1: Unknown command: runtime-identity'),
  ]);
  assert.deepEqual(await warned({ exitCode: 2 }), [unknown, said('runtime-identity exited 2')]);
  assert.deepEqual(await warned({ timedOut: true, exitCode: null, signal: 'SIGKILL' }), [unknown, said('runtime-identity timed out after 30s')]);
  // Past its bound, even an answer that looks whole is not taken.
  assert.deepEqual(await warned({ timedOut: true, exitCode: 0, ...stdout(IDENTITY_1_14) }), [unknown, said('runtime-identity timed out after 30s')]);
  assert.deepEqual(await warned({ exitCode: null, signal: 'SIGSEGV' }), [unknown, said('runtime-identity was killed by SIGSEGV')]);
  assert.deepEqual(await warned({ spawnError: 'EACCES' }), [unknown, said(`${gsd.path} could not start`)]);
  assert.deepEqual(await warned(stdout('Unknown command\n')), [
    unknown,
    said(`${gsd.path} did not say which GSD it is: ${gsd.path}'s runtime-identity answer is not valid JSON: unexpected character at line 1, column 1`),
  ]);
  assert.deepEqual(await warned(stdout('{"packageName":"gsd","version":"1.14.0"}')), [
    unknown,
    said(`${gsd.path} did not prove it is @opengsd/gsd-core: runtime-identity answered packageName "gsd"`),
  ]);
  // A run that kept no stdout has said nothing.
  assert.deepEqual(await warned({}), [
    unknown,
    said(`${gsd.path} did not say which GSD it is: ${gsd.path}'s runtime-identity answer is not valid JSON: unexpected end at line 1, column 1`),
  ]);
});

test("an older GSD's version from its package, beside the file's real path; never tested without runtime-identity's word", async (t) => {
  // npm's layout: a bin link on PATH into the package's gsd-core/bin/.
  const root = tempDir(t);
  const pkg = join(root, 'lib/node_modules/@opengsd/gsd-core');
  writeTree(root, {
    'lib/node_modules/@opengsd/gsd-core/gsd-core/bin/gsd_run': '#!/bin/sh\n',
    'lib/node_modules/@opengsd/gsd-core/package.json': '{"name":"@opengsd/gsd-core","version":"1.11.0"}',
    'project/.planning': null,
  });
  mkdirSync(join(root, 'bin'));
  symlinkSync(join(pkg, 'gsd-core/bin/gsd_run'), join(root, 'bin/gsd_run'));
  chmodSync(join(pkg, 'gsd-core/bin/gsd_run'), 0o755);
  const gsd = { path: join(root, 'bin/gsd_run'), how: 'exec', found: 'gsd_run on PATH' };
  const unknownCommand = { exitCode: 1, output: output('Unknown command: runtime-identity') };
  const { context: at, seen } = context(join(root, 'project'), { identity: unknownCommand }, { PATH: join(root, 'bin') });
  const rendering = `the GSD that renders the hooks, ${gsd.path} (gsd_run on PATH), did not say which GSD it is (runtime-identity exited 1: Unknown command: runtime-identity); its package says 1.11.0; gsd-check is tested with GSD 1.14.x`;
  assert.deepEqual(await decider(render, at), ok({ gsd, report: { found: gsd.path, version: '1.11.0', tested: false }, warnings: [rendering] }));
  assert.equal(seen[1]!.command, `'${gsd.path}' 'runtime-identity' '--raw'`);
  assert.deepEqual(await decider({ ...builtin, requireTestedGsd: true }, at), {
    ok: false,
    failure: {
      reason: 'untested-gsd',
      message: `--builtin runs GSD 1.14.0's built-in gates, but the GSD gsd_run finds, ${gsd.path} (gsd_run on PATH), is GSD 1.11.0 by its package.json: its own gates may differ; --render evaluates what it loads`,
      issues: [],
    },
  });
  // A package that says 1.14.0 is still no proof: only GSD's own answer is.
  writeTree(pkg, { 'package.json': '{"name":"@opengsd/gsd-core","version":"1.14.0"}' });
  const claimed = await decider(render, context(join(root, 'project'), { identity: unknownCommand }, { PATH: join(root, 'bin') }).context);
  assert.deepEqual(claimed.ok && claimed.value.report, { found: gsd.path, version: '1.14.0', tested: false });
});

test('gsd-check told to stop while GSD is asked: the stop, not a warning', async (t) => {
  const { root } = installed(t);
  const decided = await decider(render, context(root, { identity: { interrupted: 'SIGTERM' } }).context);
  assert.deepEqual(decided.ok ? undefined : [decided.failure.reason, decided.failure.message], ['stopped', 'stopped by SIGTERM']);
});
