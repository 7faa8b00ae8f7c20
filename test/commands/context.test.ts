import assert from 'node:assert/strict';
import { rmSync, writeFileSync, mkdirSync, readFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import type { EvalOptions } from '../../src/cli/args.ts';
import { gateContext, type CliDeps, loadLayers, loadCapability, commandSupported, queryCommand } from '../../src/commands/context.ts';
import { ok, fail } from '../../src/failure.ts';
import { fakeRunner } from '../helpers/fake-runner.ts';
import { project, writeTree } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

const options: EvalOptions = { killAfter: 1.5, currentPhase: false, raw: false, exitCode: false, jsonErrors: false };

function deps(dir: string, world: Partial<CliDeps> = {}): CliDeps {
  return { run: fakeRunner(), readFile: async () => ok(''), cwd: () => dir, home: undefined, env: { X: '1' }, warn: (line) => assert.fail(`unexpected warning: ${line}`), writeFile: () => assert.fail('no report is written here'), appendFile: () => assert.fail('no report is appended to here'), ...world };
}

const failure = (result: ReturnType<typeof gateContext>) => (result.ok ? 'accepted' : [result.failure.reason, result.failure.message]);

test('the project root found from --cwd, the phase values, the kill-after grace in ms', (t) => {
  const root = project(t, { '.planning/phases/04-ship': null, 'src/deep': null });
  const context = gateContext({ ...options, cwd: 'src/deep', phaseNumber: '04', phaseReqIds: 'R1' }, deps(root));
  assert.ok(context.ok);
  const { run: _, ...rest } = context.value;
  assert.deepEqual(rest, {
    projectRoot: root,
    phaseNumber: '04',
    phaseDir: undefined,
    phaseDirLookup: { phaseNumber: '04', searched: join(root, '.planning/phases'), matches: [join(root, '.planning/phases/04-ship')] },
    phaseReqIds: 'R1',
    env: { X: '1' },
    killAfterMs: 1500,
    signal: undefined,
    force: undefined,
  });
  const given = gateContext({ ...options, phaseDir: '.planning/phases/04-ship' }, deps(root));
  assert.deepEqual(given.ok && [given.value.phaseDir, given.value.phaseDirLookup], [join(root, '.planning/phases/04-ship'), undefined]);
});

test('a start that is missing, not a directory, gone, or not ours to enter is bad-cwd, named as given', (t) => {
  const root = tempDir(t);
  writeFileSync(join(root, 'file'), '');
  assert.deepEqual(failure(gateContext({ ...options, cwd: 'none' }, deps(root))), ['bad-cwd', '--cwd none: no such directory']);
  assert.deepEqual(failure(gateContext({ ...options, cwd: 'file' }, deps(root))), ['bad-cwd', '--cwd file: not a directory']);
  assert.deepEqual(failure(gateContext(options, deps(join(root, 'none')))), ['bad-cwd', 'the current directory: no such directory']);
  const gone = () => {
    throw new Error('ENOENT: uv_cwd');
  };
  assert.deepEqual(failure(gateContext(options, deps(root, { cwd: gone }))), ['bad-cwd', 'the current directory no longer exists']);
  // As root every directory can be entered: the probe stands in for one that cannot.
  const shut = (closed: string) => (dir: string) => dir !== closed;
  assert.deepEqual(failure(gateContext(options, deps(root, { canEnter: shut(root) }))), ['bad-cwd', 'the current directory: permission denied (cannot list or enter it)']);
  assert.deepEqual(failure(gateContext({ ...options, cwd: root }, deps(root, { canEnter: shut(root) }))), ['bad-cwd', `--cwd ${root}: permission denied (cannot list or enter it)`]);
  writeTree(root, { '.planning': null, sub: null });
  assert.deepEqual(failure(gateContext({ ...options, cwd: 'sub' }, deps(root, { canEnter: shut(root) }))), ['bad-cwd', `project root ${root}: permission denied (cannot list or enter it)`]);
  assert.equal(gateContext({ ...options, cwd: 'sub' }, deps(root)).ok, true);
});

test('--project-dir is the root, with no search up from it, even beside --cwd, which is still checked first', (t) => {
  const base = project(t, { '.planning': null, 'inner/.planning': null, 'inner/sub': null });
  const at = (projectDir: string, cwd?: string) => {
    const context = gateContext({ ...options, projectDir, ...(cwd === undefined ? {} : { cwd }) }, deps(base));
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
  const denied = gateContext({ ...options, projectDir: 'inner' }, deps(base, { canEnter: () => false }));
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
    const context = gateContext({ ...options, phaseNumber: '04', ...extra }, deps(root, { env }));
    return context.ok ? [context.value.env.GSD_WORKSTREAM, context.value.phaseDirLookup?.matches] : failure(context);
  };
  assert.deepEqual(run({ ws: 'alpha' }, { GSD_WORKSTREAM: 'beta' }), ['alpha', [join(root, '.planning/workstreams/alpha/phases/04-alpha')]]);
  assert.deepEqual(run({}, { GSD_WORKSTREAM: ' alpha ' }), ['alpha', [join(root, '.planning/workstreams/alpha/phases/04-alpha')]]);
  assert.deepEqual(run({}, {}), ['beta', [join(root, '.planning/workstreams/beta/phases/04-beta')]]);
  assert.deepEqual(run({}, { GSD_WORKSTREAM: 'my ws' }), ['usage', 'GSD_WORKSTREAM "my ws": a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")']);
  rmSync(join(root, '.planning/active-workstream'));
  assert.deepEqual(run({}, { GSD_WORKSTREAM: '  ' }), ['  ', [join(root, '.planning/phases/04-root')]]);
});

const layerDeps = (env: Record<string, string> = {}) => ({
  env,
  cwd: () => process.cwd(),
  readFile: async (path: string, label: string) => {
    try {
      return ok(readFileSync(path, 'utf8'));
    } catch {
      return fail('unreadable-file', `cannot read ${label}: no such file`);
    }
  },
});

test('the project config under .planning, and the workstream\'s over it; absent ones are empty', async (t) => {
  const root = tempDir(t);
  const none = await loadLayers(undefined, root, root, layerDeps());
  assert.deepEqual(none, ok({ layers: { root: undefined, workstream: undefined }, warnings: [] }));
  writeTree(root, { '.planning/config.json': '{"workflow":{"a":true}}', '.planning/workstreams/ws/config.json': '{"workflow":{"a":false}}' });
  assert.deepEqual(await loadLayers(undefined, root, root, layerDeps()), ok({ layers: { root: { workflow: { a: true } }, workstream: undefined }, warnings: [] }));
  assert.deepEqual(
    await loadLayers(undefined, root, root, layerDeps({ GSD_WORKSTREAM: 'ws' })),
    ok({ layers: { root: { workflow: { a: true } }, workstream: { workflow: { a: false } } }, warnings: [] }),
  );
  writeTree(root, { '.planning/proj/config.json': '{"p":1}' });
  assert.deepEqual(
    await loadLayers(undefined, root, root, layerDeps({ GSD_PROJECT: 'proj' })),
    ok({ layers: { root: { workflow: { a: true } }, workstream: { p: 1 } }, warnings: [] }),
  );
  writeFileSync(join(root, '.planning/workstreams/ws/config.json'), '{');
  const broken = await loadLayers(undefined, root, root, layerDeps({ GSD_WORKSTREAM: 'ws' }));
  assert.deepEqual(broken.ok ? 'accepted' : broken.failure.message, `config ${join(root, '.planning/workstreams/ws/config.json')} is not valid JSON: unexpected end at line 1, column 2`);
  // A workstream is a name by now (context.ts resolved it); GSD_PROJECT is still checked here.
  const bad = await loadLayers(undefined, root, root, layerDeps({ GSD_PROJECT: '../x' }));
  assert.equal(bad.ok ? 'accepted' : bad.failure.reason, 'usage');
});

test('--config is taken from the base directory (--cwd), not the project root, and must exist', async (t) => {
  const root = tempDir(t);
  const base = join(root, 'sub');
  mkdirSync(base);
  writeFileSync(join(base, 'c.json'), '{"x":1}');
  writeFileSync(join(root, 'c.json'), '{"x":2}');
  assert.deepEqual(await loadLayers('c.json', base, root, layerDeps()), ok({ layers: { root: { x: 1 }, workstream: undefined }, warnings: [] }));
  const missing = await loadLayers('none.json', base, root, layerDeps());
  assert.deepEqual(missing.ok ? 'accepted' : missing.failure.message, 'cannot read --config none.json: no such file');
});

test('a config that is not a JSON object fails; flat dotted keys are named in one warning', async (t) => {
  const root = tempDir(t);
  for (const [text, message] of [
    ['[]', '--config c.json is not a JSON object'],
    ['"x"', '--config c.json is not a JSON object'],
    ['null', '--config c.json is not a JSON object'],
    ['{', '--config c.json is not valid JSON: unexpected end at line 1, column 2'],
  ]) {
    writeFileSync(join(root, 'c.json'), text!);
    const result = await loadLayers('c.json', root, root, layerDeps());
    assert.deepEqual(result.ok ? 'accepted' : [result.failure.reason, result.failure.message], ['invalid-json', message], text);
  }
  writeTree(root, { '.planning/config.json': '[1]' });
  const fallback = await loadLayers(undefined, root, root, layerDeps());
  assert.deepEqual(fallback.ok ? 'accepted' : fallback.failure.message, `config ${join(root, '.planning/config.json')} is not a JSON object`);
  const flat = Object.fromEntries(['a.1', 'a.2', 'a.3', 'a.4', 'a.5', 'a.6', 'a.7', 'ok'].map((k) => [k, true]));
  writeFileSync(join(root, 'c.json'), JSON.stringify(flat));
  const warned = await loadLayers('c.json', root, root, layerDeps());
  assert.deepEqual(warned.ok && warned.value.warnings, [
    '--config c.json has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): a.1, a.2, a.3, a.4, a.5 and 2 more',
  ]);
  writeFileSync(join(root, 'c.json'), JSON.stringify({ 'a.1': 1, 'b.2': 2, 'c.3': 3, 'd.4': 4, 'e.5': 5, 'f.6': 6 }));
  const six = await loadLayers('c.json', root, root, layerDeps());
  assert.deepEqual(six.ok && six.value.warnings, [
    '--config c.json has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): a.1, b.2, c.3, d.4, e.5 and 1 more',
  ]);
  writeFileSync(join(root, 'c.json'), JSON.stringify({ 'a.1': 1, 'b.2': 2, 'c.3': 3, 'd.4': 4, 'e.5': 5 }));
  const five = await loadLayers('c.json', root, root, layerDeps());
  assert.deepEqual(five.ok && five.value.warnings, [
    '--config c.json has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): a.1, b.2, c.3, d.4, e.5',
  ]);
});

const from = (text: string) => ({ readFile: async () => ok(text) });

test('a capability: its id names it, else the path as given; its gates parsed', async () => {
  const gates = [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }];
  const named = await loadCapability('/p/caps/sec.json', 'caps/sec.json', from(JSON.stringify({ id: 'sec', gates })));
  assert.ok(named.ok);
  assert.deepEqual([named.value.file, named.value.name, named.value.declaration.gates.length], ['/p/caps/sec.json', 'sec', 1]);
  const anonymous = await loadCapability('/p/caps/x.json', 'caps/x.json', from(JSON.stringify({ id: ' ', gates })));
  assert.deepEqual(anonymous.ok && anonymous.value.name, 'caps/x.json');
});

test('one that is not an object, or whose gates are not a list, is an invalid capability; bad JSON is invalid JSON', async () => {
  const reasons = async (text: string) => {
    const result = await loadCapability('/p/c.json', 'c.json', from(text));
    return result.ok ? 'accepted' : [result.failure.reason, result.failure.message];
  };
  assert.deepEqual(await reasons('[]'), ['invalid-capability', 'capability file c.json is not a JSON object']);
  assert.deepEqual(await reasons('{"gates":{}}'), ['invalid-capability', 'capability file c.json: gates must be an array']);
  assert.deepEqual(await reasons('{"gates":[],"gates":[]}'), [
    'invalid-json',
    'capability file c.json gives the key "gates" twice (at gates): which one counts is ambiguous',
  ]);
  const unreadable = await loadCapability('/p/c.json', 'c.json', { readFile: async (_, label) => fail('unreadable-file', `cannot read ${label}`) });
  assert.deepEqual(unreadable.ok ? 'accepted' : unreadable.failure.message, 'cannot read capability file c.json');
});

test('Windows is refused with the reason and a way out; POSIX systems run', () => {
  const windows = commandSupported('win32', 'check-predicate');
  assert.deepEqual(windows.ok ? 'accepted' : [windows.failure.reason, windows.failure.message], [
    'unsupported-platform',
    'gates cannot be run on Windows: there is no sh and no process groups to bound them; run gsd-check under WSL, or on Linux or macOS',
  ]);
  assert.equal(commandSupported('win32', 'gates-run').ok, false);
  for (const platform of ['linux', 'darwin', 'freebsd']) {
    for (const command of ['check-predicate', 'gates-run', 'validate']) assert.equal(commandSupported(platform, command).ok, true, `${platform} ${command}`);
  }
});

test('validate checks files only, and runs on Windows too', () => {
  assert.equal(commandSupported('win32', 'validate').ok, true);
});

test('--query-command, else GSD_CHECK_QUERY_COMMAND, else gsd-tools on PATH, else none', (t) => {
  const bin = tempDir(t);
  writeFileSync(join(bin, 'gsd-tools'), '#!/bin/sh\n');
  chmodSync(join(bin, 'gsd-tools'), 0o755);
  const env = { GSD_CHECK_QUERY_COMMAND: 'from-env', PATH: bin };
  assert.deepEqual(queryCommand({ queryCommand: 'given', queryTimeout: 2.5 }, env), { command: 'given', timeoutMs: 2500 });
  assert.deepEqual(queryCommand({ queryTimeout: 30 }, env), { command: 'from-env', timeoutMs: 30_000 });
  // A blank variable is no command.
  assert.deepEqual(queryCommand({ queryTimeout: 30 }, { ...env, GSD_CHECK_QUERY_COMMAND: ' \t' }), {
    command: `'${join(bin, 'gsd-tools')}' check "$GSD_QUERY" "$PHASE_NUMBER" --raw`,
    timeoutMs: 30_000,
  });
  assert.equal(queryCommand({ queryTimeout: 30 }, { PATH: join(bin, 'none') }), undefined);
  assert.equal(queryCommand({ queryTimeout: 30 }, {}), undefined);
});
