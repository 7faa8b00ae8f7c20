// One GSD process answers a run's requests (src/gsd/batch-script.ts, as
// gsd-check ships it) byte for byte as separate gsd-tools processes do: the
// exit status, stdout and stderr of every request, on the pinned GSD 1.14
// and 1.11, in a healthy project (a git checkout, a planned phase) and a
// failing one (no .planning, no git), with GSD's own errors among them and a
// request that leaves state behind (--json-errors) before one that must not
// see it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildSync } from 'esbuild';
import { environment, GSD_CHECK, NODE, POINTS, REPO, writeTree } from '../harness.mjs';

const bundled = buildSync({ entryPoints: [join(REPO, 'src/gsd/batch-script.ts')], bundle: true, format: 'esm', platform: 'node', write: false });
const { BATCH_SCRIPT } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);

const VERSIONS = {
  1.14: join(REPO, 'compat/node_modules/@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs'),
  1.11: join(REPO, 'compat/node_modules/gsd-core-1.11/gsd-core/bin/gsd-tools.cjs'),
};
const QUERIES = [
  'api-coverage.verify-pre',
  'verify.schema-drift',
  'verify.codebase-drift',
  'verify.context-drift',
  'gap-analysis.plan-post',
  'tdd.review-checkpoint',
  'ui.plan-gate',
  'ui.safety-gate',
];

const PLAN =
  '---\nphase: 04-ship\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: true\n---\n# Plan 04-01\n\nShip the page.\n';
const PROJECTS = {
  healthy: {
    git: true,
    tree: {
      '.planning/STATE.md': '---\ncurrent_phase: 04\nstatus: executing\n---\n# Project State\n',
      '.planning/ROADMAP.md': '# Roadmap\n\n### Phase 4: Ship\n\n**Goal:** ship the login page\n',
      '.planning/config.json': '{"workflow": {"tdd_mode": true, "ui_safety_gate": true}}\n',
      '.planning/phases/04-ship/04-01-PLAN.md': PLAN,
      '.planning/phases/04-ship/04-CONTEXT.md': '# Phase 4: Ship - Context\n\nA login page.\n',
    },
  },
  failing: { git: false, tree: { 'README.md': 'no planning here\n' } },
};

// Each request as gsd-check sends it (its arguments, and what it adds to the
// run's environment), and GSD's own errors beside them.
const REQUESTS = [
  { args: ['runtime-identity', '--raw'], env: {} },
  ...POINTS.map((point) => ({ args: ['loop', 'render-hooks', point, '--raw'], env: {} })),
  ...QUERIES.map((query) => ({ args: ['check', query, '04', '--raw'], env: { PHASE_NUMBER: '04', GSD_QUERY: query } })),
  { args: ['check', 'ui.plan-gate', '', '--raw'], env: { PHASE_NUMBER: '' } },
  { args: ['check', 'no.such-query', '04', '--raw'], env: {} },
  { args: ['--json-errors', 'no-such-verb'], env: {} },
  { args: ['no-such-verb'], env: {} },
  { args: ['loop', 'render-hooks', 'nowhere:pre', '--raw'], env: {} },
  { args: ['find-phase', '04', '--raw'], env: {} },
  { args: ['phase-plan-index', '04', '--raw'], env: {} },
  { args: ['query', 'verification.status', '.planning/phases/04-ship', '--raw'], env: {} },
  { args: ['capability', 'list', '--raw'], env: {} },
  { args: ['state', 'load'], env: {} },
  { args: ['runtime-identity', '--raw'], env: { GSD_JSON_ERRORS: '1' } },
];

function project(t, which) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-batch-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'project');
  mkdirSync(join(base, 'home'));
  writeTree(root, PROJECTS[which].tree);
  const env = environment(join(base, 'home'), {
    GIT_CEILING_DIRECTORIES: base,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'c',
    GIT_AUTHOR_EMAIL: 'c@example.invalid',
    GIT_COMMITTER_NAME: 'c',
    GIT_COMMITTER_EMAIL: 'c@example.invalid',
  });
  if (PROJECTS[which].git) {
    for (const args of [
      ['init', '-q'],
      ['add', '.'],
      ['commit', '-qm', 'start'],
    ])
      spawnSync('git', args, { cwd: root, env });
  }
  return { root, env };
}

for (const [version, tools] of Object.entries(VERSIONS)) {
  for (const which of Object.keys(PROJECTS)) {
    test(`GSD ${version}, a ${which} project: every answer of the batch is the separate process's`, { timeout: 300_000 }, (t) => {
      const { root, env } = project(t, which);
      const separate = REQUESTS.map((request) => {
        const result = spawnSync(NODE, [tools, ...request.args], { cwd: root, env: { ...env, ...request.env }, encoding: 'utf8', timeout: 60_000 });
        return { code: result.status, stdout: result.stdout, stderr: result.stderr };
      });
      const body = JSON.stringify({ env, requests: REQUESTS.map((request) => ({ cwd: root, args: request.args, env: request.env })) });
      const batch = spawnSync(NODE, ['-e', BATCH_SCRIPT, tools], {
        cwd: root,
        env: { ...env, GSD_CHECK_BATCH_REQUESTS: body },
        encoding: 'utf8',
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      assert.equal(batch.status, 0, batch.stderr);
      const answers = JSON.parse(batch.stdout).map((a) => ({
        code: a.code,
        stdout: Buffer.from(a.stdout, 'base64').toString('utf8'),
        stderr: Buffer.from(a.stderr, 'base64').toString('utf8'),
      }));
      for (const [index, request] of REQUESTS.entries()) assert.deepEqual(answers[index], separate[index], `gsd-tools ${request.args.join(' ')}`);
    });
  }
}

// gsd-check's --render run with the batch and with it off: the same envelope
// but for durations, and GSD started twice against 22 (which GSD it is, its
// capabilities and every point's hooks in one process, every query in one
// more).
test('gates run --all-points --render: the same envelope with one GSD process a stage as with one a request; two starts of GSD against 22', {
  timeout: 300_000,
}, (t) => {
  const { root, env } = project(t, 'healthy');
  const shim = join(root, '..', 'shim');
  mkdirSync(shim);
  const log = join(root, '..', 'starts.log');
  writeFileSync(join(shim, 'node'), `#!/bin/sh\nfor a in "$@"; do case "$a" in *gsd-tools.cjs) echo start >> '${log}';; esac; done\nexec '${NODE}' "$@"\n`);
  chmodSync(join(shim, 'node'), 0o755);
  const runtime = join(REPO, 'compat/node_modules/@opengsd/gsd-core');
  const run = (extra) => {
    rmSync(log, { force: true });
    const result = spawnSync(NODE, [GSD_CHECK, 'gates', 'run', '--all-points', '--render', '--phase-number', '04', '--raw'], {
      cwd: root,
      env: { ...env, ...extra, RUNTIME_DIR: runtime, PATH: `${shim}:${env.PATH}` },
      encoding: 'utf8',
      timeout: 240_000,
    });
    assert.equal(result.stderr, '');
    const starts = readFileSync(log, 'utf8').trim().split('\n').length;
    return { envelope: result.stdout.replace(/"durationMs":\d+/g, '"durationMs":0'), status: result.status, starts };
  };
  const batched = run({});
  const each = run({ GSD_CHECK_GSD_BATCH: 'off' });
  assert.deepEqual([batched.status, batched.envelope], [each.status, each.envelope]);
  assert.deepEqual([batched.starts, each.starts], [2, 22]);
});
