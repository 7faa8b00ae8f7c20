// gates run following GSD's loop, through the shipped artefact: --reached
// (the points GSD's workflows have reached for the phase) and --render (the
// GSD gsd_run finds renders each point's hooks), with a stand-in for GSD
// 1.14's gsd-tools that answers what gsd-check asks it (runtime-identity,
// loop render-hooks, check) and records each call.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { callsOf, gsdFree, installFake } from './helpers/fake-gsd.ts';
import { artifact, project, type Tree } from './helpers/project.ts';
import { cli, tempDir } from './helpers/support.ts';

const gate = (check: unknown, blocking = true) => ({ capId: 'acme', kind: 'gate', check, blocking, onError: 'halt' });
const command = (text: string) => ({ predicate: { kind: 'command-exit-zero', command: text } });
const SECURITY = { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } };

// Phase 04 discussed and planned: STATE.md says it is ready to execute.
const PLANNED: Tree = {
  '.planning/STATE.md':
    '---\ngsd_state_version: 1.0\ncurrent_phase: 04\nstatus: executing\n---\n# Project State\n\n## Current Position\n\nPhase: 4 (Ship) — READY TO EXECUTE\nStatus: Ready to execute\n',
  '.planning/phases/04-ship/04-CONTEXT.md': '# Phase 4: Ship - Context\n',
  '.planning/phases/04-ship/04-01-PLAN.md': artifact({ phase: '04-ship', plan: '01' }),
};
const HOOKS = {
  'plan:pre': [gate(command('true'))],
  'plan:post': [gate({ query: 'gap-analysis.plan-post' }, false)],
  'ship:pre': [gate(command('false'))],
};
const NOT_REACHED = {
  execute: "GSD's workflows evaluate no gate at this point",
  wavePost: 'no wave is done yet (a SUMMARY.md for every plan of a wave)',
  executePost: 'not every plan is summarized, and no VERIFICATION.md or UAT.md yet',
  verifyPre: 'verify-work has not run (no UAT.md it wrote)',
  shipPre:
    'not shipped (STATE.md records no ship of the phase, nor a passed verification and since then what erases such a record: another phase begun, the milestone closed, STATE.md back at the phase); a run that is the ship says so with --ship',
};
const PLANNED_LOOP = [
  { point: 'discuss:pre', reached: true, why: '04-CONTEXT.md' },
  { point: 'discuss:post', reached: true, why: '04-CONTEXT.md' },
  { point: 'plan:pre', reached: true, why: '04-01-PLAN.md' },
  { point: 'plan:post', reached: true, why: '04-01-PLAN.md, which plan-phase records and gates in the run that writes it' },
  { point: 'execute:pre', reached: false, why: NOT_REACHED.execute },
  { point: 'execute:wave:pre', reached: false, why: NOT_REACHED.execute },
  { point: 'execute:wave:post', reached: false, why: NOT_REACHED.wavePost },
  { point: 'execute:post', reached: false, why: NOT_REACHED.executePost },
  { point: 'verify:pre', reached: false, why: NOT_REACHED.verifyPre },
  { point: 'verify:post', reached: false, why: NOT_REACHED.execute },
  { point: 'ship:pre', reached: false, why: NOT_REACHED.shipPre },
  { point: 'ship:post', reached: false, why: NOT_REACHED.execute },
];

const TOOLS = join('gsd-core', 'bin', 'gsd-tools.cjs');

test('--reached --render: GSD 1.14 at the top level renders only the reached points, answers their query, and is named in the envelope', async (t) => {
  const root = project(t, PLANNED);
  const fake = installFake(join(root, TOOLS), { version: '1.14.0', hooks: HOOKS });
  const result = await cli(['gates', 'run', '--reached', '--phase-number', '04', '--render', '--raw'], { cwd: root, env: gsdFree(t, root) });
  assert.deepEqual([result.status, result.stderr], [0, '']);
  const envelope = JSON.parse(result.stdout) as {
    block: boolean;
    message: string;
    details: { points: { point: string; message: string; reached?: boolean }[]; loop: unknown; gsd: unknown };
  };
  assert.deepEqual([envelope.block, envelope.message], [false, 'phase 04: 4 points reached (of 12): passed (2 pass)']);
  assert.deepEqual(envelope.details.loop, {
    phase: '04',
    from: '--phase-number',
    status: 'executing',
    rawStatus: 'executing',
    points: PLANNED_LOOP,
    next: { point: 'execute:wave:post', why: NOT_REACHED.wavePost },
  });
  assert.deepEqual(envelope.details.gsd, { found: fake, version: '1.14.0', tested: true });
  assert.deepEqual(
    envelope.details.points.map((p) => [p.point, p.message]),
    [
      ['discuss:pre', 'discuss:pre: no gates'],
      ['discuss:post', 'discuss:post: no gates'],
      ['plan:pre', 'plan:pre: passed (1 pass)'],
      ['plan:post', 'plan:post: passed (1 pass)'],
      ...PLANNED_LOOP.filter((p) => !p.reached).map((p) => [p.point, `${p.point}: not reached: ${p.why}`]),
    ],
  );
  // Asked once who it is, once per reached point to render, and the query of phase 04; ship:pre's failing gate never rendered.
  assert.deepEqual(callsOf(fake), [
    'capability list --raw',
    'check gap-analysis.plan-post 04 --raw',
    'loop render-hooks discuss:post --raw',
    'loop render-hooks discuss:pre --raw',
    'loop render-hooks plan:post --raw',
    'loop render-hooks plan:pre --raw',
    'runtime-identity --raw',
  ]);
});

test('--reached with nothing reached: no point runs, nothing is rendered, and the message says so', async (t) => {
  const root = project(t, { '.planning/phases/04-ship': null });
  const fake = installFake(join(root, '.claude', TOOLS), { version: '1.14.0', hooks: HOOKS });
  const result = await cli(['gates', 'run', '--reached', '--phase-number', '04', '--render', '--exit-code', '--pick', 'message'], {
    cwd: root,
    env: gsdFree(t, root),
  });
  assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'phase 04: no point reached yet (of 12)\n', '']);
  assert.deepEqual(callsOf(fake), ['capability list --raw', 'runtime-identity --raw']);
});

test("the ship's pull request after phase complete: --reached --ship --current-phase gates the completed phase's ship:pre, as GSD renders it", async (t) => {
  const root = project(t, {
    '.planning/STATE.md':
      '---\ngsd_state_version: 1.0\ncurrent_phase: 05\nstatus: planning\n---\n# Project State\n\n## Current Position\n\nPhase: 5 (Next) — not started\nStatus: Ready to plan\n',
    '.planning/phases/04-ship/04-01-PLAN.md': '',
    '.planning/phases/04-ship/04-01-SUMMARY.md': artifact({ status: 'complete' }),
    '.planning/phases/04-ship/04-VERIFICATION.md': artifact({ status: 'passed' }),
    '.planning/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 2 }),
    '.planning/phases/05-next': null,
  });
  const fake = installFake(join(root, TOOLS), { version: '1.14.0', hooks: { 'ship:pre': [gate(SECURITY)] } });
  const run = (...flags: string[]) =>
    cli(['gates', 'run', '--point', 'ship:pre', '--reached', '--current-phase', '--render', ...flags], { cwd: root, env: gsdFree(t, root) });
  const shipped = await run('--ship', '--exit-code', '--pick', 'message');
  assert.deepEqual(
    [shipped.status, shipped.stdout, shipped.stderr],
    [
      1,
      'phase 04 (STATE.md names 05, which has reached no point; 04 is complete): 1 of 1 point halted: ship:pre: halted by acme#0 (acme#0: Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0)\n',
      '',
    ],
  );
  const loop = await run('--ship', '--pick', 'details.loop');
  assert.deepEqual(JSON.parse(loop.stdout), {
    phase: '04',
    from: 'STATE.md names 05, which has reached no point; 04 is complete',
    status: 'planning',
    rawStatus: 'planning',
    points: [{ point: 'ship:pre', reached: true, why: "--ship: this run is the phase's ship" }],
    next: null,
  });
  // Not the ship: the point is not reached, and nothing runs.
  const before = await run('--exit-code', '--pick', 'message');
  assert.deepEqual(
    [before.status, before.stdout, before.stderr],
    [0, 'phase 04 (STATE.md names 05, which has reached no point; 04 is complete): no point reached yet (of 1)\n', ''],
  );
  const asked = `query verification.status ${join(root, '.planning/phases/04-ship')} --raw`;
  assert.deepEqual(callsOf(fake), [
    'capability list --raw',
    'capability list --raw',
    'capability list --raw',
    'loop render-hooks ship:pre --raw',
    'loop render-hooks ship:pre --raw',
    asked,
    asked,
    'runtime-identity --raw',
    'runtime-identity --raw',
    'runtime-identity --raw',
  ]);
});

test('--render with a GSD of another version: a warning naming both; with --require-tested-gsd or GSD_CHECK_REQUIRE_TESTED_GSD=1 it fails, exit 2, before any render', async (t) => {
  const root = project(t, PLANNED);
  const fake = installFake(join(root, '.codex', TOOLS), { version: '1.15.0', hooks: HOOKS });
  const problem = `the GSD that renders the hooks, ${fake} (${join(root, '.codex/gsd-core/bin')}), is GSD 1.15.0; gsd-check is tested with GSD 1.14.x`;
  const args = ['gates', 'run', '--point', 'plan:pre', '--render', '--phase-number', '04', '--pick', 'details.gsd'];
  const warned = await cli(args, { cwd: root, env: gsdFree(t, root) });
  assert.deepEqual(
    [warned.status, JSON.parse(warned.stdout), warned.stderr],
    [0, { found: fake, version: '1.15.0', tested: false }, `gsd-check: warning: ${problem}\n`],
  );
  const strict = await cli([...args, '--require-tested-gsd'], { cwd: root, env: gsdFree(t, root) });
  assert.deepEqual([strict.status, strict.stdout, strict.stderr], [2, '', `gsd-check: ${problem}\n`]);
  const fromEnv = await cli([...args, '--json-errors'], { cwd: root, env: gsdFree(t, root, { GSD_CHECK_REQUIRE_TESTED_GSD: '1' }) });
  assert.deepEqual([fromEnv.status, fromEnv.stdout, JSON.parse(fromEnv.stderr)], [2, '', { ok: false, reason: 'untested-gsd', message: problem }]);
  assert.deepEqual(callsOf(fake), [
    'capability list --raw',
    'loop render-hooks plan:pre --raw',
    'runtime-identity --raw',
    'runtime-identity --raw',
    'runtime-identity --raw',
  ]);
});

test("--render with no GSD where gsd_run looks: exit 2, saying where it looked; the machine's own GSD is never found", async (t) => {
  const root = project(t, PLANNED);
  const result = await cli(['gates', 'run', '--reached', '--phase-number', '04', '--render'], { cwd: root, env: gsdFree(t, root) });
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [
      2,
      '',
      "gsd-check: --render: no GSD found where gsd_run looks (the top level's gsd-core/, .claude/ or .codex/, gsd_run or gsd-tools on PATH, the agents' homes, the project's node_modules/.bin); install GSD, name it with --gsd, or give --hooks\n",
    ],
  );
});

test("an older GSD, gsd_run on PATH through npm's bin link: its package's version in the warning; a render that fails leaves its point unevaluated, exit 2", async (t) => {
  const root = project(t, PLANNED);
  const lib = tempDir(t, 'gsd-check-lib-');
  const pkg = join(lib, 'node_modules/@opengsd/gsd-core');
  const fake = installFake(join(pkg, 'gsd-core/bin/gsd_run'), { version: null, hooks: HOOKS, failRender: ['plan:pre'] });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@opengsd/gsd-core', version: '1.11.0' }));
  mkdirSync(join(lib, 'bin'));
  symlinkSync(fake, join(lib, 'bin/gsd_run'));
  const env = gsdFree(t, root);
  const result = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'plan:post', '--render', '--phase-number', '04', '--pick', 'message'], {
    cwd: root,
    env: { ...env, PATH: `${join(lib, 'bin')}${delimiter}${env.PATH}` },
  });
  const found = join(lib, 'bin/gsd_run');
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [
      2,
      '1 of 2 points halted: plan:pre: not evaluated: gsd_run loop render-hooks plan:pre --raw: it exited 1: Error: cannot render plan:pre\n',
      `gsd-check: warning: the GSD that renders the hooks, ${found} (gsd_run on PATH), did not say which GSD it is (runtime-identity exited 1: Unknown command: runtime-identity); its package says 1.11.0; gsd-check is tested with GSD 1.14.x\n` +
        'gsd-check: plan:pre: gsd_run loop render-hooks plan:pre --raw: it exited 1: Error: cannot render plan:pre\n',
    ],
  );
  assert.deepEqual(callsOf(fake), [
    'capability list --raw',
    'check gap-analysis.plan-post 04 --raw',
    'loop render-hooks plan:post --raw',
    'loop render-hooks plan:pre --raw',
    'runtime-identity --raw',
  ]);
});

test("--reached without --render: the capability files' gates of the reached points only, the rest listed as not reached", async (t) => {
  const root = project(t, {
    ...PLANNED,
    'cap.json': {
      id: 'acme',
      gates: [
        { point: 'plan:pre', check: command('true'), blocking: true, onError: 'halt' },
        { point: 'ship:pre', check: command('false'), blocking: true, onError: 'halt' },
      ],
    },
  });
  const result = await cli(['gates', 'run', '--reached', '--phase-number', '4', '--capability', 'cap.json', '--exit-code', '--raw'], {
    cwd: root,
    env: gsdFree(t, root),
  });
  assert.equal(result.status, 0, result.stderr);
  const envelope = JSON.parse(result.stdout) as { message: string; details: { points: { point: string; reached?: boolean }[]; gsd?: unknown } };
  assert.equal(envelope.message, 'phase 4: 4 points reached (of 12): passed (1 pass)');
  assert.deepEqual(
    envelope.details.points.filter((p) => p.reached === false).map((p) => p.point),
    PLANNED_LOOP.filter((p) => !p.reached).map((p) => p.point),
  );
  assert.equal('gsd' in envelope.details, false);
});

test('--reached never reads an ambiguous phase as nothing reached: two directories for it fail, exit 2, naming them and --phase-dir; a phase number with no directory fails', async (t) => {
  const root = project(t, {
    ...PLANNED,
    '.planning/phases/04-ship-notes/notes.md': 'notes\n',
    'cap.json': { id: 'acme', gates: [{ point: 'ship:pre', check: command('false'), blocking: true, onError: 'halt' }] },
  });
  const run = (...flags: string[]) =>
    cli(['gates', 'run', '--all-points', '--capability', 'cap.json', '--exit-code', ...flags], { cwd: root, env: gsdFree(t, root) });
  assert.deepEqual(await run('--reached', '--phase-number', '04'), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: "gsd-check: phase 04 matches 2 directories of .planning/phases (04-ship, 04-ship-notes), as GSD's find-phase reads them: give --phase-dir\n",
  });
  const missing =
    "gsd-check: --phase-number 07: no directory of .planning/phases is that phase's (whose phase directories are 04-ship, 04-ship-notes); give the number of one, or --phase-dir\n";
  assert.deepEqual(await run('--reached', '--phase-number', '07'), { status: 2, signal: null, stdout: '', stderr: missing });
  // The directory named settles it.
  const settled = await run('--reached', '--phase-dir', '.planning/phases/04-ship', '--pick', 'message');
  assert.deepEqual([settled.status, settled.stdout, settled.stderr], [0, 'the phase of --phase-dir: 4 points reached (of 12): no gates\n', '']);
});

test('rendered hooks of exactly 1 MiB are read; a byte more and the point is not evaluated, by their size', async (t) => {
  const root = project(t, PLANNED);
  const fake = installFake(join(root, 'gsd-core/bin/gsd-tools.cjs'), {
    version: '1.14.0',
    hooks: HOOKS,
    padRender: { 'plan:pre': 1024 * 1024, 'ship:pre': 1024 * 1024 + 1 },
  });
  const result = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'ship:pre', '--render', '--phase-number', '04', '--pick', 'message'], {
    cwd: root,
    env: gsdFree(t, root),
  });
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [
      2,
      '1 of 2 points halted: ship:pre: not evaluated: gsd_run loop render-hooks ship:pre --raw: the hooks are larger than 1048576 bytes\n',
      'gsd-check: ship:pre: gsd_run loop render-hooks ship:pre --raw: the hooks are larger than 1048576 bytes\n',
    ],
  );
  assert.deepEqual(callsOf(fake), ['capability list --raw', 'loop render-hooks plan:pre --raw', 'loop render-hooks ship:pre --raw', 'runtime-identity --raw']);
});

// GSD 1.14's own answers (gsd-tools check <query> 01 --raw on a project
// that blocks each), but for the matrix, named here by an absolute path.
const ANSWERS = {
  'ui.plan-gate': {
    frontend: true,
    hasFrontendEvidence: true,
    hasUiSpec: false,
    block: true,
    uiSpecPath: null,
    matchedToken: 'dashboard',
    matchedLine: '### Phase 1: Dashboard',
  },
  'verify.schema-drift': {
    block: true,
    drift_detected: true,
    blocking: true,
    schema_files: ['prisma/schema.prisma'],
    orms: ['prisma'],
    unpushed_orms: ['prisma'],
    message: 'Schema drift detected: schema-relevant files changed but no database push was executed.',
    skipped: false,
  },
  'verify.context-drift': {
    block: true,
    skipped: false,
    stale_artifacts: ['01-RESEARCH.md'],
    action: 'block',
    message: 'CONTEXT.md decisions are newer than: 01-RESEARCH.md.',
  },
  'ui.safety-gate': {
    frontend: true,
    hasUiFiles: true,
    hasUiSpec: false,
    block: true,
    message: 'UI files changed in this wave but no UI-SPEC.md exists for Phase 01.',
  },
  'api-coverage.verify-pre': {
    block: true,
    passed: false,
    coverage_present: true,
    matrix: '/etc/passwd',
    error_count: 1,
    errors: ['row[0]: empty capability name'],
    message: 'api-coverage: COVERAGE.md has 1 problem(s)',
  },
};

test("a query gate's annotation is on the file and line GSD's answer names, inside the project; where it names none, or one outside, it has no file", async (t) => {
  const root = project(t, {
    '.planning/ROADMAP.md': '# Roadmap\n\n## Phases\n\n### Phase 1: Dashboard\n\n**Goal:** Build the dashboard page\n',
    '.planning/phases/01-dashboard/01-CONTEXT.md': '# context\n',
    '.planning/phases/01-dashboard/01-RESEARCH.md': '# research\n',
    'prisma/schema.prisma': 'model A {}\n',
  });
  const queries = Object.keys(ANSWERS);
  installFake(join(root, TOOLS), {
    version: '1.14.0',
    hooks: { 'plan:pre': queries.map((query) => gate({ query }, query !== 'verify.context-drift')) },
    answers: ANSWERS,
  });
  const run = await cli(['gates', 'run', '--point', 'plan:pre', '--render', '--phase-number', '01', '--pick', 'message', '--report', 'github'], {
    cwd: root,
    env: { ...gsdFree(t, root), GITHUB_WORKSPACE: root, GITHUB_STEP_SUMMARY: '' },
  });
  assert.deepEqual(
    [run.status, run.stdout],
    [
      0,
      'plan:pre: halted by acme#0, acme#1, acme#3, acme#4 (acme#0: query ui.plan-gate answered block: true (frontend: true, hasFrontendEvidence: true, hasUiSpec: false, uiSpecPath: null, matchedToken: "dashboard", matchedLine: "### Phase 1: Dashboard"); acme#1: Schema drift detected: schema-relevant files changed but no database push was executed.; acme#3: UI files changed in this wave but no UI-SPEC.md exists for Phase 01.; acme#4: api-coverage: COVERAGE.md has 1 problem(s)); 1 advisory\n',
    ],
  );
  assert.equal(
    run.stderr,
    [
      '::error file=.planning/ROADMAP.md,line=5,title=gsd-check plan%3Apre acme#0 [query ui.plan-gate] halt::query ui.plan-gate answered block: true (frontend: true, hasFrontendEvidence: true, hasUiSpec: false, uiSpecPath: null, matchedToken: "dashboard", matchedLine: "### Phase 1: Dashboard")',
      '::error file=prisma/schema.prisma,line=1,title=gsd-check plan%3Apre acme#1 [query verify.schema-drift] halt::Schema drift detected: schema-relevant files changed but no database push was executed.',
      '::error title=gsd-check plan%3Apre acme#3 [query ui.safety-gate] halt::UI files changed in this wave but no UI-SPEC.md exists for Phase 01.',
      '::error title=gsd-check plan%3Apre acme#4 [query api-coverage.verify-pre] halt::api-coverage: COVERAGE.md has 1 problem(s)',
      '::warning file=.planning/phases/01-dashboard/01-RESEARCH.md,line=1,title=gsd-check plan%3Apre acme#2 [query verify.context-drift] advisory::CONTEXT.md decisions are newer than: 01-RESEARCH.md.',
      '',
    ].join('\n'),
  );
});

test("--reached with --hooks: of the hooks given for every point, only the reached points run, and only theirs pass on GSD's warnings, as --render renders only theirs", async (t) => {
  const root = project(t, PLANNED);
  // GSD names the point in its warning: a skipped gate at a point not reached is none of this run's.
  const skipped = (point: string) =>
    `capability x under .gsd/capabilities/ failed to load (failed validation); its gate at ${point} is SKIPPED and NOT enforced (failing open).`;
  const loop = Object.keys(HOOKS)
    .map((point) => JSON.stringify({ point, activeHooks: HOOKS[point as keyof typeof HOOKS], rendered: '', warnings: [skipped(point)] }))
    .join('\n');
  writeFileSync(join(root, 'hooks.json'), `${loop}\n`);
  const points = Object.keys(HOOKS).flatMap((point) => ['--point', point]);
  const result = await cli(
    [
      'gates',
      'run',
      '--reached',
      ...points,
      '--hooks',
      'hooks.json',
      '--phase-number',
      '04',
      '--query-command',
      'echo \'{"block":false}\'',
      '--exit-code',
      '--pick',
      'message',
    ],
    { cwd: root, env: gsdFree(t, root) },
  );
  // ship:pre's hooks hold a gate that fails: it is not reached, so it does not run.
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [
      0,
      'phase 04: 2 points reached (of 3): passed (2 pass)\n',
      `gsd-check: warning: GSD: ${skipped('plan:pre')}\ngsd-check: warning: GSD: ${skipped('plan:post')}\n`,
    ],
  );
  // One point's hooks alone, that point not reached: nothing runs, and nothing of it is warned of.
  const ship = await cli(['gates', 'run', '--reached', '--point', 'ship:pre', '--hooks', '-', '--phase-number', '04', '--pick', 'message'], {
    cwd: root,
    env: gsdFree(t, root),
    input: JSON.stringify({ point: 'ship:pre', activeHooks: HOOKS['ship:pre'], rendered: '', warnings: [skipped('ship:pre')] }),
  });
  assert.deepEqual([ship.status, ship.stdout, ship.stderr], [0, 'phase 04: no point reached yet (of 1)\n', '']);
});

test("--gsd names the lockfile's GSD over one committed in the repository; --builtin runs neither to learn its version", async (t) => {
  const root = project(t, { ...PLANNED, 'node_modules/@opengsd/gsd-core/package.json': JSON.stringify({ name: '@opengsd/gsd-core', version: '1.14.0' }) });
  // A committed GSD that vouches for itself and renders no gates.
  const committed = installFake(join(root, 'gsd-core/bin/gsd-tools.cjs'), { version: '1.14.0', hooks: {} });
  const locked = installFake(join(root, 'node_modules/@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs'), { version: '1.14.0', hooks: HOOKS });
  mkdirSync(join(root, 'node_modules/.bin'));
  symlinkSync('../@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs', join(root, 'node_modules/.bin/gsd-tools'));
  const run = (...flags: string[]) =>
    cli(['gates', 'run', '--point', 'ship:pre', '--phase-number', '04', '--exit-code', '--pick', 'message', ...flags], { cwd: root, env: gsdFree(t, root) });
  assert.deepEqual([(await run('--render')).status, (await run('--render')).stdout], [0, 'ship:pre: no gates\n']);
  const named = await run('--render', '--gsd', 'node_modules/.bin/gsd-tools');
  assert.deepEqual([named.status, named.stdout, named.stderr], [1, 'ship:pre: halted by acme#0 (acme#0: command exited 1)\n', '']);
  assert.deepEqual(callsOf(locked), ['capability list --raw', 'loop render-hooks ship:pre --raw', 'runtime-identity --raw']);
  const before = callsOf(committed).length;
  const builtin = await run('--builtin', '--raw');
  assert.equal(builtin.status, 1, builtin.stderr);
  assert.match(
    builtin.stderr,
    /gsd-check: warning: --builtin runs GSD 1\.14\.0's built-in gates, but the GSD gsd_run finds, .*gsd-core\/bin\/gsd-tools\.cjs \(.*\), has no package\.json beside it that says which GSD it is \(--builtin runs none of its code to ask\)/,
  );
  assert.equal(callsOf(committed).length, before, '--builtin ran none of it');
  const missing = await run('--render', '--gsd', 'no/such/gsd-tools.cjs');
  assert.deepEqual(
    [missing.status, missing.stdout, missing.stderr],
    [2, '', "gsd-check: --gsd no/such/gsd-tools.cjs: no such file (give GSD's gsd-tools.cjs, or the node_modules/.bin/gsd-tools npm links to it)\n"],
  );
});

test("--ship with a GSD at hand: the preflight is GSD's own verification.status, staleness and all, over what the file says", async (t) => {
  const root = project(t, { ...PLANNED, '.planning/phases/04-ship/04-VERIFICATION.md': artifact({ phase: '04', status: 'passed' }) });
  const setup = (verification: unknown) => installFake(join(root, 'gsd-core/bin/gsd-tools.cjs'), { version: '1.14.0', hooks: {}, verification });
  const run = () =>
    cli(['gates', 'run', '--point', 'ship:pre', '--reached', '--ship', '--phase-number', '04', '--render', '--exit-code', '--pick', 'message'], {
      cwd: root,
      env: gsdFree(t, root),
    });
  setup({ status: 'stale', next_action: 'Verification is stale. Re-run verify-work before transition.', next_command: '/gsd-verify-work 04' });
  const stale = await run();
  assert.deepEqual(
    [stale.status, stale.stdout, stale.stderr],
    [
      1,
      'phase 04: 1 of 1 point halted: ship:pre: halted by ship-preflight#1 (ship-preflight#1: PHASE_VERIFICATION_INCOMPLETE: GSD reads .planning/phases/04-ship/04-VERIFICATION.md as stale; /gsd-ship ships only a passed verification. Verification is stale. Re-run verify-work before transitio...)\n',
      '',
    ],
  );
  setup({ status: 'passed', next_action: 'Verification passed — continue.', next_command: '' });
  const passed = await run();
  assert.deepEqual([passed.status, passed.stdout, passed.stderr], [0, 'phase 04: 1 point: passed (1 pass)\n', '']);
});

test('--render names each capability GSD discovered and does not load (no consent record on this machine): a warning line, and a line of the job summary', async (t) => {
  const root = project(t, PLANNED);
  const capabilities = [
    { id: 'security', scope: 'first-party', status: 'active' },
    { id: 'tdd', scope: 'first-party', status: 'inactive', reason: 'workflow.tdd_mode is off' },
    { id: 'release', scope: 'project', status: 'inactive', reason: 'discovered — no user consent record (inactive)' },
    { id: 'audit', scope: 'project', status: 'active' },
  ];
  installFake(join(root, 'gsd-core/bin/gsd-tools.cjs'), { version: '1.14.0', hooks: HOOKS, capabilities });
  const summary = join(root, 'summary.md');
  const run = await cli(['gates', 'run', '--point', 'plan:pre', '--render', '--phase-number', '04', '--pick', 'message', '--report', 'github'], {
    cwd: root,
    env: { ...gsdFree(t, root), GITHUB_STEP_SUMMARY: summary },
  });
  const line = 'GSD does not load the project capability release (discovered — no user consent record (inactive)): its gates are evaluated nowhere in this run';
  assert.deepEqual([run.status, run.stdout, run.stderr], [0, 'plan:pre: passed (1 pass)\n', `gsd-check: warning: ${line}\n`]);
  assert.ok(readFileSync(summary, 'utf8').includes(`\n\n⚠️ ${line}\n\n`), readFileSync(summary, 'utf8'));
});

test("--render passes on GSD's warnings of a capability it failed to load (its gates skipped, not enforced): once each however many points name it, ten at most, and in the job summary", async (t) => {
  const root = project(t, PLANNED);
  const failed = (id: string) =>
    `capability ${id} under .gsd/capabilities/ failed to load (failed validation); its gate at plan:pre is SKIPPED and NOT enforced (failing open).`;
  installFake(join(root, TOOLS), { version: '1.14.0', hooks: HOOKS, renderWarnings: [failed('a'), failed('b')] });
  const summary = join(root, 'summary.md');
  const run = await cli(
    ['gates', 'run', '--point', 'plan:pre', '--point', 'plan:post', '--render', '--phase-number', '04', '--pick', 'message', '--report', 'github'],
    {
      cwd: root,
      env: { ...gsdFree(t, root), GITHUB_STEP_SUMMARY: summary },
    },
  );
  assert.deepEqual(
    [run.status, run.stdout, run.stderr],
    [0, '2 points: passed (2 pass)\n', `gsd-check: warning: GSD: ${failed('a')}\ngsd-check: warning: GSD: ${failed('b')}\n`],
  );
  assert.ok(readFileSync(summary, 'utf8').includes(`\n\n⚠️ GSD: ${failed('b')}\n\n`), readFileSync(summary, 'utf8'));

  const many = project(t, PLANNED);
  const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
  installFake(join(many, TOOLS), { version: '1.14.0', hooks: HOOKS, renderWarnings: ids.map(failed) });
  const flood = await cli(['gates', 'run', '--point', 'plan:pre', '--render', '--phase-number', '04', '--pick', 'message'], {
    cwd: many,
    env: gsdFree(t, many),
  });
  assert.deepEqual(
    [flood.status, flood.stderr],
    [0, [...ids.slice(0, 10).map((id) => `gsd-check: warning: GSD: ${failed(id)}\n`), 'gsd-check: warning: GSD: and 2 more warnings, not shown\n'].join('')],
  );
});
