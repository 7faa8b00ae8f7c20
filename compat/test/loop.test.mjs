// GSD's own loop, end to end: at each of the 12 points of a healthy project,
// `gsd-tools loop render-hooks <point> --raw` piped into
// `gsd-check gates run --hooks -`, with the query gates answered by
// gsd-tools itself. GSD's workflows proceed at every point here; so must
// gsd-check, having run every gate GSD rendered. Then a project that is not
// healthy halts where GSD's gate would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { GSD_CHECK, GSD_TOOLS, NODE, POINTS, writeTree } from '../harness.mjs';

const QUERY = '"$COMPAT_NODE" "$COMPAT_GSD_TOOLS" check "$GSD_QUERY" "$PHASE_NUMBER" --raw';

function healthyProject(t, overrides = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeTree(root, {
    '.planning/config.json': JSON.stringify({ workflow: { windows_enforce: true } }),
    '.planning/WINDOWS.md': '---\nopen_count: 0\n---\n',
    '.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: 0\n---\n',
    '.planning/phases/04-ship/04-01-PLAN.md':
      '---\nphase: 04\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: true\n---\n# Plan 04-01: ship the release\n\nWrite the changelog and tag the release.\n',
    ...overrides,
  });
  mkdirSync(join(root, 'home'));
  return root;
}

function point(root, name) {
  const env = { PATH: process.env.PATH, HOME: join(root, 'home'), COMPAT_NODE: NODE, COMPAT_GSD_TOOLS: GSD_TOOLS };
  const hooks = spawnSync(NODE, [GSD_TOOLS, 'loop', 'render-hooks', name, '--raw'], { cwd: root, env, encoding: 'utf8' });
  assert.equal(hooks.status, 0, hooks.stderr);
  const rendered = JSON.parse(hooks.stdout).activeHooks.filter((h) => h.kind === 'gate');
  const run = spawnSync(NODE, [GSD_CHECK, 'gates', 'run', '--point', name, '--hooks', '-', '--phase-number', '04', '--query-command', QUERY, '--raw'], {
    cwd: root,
    env,
    input: hooks.stdout,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return { rendered, envelope: JSON.parse(run.stdout), stderr: run.stderr };
}

test('a healthy project: gsd-check proceeds at all 12 points, running every gate GSD renders', (t) => {
  const root = healthyProject(t);
  let ran = 0;
  for (const name of POINTS) {
    const { rendered, envelope } = point(root, name);
    const gates = envelope.details.gates;
    assert.deepEqual(
      gates.map((g) => g.capability),
      rendered.map((h) => h.capId),
      `${name}: the gates GSD rendered`,
    );
    assert.deepEqual(
      gates.map((g) => [g.capability, g.status]),
      gates.map((g) => [g.capability, 'pass']),
      `${name}: ${envelope.message}`,
    );
    assert.equal(envelope.block, false, envelope.message);
    ran += gates.length;
  }
  // plan:pre 3, plan:post 1, execute:wave:post 3, verify:pre 1, ship:pre 2.
  assert.equal(ran, 10);
});

test('ship:pre halts on open threats, naming the gate and the file', (t) => {
  const root = healthyProject(t, { '.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: 2\n---\n' });
  const { envelope } = point(root, 'ship:pre');
  assert.equal(envelope.block, true);
  assert.equal(
    envelope.message,
    'ship:pre: halted by security#0 (security#0: Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0)',
  );
});

test("verify:pre halts where GSD's query blocks, with GSD's message", (t) => {
  const root = healthyProject(t);
  rmSync(join(root, '.planning/phases/04-ship/04-01-PLAN.md'));
  const { envelope } = point(root, 'verify:pre');
  assert.equal(envelope.block, true);
  const [gate] = envelope.details.gates;
  assert.deepEqual(
    [gate.capability, gate.status, gate.envelope.details.kind, gate.envelope.details.query],
    ['ai-integration', 'halt', 'query', 'api-coverage.verify-pre'],
  );
  assert.match(gate.envelope.message, /^api-coverage: the phase scope is empty/);
});

// --render: gsd-check asks the GSD gsd_run finds (here gsd_run on PATH, the
// pinned one) for each point's hooks itself, and that GSD answers the
// queries: the same gates and verdicts as the loop above, in one call,
// with the GSD that decided named.
test('--render gives, at every point, what render-hooks piped into --hooks gives, and names GSD 1.14', (t) => {
  const root = healthyProject(t, { '.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: 2\n---\n' });
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'gsd_run'), `#!/bin/sh\nexec "${NODE}" "${GSD_TOOLS}" "$@"\n`, { mode: 0o755 });
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: join(root, 'home') };
  const run = spawnSync(NODE, [GSD_CHECK, 'gates', 'run', '--all-points', '--render', '--phase-number', '04', '--raw'], { cwd: root, env, encoding: 'utf8' });
  assert.equal(run.stderr, '');
  const envelope = JSON.parse(run.stdout);
  const verdicts = (gates) => gates.map((g) => [g.capability, g.index, g.status, g.envelope?.message ?? g.error]);
  for (const [i, name] of POINTS.entries()) {
    const piped = point(root, name).envelope;
    assert.deepEqual(verdicts(envelope.details.points[i].gates), verdicts(piped.details.gates), name);
    assert.equal(envelope.details.points[i].message, piped.message, name);
  }
  assert.deepEqual(envelope.details.gsd, { found: join(bin, 'gsd_run'), version: '1.14.0', tested: true });
  assert.equal(envelope.block, true);
});
