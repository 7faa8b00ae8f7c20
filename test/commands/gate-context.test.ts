import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { texts } from '../helpers/deps.ts';
import type { EvalOptions } from '../../src/cli/eval-options.ts';
import type { CliDeps } from '../../src/commands/deps.ts';
import { gsdPaths } from '../../src/project/shown-path.ts';
import { gateContext } from '../../src/commands/gate-context.ts';
import { isReadableDirectory } from '../../src/fs/entry.ts';
import { fakeRunner } from '../helpers/fake-runner.ts';
import { project, writeTree } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';
import { ok } from '../../src/failure.ts';

const options: EvalOptions = { killAfter: 1.5, currentPhase: false, raw: false, exitCode: false, jsonErrors: false };
const never = new AbortController().signal;

function deps(dir: string, world: Partial<CliDeps> = {}): CliDeps {
  return {
    run: fakeRunner(),
    readInput: texts(async () => ok('')),
    cwd: () => dir,
    home: undefined,
    uid: undefined,
    env: { X: '1' },
    github: { actions: false, workspace: undefined, stepSummary: undefined, commit: undefined },
    canEnter: isReadableDirectory,
    signal: never,
    force: never,
    warn: (line) => assert.fail(`unexpected warning: ${line}`),
    ...world,
  };
}

const failure = (result: ReturnType<typeof gateContext>) => (result.ok ? 'accepted' : [result.failure.reason, result.failure.message]);

test('the project root found from --cwd, the phase values, the kill-after grace in ms', (t) => {
  const root = project(t, { '.planning/phases/04-ship': null, 'src/deep': null });
  const context = gateContext({ ...options, cwd: 'src/deep', phaseNumber: '04', phaseReqIds: 'R1' }, deps(root), gsdPaths);
  assert.ok(context.ok);
  const { run: _, signal, force, paths, ...rest } = context.value;
  // The paths are shown as the command asked, for the project root found.
  assert.deepEqual([paths.artifact(join(root, 'X.md')), paths.place(join(root, 'X.md'))], ['X.md', join(root, 'X.md')]);
  // The stop signals are the command's own, handed on.
  assert.deepEqual([signal === never, force === never], [true, true]);
  assert.deepEqual(rest, {
    projectRoot: root,
    phaseNumber: '04',
    phaseDir: undefined,
    phaseDirLookup: { phaseNumber: '04', searched: join(root, '.planning/phases'), matches: [join(root, '.planning/phases/04-ship')] },
    phaseReqIds: 'R1',
    planning: ok({ project: undefined, workstream: undefined }),
    env: { X: '1' },
    killAfterMs: 1500,
  });
  const given = gateContext({ ...options, phaseDir: '.planning/phases/04-ship' }, deps(root), gsdPaths);
  assert.deepEqual(given.ok && [given.value.phaseDir, given.value.phaseDirLookup], [join(root, '.planning/phases/04-ship'), undefined]);
});

test('a start that is missing, not a directory, gone, or not ours to enter is bad-cwd, named as given', (t) => {
  const root = tempDir(t);
  writeFileSync(join(root, 'file'), '');
  assert.deepEqual(failure(gateContext({ ...options, cwd: 'none' }, deps(root), gsdPaths)), ['bad-cwd', '--cwd none: no such directory']);
  assert.deepEqual(failure(gateContext({ ...options, cwd: 'file' }, deps(root), gsdPaths)), ['bad-cwd', '--cwd file: not a directory']);
  assert.deepEqual(failure(gateContext(options, deps(join(root, 'none')), gsdPaths)), ['bad-cwd', 'the current directory: no such directory']);
  const gone = () => {
    throw new Error('ENOENT: uv_cwd');
  };
  assert.deepEqual(failure(gateContext(options, deps(root, { cwd: gone }), gsdPaths)), ['bad-cwd', 'the current directory no longer exists']);
  // As root every directory can be entered: the probe stands in for one that cannot.
  const shut = (closed: string) => (dir: string) => dir !== closed;
  assert.deepEqual(failure(gateContext(options, deps(root, { canEnter: shut(root) }), gsdPaths)), [
    'bad-cwd',
    'the current directory: permission denied (cannot list or enter it)',
  ]);
  assert.deepEqual(failure(gateContext({ ...options, cwd: root }, deps(root, { canEnter: shut(root) }), gsdPaths)), [
    'bad-cwd',
    `--cwd ${root}: permission denied (cannot list or enter it)`,
  ]);
  writeTree(root, { '.planning': null, sub: null });
  assert.deepEqual(failure(gateContext({ ...options, cwd: 'sub' }, deps(root, { canEnter: shut(root) }), gsdPaths)), [
    'bad-cwd',
    `project root ${root}: permission denied (cannot list or enter it)`,
  ]);
  assert.equal(gateContext({ ...options, cwd: 'sub' }, deps(root), gsdPaths).ok, true);
});

test('--project-dir is the root, with no search up from it, even beside --cwd, which is still checked first', (t) => {
  const base = project(t, { '.planning': null, 'inner/.planning': null, 'inner/sub': null });
  const at = (projectDir: string, cwd?: string) => {
    const context = gateContext({ ...options, projectDir, ...(cwd === undefined ? {} : { cwd }) }, deps(base), gsdPaths);
    return context.ok ? context.value.projectRoot : failure(context);
  };
  assert.equal(at('inner'), join(base, 'inner'));
  assert.equal(at('inner', 'inner/sub'), join(base, 'inner'));
  // As GSD: --cwd must be a directory even where --project-dir names the
  // root, and it is checked before --project-dir is.
  assert.deepEqual(at('inner', 'elsewhere/missing'), ['bad-cwd', '--cwd elsewhere/missing: no such directory']);
  assert.deepEqual(at('nowhere', 'elsewhere/missing'), ['bad-cwd', '--cwd elsewhere/missing: no such directory']);
  assert.deepEqual(at('inner/sub'), [
    'usage',
    `--project-dir ${join(base, 'inner/sub')} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)`,
  ]);
  const denied = gateContext({ ...options, projectDir: 'inner' }, deps(base, { canEnter: () => false }), gsdPaths);
  assert.deepEqual(failure(denied), ['bad-cwd', `--project-dir ${join(base, 'inner')}: permission denied (cannot list or enter it)`]);
});

test("the run's workstream reaches the command as GSD_WORKSTREAM and scopes the phase lookup", (t) => {
  const root = project(t, {
    '.planning/phases/04-root': null,
    '.planning/workstreams/alpha/phases/04-alpha': null,
    '.planning/workstreams/beta/phases/04-beta': null,
    '.planning/active-workstream': 'beta\n',
  });
  const run = (extra: Partial<EvalOptions>, env: Record<string, string>) => {
    const context = gateContext({ ...options, phaseNumber: '04', ...extra }, deps(root, { env }), gsdPaths);
    return context.ok ? [context.value.env.GSD_WORKSTREAM, context.value.phaseDirLookup?.matches] : failure(context);
  };
  assert.deepEqual(run({ ws: 'alpha' }, { GSD_WORKSTREAM: 'beta' }), ['alpha', [join(root, '.planning/workstreams/alpha/phases/04-alpha')]]);
  assert.deepEqual(run({}, { GSD_WORKSTREAM: ' alpha ' }), ['alpha', [join(root, '.planning/workstreams/alpha/phases/04-alpha')]]);
  assert.deepEqual(run({}, {}), ['beta', [join(root, '.planning/workstreams/beta/phases/04-beta')]]);
  assert.deepEqual(run({}, { GSD_WORKSTREAM: 'my ws' }), [
    'usage',
    'GSD_WORKSTREAM "my ws": a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")',
  ]);
  rmSync(join(root, '.planning/active-workstream'));
  assert.deepEqual(run({}, { GSD_WORKSTREAM: '  ' }), ['  ', [join(root, '.planning/phases/04-root')]]);
});
