// Which GSD decided, against a GSD gsd-check is not tested with: GSD 1.11.0
// (compat's lockfile holds it beside 1.14.0) as the gsd_run on PATH, as npm
// links it. 1.11.0 has no runtime-identity verb and renders two gates at
// plan:pre where 1.14's registry has three: --builtin and --render must say
// so, and --require-tested-gsd must refuse it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { GSD_CHECK, NODE, REPO, writeTree } from '../harness.mjs';

const GSD_1_11 = join(REPO, 'compat', 'node_modules', 'gsd-core-1.11', 'gsd-core', 'bin', 'gsd_run');

function project(t) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-versions-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeTree(root, {
    '.planning/config.json': '{}',
    '.planning/phases/04-ship/04-01-PLAN.md': '---\nphase: 04\nplan: 01\n---\n# Plan\n',
    '.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: 0\n---\n',
  });
  const bin = join(root, 'bin');
  mkdirSync(bin);
  mkdirSync(join(root, 'home'));
  symlinkSync(GSD_1_11, join(bin, 'gsd_run'));
  symlinkSync(NODE, join(bin, 'node'));
  return { root, env: { PATH: `${bin}:/usr/bin:/bin`, HOME: join(root, 'home') }, found: join(bin, 'gsd_run') };
}

const run = ({ root, env }, args) => {
  const r = spawnSync(NODE, [GSD_CHECK, 'gates', 'run', '--point', 'plan:pre', '--phase-number', '04', '--raw', ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

test('--builtin beside GSD 1.11.0: a warning names both versions, and the envelope says whose registry ran', (t) => {
  const p = project(t);
  const r = run(p, ['--builtin', '--query-command', 'echo \'{"block":false}\'', '--pick', 'details.gsd']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { found: p.found, version: '1.11.0', tested: false, registry: '1.14.0' });
  // --builtin runs none of GSD's code to ask: the package says which it is.
  assert.match(
    r.stderr,
    /^gsd-check: warning: --builtin runs GSD 1\.14\.0's built-in gates, but the GSD gsd_run finds, .*gsd_run \(gsd_run on PATH\), is GSD 1\.11\.0 by its package\.json: its own gates may differ; --render evaluates what it loads\n$/,
  );
});

test('--render with GSD 1.11.0: its own plan:pre (two gates), answered by it, with the same warning; --require-tested-gsd refuses it', (t) => {
  const p = project(t);
  const r = run(p, ['--render']);
  assert.equal(r.status, 0, r.stderr);
  const envelope = JSON.parse(r.stdout);
  assert.deepEqual(
    envelope.details.gates.map((g) => g.capability),
    ['drift', 'ui'],
  );
  assert.deepEqual(envelope.details.gsd, { found: p.found, version: '1.11.0', tested: false });
  assert.match(
    r.stderr,
    /^gsd-check: warning: the GSD that renders the hooks, .*gsd_run \(gsd_run on PATH\), did not say which GSD it is \(.*\); its package says 1\.11\.0; gsd-check is tested with GSD 1\.14\.x\n$/,
  );
  const strict = run(p, ['--render', '--require-tested-gsd']);
  assert.equal(strict.status, 2);
  assert.equal(strict.stdout, '');
  assert.match(strict.stderr, /^gsd-check: the GSD that renders the hooks, .*its package says 1\.11\.0; gsd-check is tested with GSD 1\.14\.x\n$/);
});
