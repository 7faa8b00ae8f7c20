// A fresh GSD project driven through whole phases of GSD's loop, step by step,
// with the pinned GSD's own commands wherever GSD has one; a file is written
// by hand only where a GSD workflow has an agent write it, and then from
// GSD's own template. Each step says what GSD's workflows would have done by
// then: the points whose gates GSD 1.14 has evaluated (`reached`) and the
// points whose moment in the host workflow has gone by (`passed`). The rule
// behind both is `reachedPoints` below; docs/research/loop-reached.md derives
// it from GSD's workflows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { environment, GSD_CHECK, GSD_TOOLS, NODE, POINTS } from './harness.mjs';

const CORE = dirname(dirname(GSD_TOOLS));
const TODAY = new Date().toISOString().slice(0, 10);

export const projectRoot = (dir) => join(dir, 'project');
const homeOf = (dir) => join(dir, 'home');

// The home is a sibling of the project so that nothing GSD or git keeps there
// lands in the repository the steps commit to, and so the machine's own git
// configuration (signing, hooks) cannot reach those commits.
function env(dir) {
  return environment(homeOf(dir), {
    GIT_AUTHOR_NAME: 'gsd-check compat',
    GIT_AUTHOR_EMAIL: 'compat@example.invalid',
    GIT_COMMITTER_NAME: 'gsd-check compat',
    GIT_COMMITTER_EMAIL: 'compat@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
  });
}

// Not a timing assumption about GSD: a bound so a hung command fails its step.
const COMMAND_TIMEOUT_MS = 60_000;

export function gsd(dir, args) {
  const result = spawnSync(NODE, [GSD_TOOLS, ...args], { cwd: projectRoot(dir), env: env(dir), encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`gsd-tools ${args.join(' ')}: exit ${result.status ?? result.signal}\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

const gsdJson = (dir, args) => JSON.parse(gsd(dir, args));

// What gsd-check's --reached reads of the project as the step left it: the
// envelope's details.loop, for the phase given (`--phase-number`) or the one
// STATE.md names (`--current-phase`). The query gates are answered by a
// stand-in: which points are reached is the question, not their verdicts.
export function checkReached(dir, phase) {
  const which = phase === undefined ? ['--current-phase'] : ['--phase-number', phase];
  const { args, result } = askReached(projectRoot(dir), env(dir), which);
  // A phase given by number that has no directory yet fails the run: it can
  // have reached nothing, and a mistyped one must not pass.
  const noDirectory = `gsd-check: --phase-number ${phase}: no directory of .planning/phases is that phase's`;
  if (
    result.status === 2 &&
    phase !== undefined &&
    result.stderr.startsWith(noDirectory) &&
    Object.keys(observe(dir, phase).artifacts).every((name) => !samePhase(name.split('-')[0], phase))
  )
    return { phase, reached: [] };
  if (result.status !== 0) throw new Error(`gsd-check ${args.join(' ')}: exit ${result.status ?? result.signal}\n${result.stderr}${result.stdout}`);
  const loop = JSON.parse(result.stdout);
  return { phase: loop.phase, reached: loop.points.filter((p) => p.reached).map((p) => p.point) };
}

// `gates run --reached` of the project at `root`, for the phase `which`
// names, read by `whose` reading; its details.loop is the answer's stdout.
export function askReached(root, environment, which, whose = ['--builtin']) {
  const args = ['gates', 'run', '--reached', ...which, ...whose, '--query-command', 'echo \'{"block":false}\'', '--raw', '--pick', 'details.loop'];
  return { args, result: spawnSync(NODE, [GSD_CHECK, ...args], { cwd: root, env: environment, encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS }) };
}

function git(dir, args) {
  const result = spawnSync('git', args, { cwd: projectRoot(dir), env: env(dir), encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: exit ${result.status ?? result.signal}\n${result.stderr}`);
  return result.stdout;
}

// The workflows commit through GSD at these moments; a commit that GSD
// declines (nothing staged, commit_docs off) would leave the history unlike
// a real project's, so it fails the step.
function commit(dir, message, files) {
  const answer = gsdJson(dir, ['query', 'commit', message, '--files', ...files]);
  if (answer.committed !== true) throw new Error(`commit "${message}" not made: ${JSON.stringify(answer)}`);
}

function write(dir, path, text) {
  const file = join(projectRoot(dir), path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const read = (dir, path) => readFileSync(join(projectRoot(dir), path), 'utf8');

// The file a template documents, as an agent copies it: the fenced block after
// the template's first ```markdown line. Most end at the first closing fence;
// one that holds fences of its own names the heading that follows it.
export function template(path, endBefore) {
  const lines = readFileSync(join(CORE, path), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith('```markdown'));
  let end = lines.findIndex((line, i) => i > start && line === '```');
  if (endBefore) {
    const stop = lines.findIndex((line, i) => i > start && endBefore.test(line));
    end = lines.slice(0, stop).lastIndexOf('```');
  }
  if (start < 0 || end <= start) throw new Error(`${path}: no template block`);
  return `${lines.slice(start + 1, end).join('\n')}\n`;
}

// Each placeholder must be in the template: a GSD whose template changed
// fails here, instead of the step writing a file GSD would not.
export function fill(text, replacements) {
  let out = text;
  for (const [from, to] of replacements) {
    const found = typeof from === 'string' ? out.includes(from) : from.test(out);
    if (!found) throw new Error(`template placeholder not found: ${from}`);
    out = typeof from === 'string' ? out.split(from).join(to) : out.replace(from, to);
  }
  return out;
}

const P1 = { number: '1', padded: '01', name: 'Tasks', dir: '01-tasks' };
const P11 = { number: '1.1', padded: '01.1', name: 'Hotfix', dir: '01.1-hotfix' };
const phaseFile = (phase, name) => `.planning/phases/${phase.dir}/${phase.padded}-${name}`;

// ROADMAP.md as new-project's roadmapper writes it: templates/roadmap.md's
// shape, with the two phases this project has.
export const ROADMAP = `# Roadmap: Demo

## Overview

A task list, then its export.

## Phases

**Phase Numbering:**
- Integer phases (1, 2, 3): Planned milestone work
- Decimal phases (2.1, 2.2): Urgent insertions (marked with INSERTED)

Decimal phases appear between their surrounding integers in numeric order.

- [ ] **Phase 1: Tasks** - The task list
- [ ] **Phase 2: Export** - Export the list

## Phase Details

### Phase 1: Tasks
**Goal**: Users can keep a task list
**Depends on**: Nothing (first phase)
**Requirements**: [TASK-01]
**Success Criteria** (what must be TRUE):
  1. A task can be added and listed
**Plans**: TBD

### Phase 2: Export
**Goal**: Users can export the list
**Depends on**: Phase 1
**Requirements**: [EXP-01]
**Success Criteria** (what must be TRUE):
  1. The list exports as CSV
**Plans**: TBD

## Progress

**Execution Order:**
Phases execute in numeric order: 1 → 2

| Phase | Plans Complete | Status | Completed |
|-------|----------------|--------|-----------|
| 1. Tasks | 0/0 | Not started | - |
| 2. Export | 0/0 | Not started | - |
`;

// STATE.md as new-project writes it from templates/state.md, at phase 1.
export function initialState() {
  return fill(template('templates/state.md'), [
    [/^<!-- STATE-MD-SCHEMA:END.*\n/m, ''],
    ['(updated [date])', `(updated ${TODAY})`],
    ['[One-liner from PROJECT.md Core Value section]', 'Keep a task list'],
    ['[Current phase name]', 'Phase 1: Tasks'],
    ['Phase: [X] of [Y] ([Phase name])', 'Phase: 1 of 2 (Tasks)'],
    ['Plan: [A] of [B] in current phase', 'Plan: 0 of 0 in current phase'],
    ['Status: [Ready to plan / Planning / Ready to execute / In progress / Phase complete]', 'Status: Ready to plan'],
    ['Last activity: [YYYY-MM-DD] — [What happened]', `Last activity: ${TODAY} — Roadmap created`],
    ['Last session: [YYYY-MM-DD HH:MM]', `Last session: ${TODAY} 00:00`],
    ['Stopped at: [Description of last completed action]', 'Stopped at: Roadmap created'],
    ['Resume file: [Path to .continue-here*.md if exists, otherwise "None"]', 'Resume file: None'],
  ]);
}

function newProject(dir) {
  mkdirSync(projectRoot(dir), { recursive: true });
  mkdirSync(homeOf(dir), { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  gsd(dir, ['config-new-project', '{}']);
  write(dir, '.planning/PROJECT.md', fill(template('templates/project.md'), [['# [Project Name]', '# Demo']]));
  commit(dir, 'docs: initialize project', ['.planning/PROJECT.md']);
  commit(dir, 'chore: add project config', ['.planning/config.json']);
  write(dir, '.planning/ROADMAP.md', ROADMAP);
  const state = initialState();
  write(dir, '.planning/STATE.md', state);
  commit(dir, 'docs: create roadmap (2 phases)', ['.planning/ROADMAP.md', '.planning/STATE.md']);
}

// What execute-plan.md and the executor agent do for one plan, in order: a
// task commit, the SUMMARY, the STATE and ROADMAP updates, the final commit.
function executePlan(dir, phase, plan) {
  const id = `${phase.padded}-${plan}`;
  write(dir, `src/${id}.txt`, `work of plan ${id}\n`);
  commit(dir, `feat(${id}): do the work of plan ${id}`, [`src/${id}.txt`]);
  gsd(dir, ['template', 'fill', 'summary', '--phase', phase.number, '--plan', plan]);
  gsd(dir, ['query', 'state.advance-plan']);
  gsd(dir, ['query', 'state.update-progress']);
  gsd(dir, ['query', 'state.record-metric', '--phase', phase.number, '--plan', plan, '--duration', '5min', '--tasks', '1', '--files', '1']);
  gsd(dir, ['query', 'state.record-session', '--stopped-at', `Completed ${id}-PLAN.md`, '--resume-file', 'None']);
  gsd(dir, ['query', 'roadmap.update-plan-progress', phase.number]);
  commit(dir, `docs(${id}): complete plan ${id}`, [phaseFile(phase, `${plan}-SUMMARY.md`), '.planning/STATE.md', '.planning/ROADMAP.md']);
}

// A UAT file as templates/UAT.md lays it out, with this phase's tests in place
// of the template's five examples.
export function uat(phase, { status, source, results }) {
  const tests = results.map((result, i) => `### ${i + 1}. Task list check ${i + 1}\nexpected: the list shows the added task\nresult: ${result}\n`).join('\n');
  const count = (r) => results.filter((x) => x === r).length;
  return fill(template('templates/UAT.md'), [
    ['status: testing | partial | complete | diagnosed', `status: ${status}`],
    ['phase: XX-name', `phase: ${phase.dir}`],
    ['source: [list of SUMMARY.md files tested]', `source: [${source}]`],
    ['started: [ISO timestamp]', `started: ${TODAY}T00:00:00Z`],
    ['updated: [ISO timestamp]', `updated: ${TODAY}T00:00:00Z`],
    [/## Tests\n[\s\S]*?\n## Summary/, `## Tests\n\n${tests}\n## Summary`],
    [
      /total: \[N\]\npassed: \[N\]\nissues: \[N\]\npending: \[N\]\nskipped: \[N\]\nblocked: \[N\]/,
      `total: ${results.length}\npassed: ${count('pass')}\nissues: 0\npending: ${count('[pending]')}\nskipped: 0\nblocked: 0`,
    ],
    [/## Gaps\n[\s\S]*$/, '## Gaps\n\n[none yet]\n'],
  ]);
}

const PLANS_1 = [
  ['01', { wave: '1' }],
  ['02', { wave: '1' }],
  ['03', { wave: '2', fields: { depends_on: ['01-01'] } }],
];

// Artifacts of phase 1 as they accumulate, so each step's expectation reads
// as what that step added.
const A = {
  context: ['01-CONTEXT.md', '01-DISCUSSION-LOG.md'],
  research: ['01-RESEARCH.md'],
  plans: ['01-01-PLAN.md', '01-02-PLAN.md', '01-03-PLAN.md'],
};
const sorted = (...lists) => lists.flat().sort();
const DISCUSSED = ['discuss:pre', 'discuss:post'];
const PLANNED = [...DISCUSSED, 'plan:pre', 'plan:post'];
const STARTED = [...PLANNED, 'execute:pre', 'execute:wave:pre'];
const WAVES_1 = { waves: { 1: ['01-01', '01-02'], 2: ['01-03'] } };
// `early`: points the rule gates before GSD has evaluated them, where the
// files cannot tell the two apart (docs/reference/gates.md, "Where the files
// cannot tell"). `current`: what --current-phase gates, where that is
// another phase than the step's.
const expect = (e) => ({ roadmapComplete: false, waves: {}, summarized: [], wavePre: [], wavePost: [], verification: 'missing', uat: null, early: [], ...e });

export const steps = [
  {
    name: 'a new project at phase 1, before discuss',
    run: newProject,
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'no_directory',
      status: 'planning',
      statusLine: 'Ready to plan',
      artifacts: {},
      reached: [],
      passed: [],
      atHead: [],
    }),
  },
  {
    // discuss-phase writes a checkpoint after each discussed area, after
    // dispatch_discuss_pre_hooks and before write_context.
    name: 'discuss-phase 1 under way: a checkpoint after the first area',
    run(dir) {
      gsd(dir, ['scaffold', 'phase-dir', '--phase', '1', '--name', 'Tasks']);
      const checkpoint = readFileSync(join(CORE, 'workflows/discuss-phase/templates/checkpoint.json'), 'utf8');
      write(
        dir,
        phaseFile(P1, 'DISCUSS-CHECKPOINT.json'),
        fill(checkpoint, [
          ['{PHASE_NUM}', '1'],
          ['{phase_name}', 'Tasks'],
          ['{ISO timestamp}', `${TODAY}T00:00:00Z`],
        ]),
      );
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'empty',
      status: 'planning',
      statusLine: 'Ready to plan',
      artifacts: { '01-tasks': ['01-DISCUSS-CHECKPOINT.json'] },
      reached: ['discuss:pre'],
      passed: ['discuss:pre'],
      atHead: [],
    }),
  },
  {
    name: 'discuss-phase 1 done: CONTEXT.md, DISCUSSION-LOG.md, the session recorded',
    run(dir) {
      // scaffold context is GSD's own writer of CONTEXT.md; the discussion
      // log has none, so it comes from discuss-phase's template.
      gsd(dir, ['scaffold', 'context', '--phase', '1', '--name', 'Tasks']);
      const log = fill(template('workflows/discuss-phase/templates/discussion-log.md'), [
        [/\[X\]/g, '1'],
        [/\[Name\]/g, 'Tasks'],
      ]);
      write(dir, phaseFile(P1, 'DISCUSSION-LOG.md'), log);
      rmSync(join(projectRoot(dir), phaseFile(P1, 'DISCUSS-CHECKPOINT.json')));
      commit(dir, 'docs(01): capture phase context', [phaseFile(P1, 'CONTEXT.md'), phaseFile(P1, 'DISCUSSION-LOG.md')]);
      gsd(dir, ['query', 'state.record-session', '--stopped-at', 'Phase 1 context gathered', '--resume-file', phaseFile(P1, 'CONTEXT.md')]);
      commit(dir, 'docs(state): record phase 1 context session', ['.planning/STATE.md']);
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'discussed',
      status: 'planning',
      statusLine: 'Ready to plan',
      artifacts: { '01-tasks': A.context },
      reached: DISCUSSED,
      passed: DISCUSSED,
      atHead: DISCUSSED,
    }),
  },
  {
    // plan-phase renders plan:pre (§4.6, its first gate) before it spawns the
    // researcher (§5); nothing it writes before that shows it started.
    name: 'plan-phase 1 under way: RESEARCH.md',
    run(dir) {
      const research = fill(template('templates/research.md', /^## Good Example/), [
        [/\[X\]/g, '1'],
        [/\[Name\]/g, 'Tasks'],
        ['**Researched:** [date]', `**Researched:** ${TODAY}`],
      ]);
      write(dir, phaseFile(P1, 'RESEARCH.md'), research);
      commit(dir, 'docs(1): research phase domain', [phaseFile(P1, 'RESEARCH.md')]);
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'researched',
      status: 'planning',
      statusLine: 'Ready to plan',
      artifacts: { '01-tasks': sorted(A.context, A.research) },
      reached: [...DISCUSSED, 'plan:pre'],
      passed: [...DISCUSSED, 'plan:pre'],
      atHead: [...DISCUSSED, 'plan:pre'],
    }),
  },
  {
    // The planner commits its plans; the checker, the coverage gates and
    // state.planned-phase (§13b) all come before plan:post (§13e).
    name: 'plan-phase 1: three plans in two waves written, planning not yet recorded',
    run(dir) {
      for (const [plan, { wave, fields }] of PLANS_1) {
        gsd(dir, ['template', 'fill', 'plan', '--phase', '1', '--plan', plan, '--wave', wave, ...(fields ? ['--fields', JSON.stringify(fields)] : [])]);
      }
      commit(
        dir,
        'docs(1): create phase plan',
        A.plans.map((f) => `.planning/phases/01-tasks/${f}`),
      );
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'planned',
      status: 'planning',
      statusLine: 'Ready to plan',
      artifacts: { '01-tasks': sorted(A.context, A.research, A.plans) },
      ...WAVES_1,
      summarized: [],
      // plan-phase records these plans and gates them next in this run; once
      // a later planned-phase or begin-phase rewrites STATE.md nothing tells
      // a recorded planning from this, so a plan is plan:post's mark.
      reached: [...DISCUSSED, 'plan:pre', 'plan:post'],
      passed: [...DISCUSSED, 'plan:pre'],
      early: ['plan:post'],
      atHead: [...DISCUSSED, 'plan:pre', 'plan:post'],
    }),
  },
  {
    name: 'plan-phase 1 recorded: state.planned-phase, ROADMAP annotated, plans committed',
    run(dir) {
      gsd(dir, ['query', 'state.planned-phase', '--phase', '1', '--name', 'Tasks', '--plans', '3']);
      gsd(dir, ['query', 'roadmap.annotate-dependencies', '1']);
      commit(dir, 'docs(01): create phase plan', ['.planning/STATE.md', '.planning/ROADMAP.md']);
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'planned',
      status: 'executing',
      statusLine: 'Ready to execute',
      artifacts: { '01-tasks': sorted(A.context, A.research, A.plans) },
      ...WAVES_1,
      summarized: [],
      reached: PLANNED,
      passed: PLANNED,
      atHead: PLANNED,
    }),
  },
  {
    name: 'execute-phase 1 started: state.begin-phase',
    run(dir) {
      gsd(dir, ['query', 'state.begin-phase', '--phase', '1', '--name', 'Tasks', '--plans', '3']);
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'planned',
      status: 'executing',
      statusLine: 'Executing Phase 1',
      artifacts: { '01-tasks': sorted(A.context, A.research, A.plans) },
      ...WAVES_1,
      summarized: [],
      wavePre: [1],
      wavePost: [],
      reached: PLANNED,
      passed: STARTED,
      atHead: PLANNED,
    }),
  },
  {
    name: 'execute-phase 1: wave 1 summarized (01-01, 01-02)',
    run(dir) {
      executePlan(dir, P1, '01');
      executePlan(dir, P1, '02');
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'partial',
      status: 'executing',
      statusLine: 'Ready to execute',
      artifacts: { '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md']) },
      ...WAVES_1,
      summarized: ['01-01', '01-02'],
      wavePre: [1, 2],
      wavePost: [1],
      reached: [...PLANNED, 'execute:wave:post'],
      passed: [...STARTED, 'execute:wave:post'],
      atHead: [...PLANNED, 'execute:wave:post'],
    }),
  },
  {
    name: 'execute-phase 1: wave 2 summarized, every plan done',
    run(dir) {
      executePlan(dir, P1, '03');
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'partial',
      status: 'verifying',
      statusLine: 'Phase complete — ready for verification',
      artifacts: { '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md']) },
      ...WAVES_1,
      summarized: ['01-01', '01-02', '01-03'],
      wavePre: [1, 2],
      wavePost: [1, 2],
      reached: [...PLANNED, 'execute:wave:post', 'execute:post'],
      passed: [...STARTED, 'execute:wave:post', 'execute:post'],
      atHead: [...PLANNED, 'execute:wave:post', 'execute:post'],
    }),
  },
  {
    // verify_phase_goal runs after code_review_gate, where execute:post's
    // gates run; a human_needed report persists its items as UAT.md.
    name: 'execute-phase 1 verified: VERIFICATION.md human_needed, its items persisted as UAT.md',
    run(dir) {
      gsd(dir, ['template', 'fill', 'verification', '--phase', '1', '--fields', JSON.stringify({ status: 'human_needed', score: '1/1 must-haves verified' })]);
      write(dir, phaseFile(P1, 'UAT.md'), uat(P1, { status: 'testing', source: '01-VERIFICATION.md', results: ['[pending]', '[pending]'] }));
      commit(dir, 'test(01): persist human verification items as UAT', [phaseFile(P1, 'UAT.md')]);
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'partial',
      status: 'verifying',
      statusLine: 'Phase complete — ready for verification',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
      },
      ...WAVES_1,
      summarized: ['01-01', '01-02', '01-03'],
      wavePre: [1, 2],
      wavePost: [1, 2],
      verification: 'human_needed',
      uat: 'testing',
      reached: [...PLANNED, 'execute:wave:post', 'execute:post'],
      passed: [...STARTED, 'execute:wave:post', 'execute:post', 'verify:post'],
      atHead: [...PLANNED, 'execute:wave:post', 'execute:post'],
    }),
  },
  {
    // verify-work renders verify:pre before it reads the UAT; a recorded
    // result is the first mark it leaves.
    name: 'verify-work 1 under way: the first result recorded',
    run(dir) {
      write(dir, phaseFile(P1, 'UAT.md'), uat(P1, { status: 'testing', source: '01-VERIFICATION.md', results: ['pass', '[pending]'] }));
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'partial',
      status: 'verifying',
      statusLine: 'Phase complete — ready for verification',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
      },
      ...WAVES_1,
      summarized: ['01-01', '01-02', '01-03'],
      wavePre: [1, 2],
      wavePost: [1, 2],
      verification: 'human_needed',
      uat: 'testing',
      reached: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre'],
      passed: [...STARTED, 'execute:wave:post', 'execute:post', 'verify:pre', 'verify:post'],
      atHead: [...PLANNED, 'execute:wave:post', 'execute:post'],
    }),
  },
  {
    name: 'verify-work 1 complete: UAT.md complete, no issues',
    run(dir) {
      write(dir, phaseFile(P1, 'UAT.md'), uat(P1, { status: 'complete', source: '01-VERIFICATION.md', results: ['pass', 'pass'] }));
      commit(dir, 'test(01): complete UAT - 2 passed, 0 issues', [phaseFile(P1, 'UAT.md')]);
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'partial',
      status: 'verifying',
      statusLine: 'Phase complete — ready for verification',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
      },
      ...WAVES_1,
      summarized: ['01-01', '01-02', '01-03'],
      wavePre: [1, 2],
      wavePost: [1, 2],
      verification: 'human_needed',
      uat: 'complete',
      reached: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre'],
      passed: [...STARTED, 'execute:wave:post', 'execute:post', 'verify:pre', 'verify:post'],
      atHead: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre'],
    }),
  },
  {
    // verify-work's complete_session: a human_needed report becomes passed,
    // then GSD's own predicate decides whether the phase may advance.
    name: 'ready to ship: VERIFICATION.md passed, phase uat-passed agrees',
    run(dir) {
      gsd(dir, ['query', 'frontmatter.set', phaseFile(P1, 'VERIFICATION.md'), '--field', 'status', '--value', 'passed']);
      const verdict = gsdJson(dir, ['phase', 'uat-passed', '1', '--require-verification']);
      if (verdict.passed !== true) throw new Error(`phase uat-passed 1: ${JSON.stringify(verdict)}`);
    },
    expected: expect({
      phase: '1',
      current_phase: '1',
      diskStatus: 'complete',
      status: 'verifying',
      statusLine: 'Phase complete — ready for verification',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
      },
      ...WAVES_1,
      summarized: ['01-01', '01-02', '01-03'],
      wavePre: [1, 2],
      wavePost: [1, 2],
      verification: 'passed',
      uat: 'complete',
      reached: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre'],
      passed: [...STARTED, 'execute:wave:post', 'execute:post', 'verify:pre', 'verify:post'],
      atHead: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre'],
    }),
  },
  {
    name: 'phase complete 1: phase 2 becomes current',
    run(dir) {
      // verify-work's auto-transition: transition.md runs phase.complete and,
      // unlike execute-phase's update_roadmap, commits nothing.
      gsd(dir, ['query', 'phase.complete', '1']);
    },
    expected: expect({
      phase: '1',
      current_phase: '2',
      diskStatus: 'complete',
      status: 'planning',
      statusLine: 'Ready to plan',
      roadmapComplete: true,
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
      },
      ...WAVES_1,
      summarized: ['01-01', '01-02', '01-03'],
      wavePre: [1, 2],
      wavePost: [1, 2],
      verification: 'passed',
      uat: 'complete',
      reached: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre'],
      passed: [...STARTED, 'execute:wave:post', 'execute:post', 'verify:pre', 'verify:post'],
      atHead: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre'],
    }),
  },
  {
    // ship.md: ship:pre's gates, then the push and the PR, then
    // track_shipping's two STATE writes, committed with [ci skip].
    name: 'ship 1: the PR made, the ship recorded in STATE.md',
    run(dir) {
      // Preflight wants a clean tree and asks the user to commit: the
      // transition's writes and the passed report reach git only here.
      git(dir, ['add', '.planning']);
      git(dir, ['commit', '-q', '-m', 'phase 1 complete']);
      gsd(dir, ['query', 'state.update', 'Last Activity', TODAY]);
      gsd(dir, ['query', 'state.update', 'Status', 'Phase 1 shipped — PR #1']);
      commit(dir, 'docs(01): ship phase 1 — PR #1 [ci skip]', ['.planning/STATE.md']);
    },
    expected: expect({
      phase: '1',
      current_phase: '2',
      diskStatus: 'complete',
      status: 'Phase 1 shipped — PR #1',
      statusLine: 'Phase 1 shipped — PR #1',
      roadmapComplete: true,
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
      },
      ...WAVES_1,
      summarized: ['01-01', '01-02', '01-03'],
      wavePre: [1, 2],
      wavePost: [1, 2],
      verification: 'passed',
      uat: 'complete',
      reached: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre', 'ship:pre'],
      passed: [...STARTED, 'execute:wave:post', 'execute:post', 'verify:pre', 'verify:post', 'ship:pre', 'ship:post'],
      atHead: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre', 'ship:pre'],
    }),
  },
  {
    // insert-phase.md: phase.insert, then a state.patch of `Current Phase`,
    // a field the STATE.md of templates/state.md does not have, so GSD
    // reports it failed and the current phase stays 2; it commits nothing.
    name: 'insert-phase after 1: an urgent decimal phase 1.1, STATE still at phase 2',
    run(dir) {
      gsd(dir, ['query', 'phase.insert', '1', 'Hotfix']);
      gsd(dir, ['query', 'state.patch', JSON.stringify({ 'Current Phase': '01.1', 'Next recommended run': '/gsd:plan-phase 01.1' })]);
      gsd(dir, ['query', 'state.add-roadmap-evolution', '--phase', '01.1', '--action', 'inserted', '--after', '1', '--note', 'Hotfix', '--urgent']);
    },
    expected: expect({
      phase: '1.1',
      current_phase: '2',
      diskStatus: 'empty',
      status: 'Phase 1 shipped — PR #1',
      statusLine: 'Phase 1 shipped — PR #1',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
        '01.1-hotfix': ['.gitkeep'],
      },
      waves: {},
      summarized: [],
      reached: [],
      passed: [],
      atHead: [],
      // STATE.md's 2 and the empty 1.1 have reached nothing: a CI job with
      // --current-phase gates 1, the completed phase its pull request carries.
      current: { phase: '1', reached: [...PLANNED, 'execute:wave:post', 'execute:post', 'verify:pre', 'ship:pre'] },
    }),
  },
  {
    // No discuss-phase for 1.1: plan-phase runs without CONTEXT.md ("Continue
    // without context"). planned-phase leaves a non-template Status alone.
    name: 'plan-phase 1.1 without discuss: one plan, planning recorded',
    run(dir) {
      gsd(dir, ['template', 'fill', 'plan', '--phase', '1.1', '--plan', '01', '--wave', '1']);
      commit(dir, 'docs(1.1): create phase plan', [phaseFile(P11, '01-PLAN.md')]);
      gsd(dir, ['query', 'state.planned-phase', '--phase', '1.1', '--name', 'Hotfix', '--plans', '1']);
      gsd(dir, ['query', 'roadmap.annotate-dependencies', '1.1']);
      commit(dir, 'docs(01.1): create phase plan', [phaseFile(P11, '01-PLAN.md'), '.planning/STATE.md', '.planning/ROADMAP.md']);
    },
    expected: expect({
      phase: '1.1',
      current_phase: '1.1',
      diskStatus: 'planned',
      status: 'Phase 1 shipped — PR #1',
      statusLine: 'Phase 1 shipped — PR #1',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
        '01.1-hotfix': ['.gitkeep', '01.1-01-PLAN.md'],
      },
      waves: { 1: ['01.1-01'] },
      summarized: [],
      reached: ['plan:pre', 'plan:post'],
      passed: ['plan:pre', 'plan:post'],
      atHead: ['plan:pre', 'plan:post'],
    }),
  },
  {
    name: 'execute-phase 1.1 started',
    run(dir) {
      gsd(dir, ['query', 'state.begin-phase', '--phase', '1.1', '--name', 'Hotfix', '--plans', '1']);
    },
    expected: expect({
      phase: '1.1',
      current_phase: '1.1',
      diskStatus: 'planned',
      status: 'executing',
      statusLine: 'Executing Phase 1.1',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
        '01.1-hotfix': ['.gitkeep', '01.1-01-PLAN.md'],
      },
      waves: { 1: ['01.1-01'] },
      summarized: [],
      wavePre: [1],
      wavePost: [],
      reached: ['plan:pre', 'plan:post'],
      passed: ['plan:pre', 'plan:post', 'execute:pre', 'execute:wave:pre'],
      atHead: ['plan:pre', 'plan:post'],
    }),
  },
  {
    name: 'execute-phase 1.1: its one wave summarized',
    run(dir) {
      executePlan(dir, P11, '01');
    },
    expected: expect({
      phase: '1.1',
      current_phase: '1.1',
      diskStatus: 'partial',
      status: 'verifying',
      statusLine: 'Phase complete — ready for verification',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
        '01.1-hotfix': ['.gitkeep', '01.1-01-PLAN.md', '01.1-01-SUMMARY.md'],
      },
      waves: { 1: ['01.1-01'] },
      summarized: ['01.1-01'],
      wavePre: [1],
      wavePost: [1],
      reached: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'],
      passed: ['plan:pre', 'plan:post', 'execute:pre', 'execute:wave:pre', 'execute:wave:post', 'execute:post'],
      atHead: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'],
    }),
  },
  {
    // The verifier passes: execute-phase goes on to phase.complete itself,
    // and verify-work (verify:pre) never runs for this phase.
    name: 'execute-phase 1.1 verified: VERIFICATION.md passed',
    run(dir) {
      gsd(dir, ['template', 'fill', 'verification', '--phase', '1.1', '--fields', JSON.stringify({ status: 'passed', score: '1/1 must-haves verified' })]);
    },
    expected: expect({
      phase: '1.1',
      current_phase: '1.1',
      diskStatus: 'complete',
      status: 'verifying',
      statusLine: 'Phase complete — ready for verification',
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
        '01.1-hotfix': ['.gitkeep', '01.1-01-PLAN.md', '01.1-01-SUMMARY.md', '01.1-VERIFICATION.md'],
      },
      waves: { 1: ['01.1-01'] },
      summarized: ['01.1-01'],
      wavePre: [1],
      wavePost: [1],
      verification: 'passed',
      reached: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'],
      passed: ['plan:pre', 'plan:post', 'execute:pre', 'execute:wave:pre', 'execute:wave:post', 'execute:post', 'verify:post'],
      atHead: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'],
    }),
  },
  {
    name: 'phase complete 1.1: phase 2 current again',
    run(dir) {
      gsd(dir, ['query', 'phase.complete', '1.1']);
      commit(dir, 'docs(phase-1.1): complete phase execution', ['.planning/ROADMAP.md', '.planning/STATE.md', phaseFile(P11, 'VERIFICATION.md')]);
    },
    expected: expect({
      phase: '1.1',
      current_phase: '2',
      diskStatus: 'complete',
      status: 'planning',
      statusLine: 'Ready to plan',
      roadmapComplete: false,
      artifacts: {
        '01-tasks': sorted(A.context, A.research, A.plans, ['01-01-SUMMARY.md', '01-02-SUMMARY.md', '01-03-SUMMARY.md', '01-UAT.md', '01-VERIFICATION.md']),
        '01.1-hotfix': ['.gitkeep', '01.1-01-PLAN.md', '01.1-01-SUMMARY.md', '01.1-VERIFICATION.md'],
      },
      waves: { 1: ['01.1-01'] },
      summarized: ['01.1-01'],
      wavePre: [1],
      wavePost: [1],
      verification: 'passed',
      reached: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'],
      passed: ['plan:pre', 'plan:post', 'execute:pre', 'execute:wave:pre', 'execute:wave:post', 'execute:post', 'verify:post'],
      atHead: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'],
    }),
  },
];

// ---------------------------------------------------------------------------
// What GSD reports about a phase, and the rule applied to it.

// GSD names a phase `1`, `01`, `1.1` or `01.1` in different places.
export const samePhase = (a, b) => String(a).replace(/(^|\.)0+(?=\d)/g, '$1') === String(b).replace(/(^|\.)0+(?=\d)/g, '$1');

// A STATE.md body field as GSD's body parser finds it (`Label: value` or
// `**Label:** value`), the first occurrence.
function bodyField(state, label) {
  const body = state.replace(/^---\n[\s\S]*?\n---\n/, '');
  const match = new RegExp(`^(?:\\*\\*)?${label}:(?:\\*\\*)?[ \\t]*(.*)$`, 'mi').exec(body);
  return match ? match[1].trim() : null;
}

const frontmatterStatus = (text) => /^---\n[\s\S]*?^status:[ \t]*(.*)$/m.exec(text)?.[1].trim() ?? null;

export function observe(dir, phase) {
  const root = projectRoot(dir);
  const snap = gsdJson(dir, ['state-snapshot', '--raw']);
  const state = read(dir, '.planning/STATE.md');
  const phasesDir = join(root, '.planning', 'phases');
  const artifacts = {};
  if (existsSync(phasesDir)) for (const name of readdirSync(phasesDir).sort()) artifacts[name] = readdirSync(join(phasesDir, name)).sort();
  const found = gsdJson(dir, ['find-phase', phase]);
  const phaseDir = found.found ? join(root, found.directory) : null;
  const files = phaseDir ? readdirSync(phaseDir).sort() : [];
  const has = (suffix) => files.some((f) => f.endsWith(suffix));
  const text = (suffix) => {
    const file = files.find((f) => f.endsWith(suffix));
    return file ? readFileSync(join(phaseDir, file), 'utf8') : null;
  };
  const index = files.some((f) => f.endsWith('-PLAN.md')) ? gsdJson(dir, ['phase-plan-index', phase]) : { plans: [], waves: {} };
  const analyzed = gsdJson(dir, ['query', 'roadmap.analyze']).phases.find((p) => samePhase(p.number ?? p.phase_number, phase));
  const uatText = text('-UAT.md');
  return {
    phase,
    snapshot: { current_phase: snap.current_phase, status: snap.status },
    statusLine: bodyField(state, 'Status'),
    positionLine: bodyField(state, 'Phase'),
    artifacts,
    files,
    waves: index.waves,
    summarized: index.plans.filter((p) => p.has_summary).map((p) => p.id),
    verification: has('-VERIFICATION.md') ? gsdJson(dir, ['query', 'verification.status', found.directory]).status : 'missing',
    roadmapComplete: analyzed?.roadmap_complete === true,
    diskStatus: analyzed?.disk_status ?? null,
    context: text('-CONTEXT.md'),
    discussionLog: text('-DISCUSSION-LOG.md'),
    uat: uatText === null ? null : { status: frontmatterStatus(uatText), text: uatText },
  };
}

// The markers GSD's other writers of CONTEXT.md leave: assumptions mode,
// autonomous with workflow.skip_discuss, plan-phase's PRD and ADR express
// paths. None of them renders discuss:pre or discuss:post.
const NOT_DISCUSSED = [/\*\*Mode:\*\* Auto-generated/, /\*\*Source:\*\* PRD Express Path/, /\*\*Source:\*\* ADR Ingest Express Path/];

function discussed(o) {
  if (o.context === null) return false;
  if (NOT_DISCUSSED.some((marker) => marker.test(o.context))) return false;
  return !(o.discussionLog !== null && /\*\*Mode:\*\* assumptions/.test(o.discussionLog));
}

// verify-work leaves one of these on a UAT; the UAT execute-phase persists
// for human_needed is `testing`, every result pending, its source the report.
function verifyWorkRan(uat) {
  if (uat === null) return false;
  if (['partial', 'complete', 'diagnosed'].includes(uat.status)) return true;
  const results = [...uat.text.matchAll(/^result:[ \t]*(.*)$/gm)].map((m) => m[1].trim());
  if (results.some((r) => r !== '[pending]')) return true;
  return /^source:.*SUMMARY\.md/m.test(uat.text);
}

// The rule: for phase `o.phase`, which points GSD 1.14 has evaluated the
// gates of (`reached`), which it has gone past (`passed`), and, per wave, the
// waves whose execute:wave:pre moment has passed and whose execute:wave:post
// gates have run.
export function reachedPoints(o) {
  const plans = o.files.some((f) => f.endsWith('-PLAN.md'));
  const waveNumbers = Object.keys(o.waves)
    .map(Number)
    .sort((a, b) => a - b);
  const waveDone = (w) => o.waves[w].every((id) => o.summarized.includes(id));
  // GSD's own completeness: a passing VERIFICATION.md (roadmap.cjs gives the
  // ROADMAP checkbox no authority, and phase insert writes none to tick).
  const complete = o.diskStatus === 'complete';
  // execute-phase persists a human_needed report's items as a UAT whose
  // source is the report, and commits that UAT but not the report.
  const verified = o.files.some((f) => f.endsWith('-VERIFICATION.md')) || (o.uat !== null && /^source:.*VERIFICATION\.md/m.test(o.uat.text));
  const positionIs = (label) =>
    o.positionLine !== null && new RegExp(`^(\\S+)\\s.*— ${label}$`).test(o.positionLine) && samePhase(o.positionLine.split(/\s/)[0], o.phase);
  const started = positionIs('EXECUTING') || o.summarized.length > 0 || verified || complete;
  const plannedRecorded = plans && (positionIs('READY TO EXECUTE') || started);
  const shipNote = o.statusLine === null ? null : /^Phase (\S+) shipped — PR #\d+$/.exec(o.statusLine);
  const shipped = shipNote !== null && samePhase(shipNote[1], o.phase);

  const wavePost = waveNumbers.filter(waveDone);
  const wavePre = started ? waveNumbers.filter((w) => waveNumbers.filter((v) => v < w).every(waveDone)) : [];
  const verifyWork = verifyWorkRan(o.uat);

  const reached = new Set();
  const passed = new Set();
  const gated = (...points) => points.forEach((p) => (reached.add(p), passed.add(p)));
  // GSD 1.14 renders these but dispatches only their steps and contributions
  // (execute:pre it never renders): their moment passes, no gate of theirs runs.
  const ungated = (...points) => points.forEach((p) => passed.add(p));
  if (discussed(o)) gated('discuss:pre', 'discuss:post');
  else if (o.files.some((f) => f.endsWith('-DISCUSS-CHECKPOINT.json'))) gated('discuss:pre');
  if (['-RESEARCH.md', '-VALIDATION.md', '-PATTERNS.md', '-PLAN.md'].some((s) => o.files.some((f) => f.endsWith(s)))) gated('plan:pre');
  if (plans) reached.add('plan:post');
  if (plannedRecorded) gated('plan:post');
  if (started) ungated('execute:pre', 'execute:wave:pre');
  // A point passed stays passed: a verified phase has had its waves.
  if (wavePost.length > 0 || (plans && verified)) gated('execute:wave:post');
  // execute-phase runs execute:post's gates in code_review_gate, right
  // after the last wave, before the verifier writes anything.
  if (plans && waveNumbers.length > 0 && waveNumbers.every(waveDone)) gated('execute:post');
  if (verified || complete) {
    gated('execute:post');
    ungated('verify:post');
  }
  if (verifyWork) {
    gated('verify:pre');
    ungated('verify:post');
  }
  if (shipped) {
    gated('ship:pre');
    ungated('ship:post');
  }
  const inOrder = (set) => POINTS.filter((p) => set.has(p));
  return { reached: inOrder(reached), passed: inOrder(passed), wavePre, wavePost };
}

// The project as its last commit has it, which is what a CI job on a pull
// request sees: GSD's workflows commit at their own moments, and some of
// what they write (a checkpoint, begin-phase's STATE, a passed report before
// phase.complete) is in no commit yet.
export function observeHead(dir, phase) {
  const head = join(dir, 'head');
  rmSync(head, { recursive: true, force: true });
  mkdirSync(join(head, 'project'), { recursive: true });
  mkdirSync(join(head, 'home'));
  const result = spawnSync('sh', ['-c', 'git archive --format=tar HEAD | tar -x -C "$1"', 'sh', projectRoot(head)], {
    cwd: projectRoot(dir),
    env: env(dir),
    encoding: 'utf8',
    timeout: COMMAND_TIMEOUT_MS,
  });
  if (result.status !== 0) throw new Error(`git archive HEAD: exit ${result.status ?? result.signal}\n${result.stderr}`);
  return observe(head, phase);
}

// Runs every step in a fresh project under `dir`, handing each step's
// observation to `onStep`.
export function drive(dir, onStep = () => {}) {
  for (const step of steps) {
    step.run(dir);
    onStep(step, observe(dir, step.expected.phase));
  }
}
