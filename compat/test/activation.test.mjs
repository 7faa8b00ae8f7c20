// Which gates run at each loop point: gsd-check's activation over GSD 1.14's
// own 46 capabilities (written out as capability files, and as gsd-check's
// built-in declarations, `gates run --builtin`) against the gates that
// `gsd-tools loop render-hooks <point> --raw` lists, for every point and
// config variant. A gate gsd-check does not report `inactive` must be exactly
// one GSD renders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { GATES_CASES } from '../cases/gates.mjs';
import { documentedDifferences, GSD_CHECK, GSD_TOOLS, NODE, POINTS, REPO } from '../harness.mjs';

const require = createRequire(import.meta.url);
const registry = require('../node_modules/@opengsd/gsd-core/gsd-core/bin/lib/capability-registry.cjs');
const capabilities = Object.values(registry.capabilities);
const whenKeys = [...new Set(capabilities.flatMap((c) => (c.gates ?? []).map((g) => g.when).filter(Boolean)))];
const nest = (pairs) => {
  const config = {};
  for (const [key, value] of pairs) {
    const parts = key.split('.');
    let at = config;
    for (const part of parts.slice(0, -1)) at = at[part] ??= {};
    at[parts.at(-1)] = value;
  }
  return config;
};

const VARIANTS = [
  { name: 'no config' },
  { name: 'every when key true', config: nest(whenKeys.map((k) => [k, true])) },
  { name: 'every when key false', config: nest(whenKeys.map((k) => [k, false])) },
  { name: 'security_enforcement: 0', config: { workflow: { security_enforcement: 0 } } },
  { name: 'security_enforcement: null', config: { workflow: { security_enforcement: null } } },
  { name: 'windows_enforce: "false"', config: { workflow: { windows_enforce: 'false' } } },
  { name: 'windows_enforce: "no"', config: { workflow: { windows_enforce: 'no' } } },
  { name: 'windows_enforce: true', config: { workflow: { windows_enforce: true } } },
  { name: 'a flat dotted key', config: { 'workflow.security_enforcement': false } },
  {
    name: 'a workstream config over the project config',
    config: { workflow: { windows_enforce: true } },
    workstream: { workflow: { security_enforcement: false, ui_safety_gate: false } },
  },
  {
    name: "the active-workstream pointer's config over the project config",
    config: { workflow: { windows_enforce: true } },
    workstream: { workflow: { security_enforcement: false, ui_safety_gate: false } },
    pointer: true,
  },
];

function gsdGates(root, point, env) {
  const r = spawnSync(NODE, [GSD_TOOLS, 'loop', 'render-hooks', point, '--raw'], { cwd: root, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout)
    .activeHooks.filter((h) => h.kind === 'gate')
    .map((h) => h.capId);
}

function runCheck(root, point, env, files) {
  const args = [GSD_CHECK, 'gates', 'run', '--point', point, ...files.flatMap((f) => ['--capability', f]), '--phase-number', '04', '--raw'];
  return spawnSync(NODE, args, { cwd: root, env: { ...env, GSD_CHECK_QUERY_COMMAND: `echo '{"block":false}'` }, encoding: 'utf8' });
}

function checkGates(root, point, env, files) {
  const r = files === 'builtin' ? runBuiltin(root, point, env) : runCheck(root, point, env, files);
  assert.ok(r.status === 0, `exit ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout)
    .details.gates.filter((g) => g.status !== 'inactive')
    .map((g) => g.capability);
}

function runBuiltin(root, point, env) {
  const args = [GSD_CHECK, 'gates', 'run', '--point', point, '--builtin', '--phase-number', '04', '--raw'];
  return spawnSync(NODE, args, { cwd: root, env: { ...env, GSD_CHECK_QUERY_COMMAND: `echo '{"block":false}'` }, encoding: 'utf8' });
}

test("the built-in declarations are the gates of GSD 1.14's registry, in its order, with the keys that switch them", () => {
  const builtin = JSON.parse(readFileSync(join(REPO, 'src/gates/gsd-1.14/capabilities.json'), 'utf8'));
  const expected = capabilities
    .filter((c) => (c.gates ?? []).length > 0)
    .map((c) => {
      const keys = new Set(c.gates.map((g) => g.when).filter(Boolean));
      return { id: c.id, version: c.version, config: Object.fromEntries(Object.entries(c.config ?? {}).filter(([k]) => keys.has(k))), gates: c.gates };
    });
  assert.deepEqual(builtin, expected);
});

function project(t) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, '.planning/phases/04-ship'), { recursive: true });
  const files = capabilities.map((c) => {
    const file = join(root, 'caps', `${c.id}.json`);
    mkdirSync(join(root, 'caps'), { recursive: true });
    writeFileSync(file, JSON.stringify(c));
    return file;
  });
  return { root, files, env: { PATH: process.env.PATH, HOME: join(root, 'home') } };
}

for (const variant of VARIANTS) {
  test(`the gates that run at each point: ${variant.name}`, (t) => {
    const { root, files, env } = project(t);
    if (variant.config !== undefined) writeFileSync(join(root, '.planning/config.json'), JSON.stringify(variant.config));
    if (variant.workstream !== undefined) {
      // Under a workstream, GSD keeps the phase in the workstream's phases/.
      mkdirSync(join(root, '.planning/workstreams/ws1/phases/04-ship'), { recursive: true });
      writeFileSync(join(root, '.planning/workstreams/ws1/config.json'), JSON.stringify(variant.workstream));
      if (variant.pointer) writeFileSync(join(root, '.planning/active-workstream'), 'ws1\n');
      else env.GSD_WORKSTREAM = 'ws1';
    }
    let compared = 0;
    for (const point of POINTS) {
      const gsd = gsdGates(root, point, env);
      assert.deepEqual(checkGates(root, point, env, files), gsd, `${point}: gates that run`);
      assert.deepEqual(checkGates(root, point, env, 'builtin'), gsd, `${point}: gates that run with --builtin`);
      compared += gsd.length;
    }
    t.diagnostic(`${compared} gates active across the 12 points`);
  });
}

for (const c of GATES_CASES) {
  test(`${c.name} [${c.differs}]`, (t) => {
    assert.ok(documentedDifferences().has(c.differs), `${c.differs} is not in docs/reference/differences.md`);
    const { root, files, env } = project(t);
    writeFileSync(join(root, '.planning/config.json'), c.configText);
    const gsd = spawnSync(NODE, [GSD_TOOLS, 'loop', 'render-hooks', 'ship:pre', '--raw'], { cwd: root, env, encoding: 'utf8' });
    assert.equal(gsd.status, 0, 'GSD proceeds with what it could read');
    const result = runCheck(root, 'ship:pre', env, files);
    assert.ok(c.check(result), `gsd-check: exit ${result.status}, ${result.stderr}`);
  });
}

// Gates whose `when` is odd, through GSD's own resolver (its registry entries
// are capability gates with a capId) and through gsd-check's capability files.
test('a gate with when null runs as one with no when; a when of another type, or empty, is inactive', (t) => {
  const { root, env } = project(t);
  const whens = { absent: undefined, null: null, empty: '', number: 5, object: { k: 1 }, unset: 'workflow.nothing_here' };
  const gate = (when) => ({
    point: 'ship:pre',
    check: { predicate: { kind: 'command-exit-zero', command: 'true' } },
    blocking: true,
    onError: 'halt',
    ...(when === undefined ? {} : { when }),
  });
  const files = Object.entries(whens).map(([id, when]) => {
    const file = join(root, 'caps', `odd-${id}.json`);
    writeFileSync(file, JSON.stringify({ id: `odd-${id}`, gates: [gate(when)] }));
    return file;
  });
  const resolver = require('../node_modules/@opengsd/gsd-core/gsd-core/bin/lib/loop-resolver.cjs');
  const registry = { byLoopPoint: { 'ship:pre': { gates: Object.entries(whens).map(([id, when]) => ({ capId: `odd-${id}`, kind: 'gate', ...gate(when) })) } } };
  const gsd = resolver.resolveLoopHooks({ point: 'ship:pre', registry, config: {}, cwd: root }).activeHooks.map((h) => h.capId);
  assert.deepEqual(gsd, ['odd-absent', 'odd-null'], "GSD's resolver");
  assert.deepEqual(checkGates(root, 'ship:pre', env, files), gsd);
});
