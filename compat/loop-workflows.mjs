// GSD 1.14's workflows played in their modes, write by write, with the
// points each has evaluated the gates of by then, for gsd-check's --reached
// to be held to (compat/test/loop-workflows.test.mjs). A scenario picks the
// modes (discuss --auto, --power, assumptions, skip_discuss, plan --prd;
// plan with research, --skip-research, imported; verification passed, for a
// person, or with gaps and plan --gaps; ship), may plan the next phase ahead
// and insert a decimal phase, and may stop an agent between two writes, after
// which it reruns the workflow (GSD resumes: written steps are not redone,
// the points are evaluated again) or, for discuss, moves on without it.
// GSD's commands make every change they exist for; an agent's files come from
// GSD's templates. Where each workflow evaluates a point: loop-reached.md §1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { environment, GSD_TOOLS, NODE, POINTS } from './harness.mjs';
import { askReached, fill, initialState, ROADMAP, template, uat } from './loop-lifecycle.mjs';

const CORE = dirname(dirname(GSD_TOOLS));
const TODAY = new Date().toISOString().slice(0, 10);
// Not a timing assumption about GSD: a bound so a hung command fails its run.
const COMMAND_TIMEOUT_MS = 60_000;

export const PHASES = {
  1: { number: '1', padded: '01', name: 'Tasks', dir: '01-tasks' },
  2: { number: '2', padded: '02', name: 'Export', dir: '02-export' },
  1.1: { number: '1.1', padded: '01.1', name: 'Hotfix', dir: '01.1-hotfix' },
};
const fileOf = (phase, name) => `.planning/phases/${phase.dir}/${phase.padded}-${name}`;

// The plan sets a planner may write: `number@wave`, `<` the plan it needs.
const plansOf = (...xs) => xs.map((x) => x.split(/[@<]/)).map(([n, w, d]) => [n, w, d ? [d] : []]);
const SHAPES = { one: plansOf('01@1'), two: plansOf('01@1', '02@1'), waves: plansOf('01@1', '02@2<01') };

function project(base) {
  const root = join(base, 'project');
  const env = environment(join(base, 'home'), { GIT_CONFIG_NOSYSTEM: '1' });
  const gsd = (args) => {
    const result = spawnSync(NODE, [GSD_TOOLS, ...args], { cwd: root, env, encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS });
    if (result.status !== 0) throw new Error(`gsd-tools ${args.join(' ')}: exit ${result.status ?? result.signal}\n${result.stderr}${result.stdout}`);
    return result.stdout;
  };
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  return { base, root, env, gsd, write, remove: (path) => rmSync(join(root, path), { force: true }) };
}

// A project at phase 1 of two, as new-project leaves it (no git: --reached reads no history).
export function newProject(base) {
  mkdirSync(join(base, 'home'), { recursive: true });
  mkdirSync(join(base, 'project'), { recursive: true });
  const p = project(base);
  p.gsd(['config-new-project', '{}']);
  p.write('.planning/PROJECT.md', fill(template('templates/project.md'), [['# [Project Name]', '# Demo']]));
  p.write('.planning/ROADMAP.md', ROADMAP);
  p.write('.planning/STATE.md', initialState());
  return p;
}

// What `template fill` writes for a plan, summary or report, made once in a
// scratch project and copied after: an agent writes these files itself, in
// the shape GSD's template gives, and spawning GSD for each would only cost.
const filled = new Map();
let scratch;
function agentFile(kind, phase, plan, fields = {}) {
  const key = JSON.stringify([kind, phase.number, plan, fields]);
  if (!filled.has(key)) {
    ensureScratch();
    const name = kind === 'verification' ? 'VERIFICATION.md' : `${plan}-${kind.toUpperCase()}.md`;
    scratch.remove(fileOf(phase, name));
    const args = ['template', 'fill', kind, '--phase', phase.number, ...(plan ? ['--plan', plan] : [])];
    const { wave, ...planFields } = fields;
    scratch.gsd([...args, ...(kind === 'plan' ? ['--wave', wave, '--fields', JSON.stringify(planFields)] : [])]);
    if (kind === 'verification') scratch.gsd(['query', 'frontmatter.set', fileOf(phase, name), '--field', 'status', '--value', fields.status]);
    filled.set(key, readFileSync(join(scratch.root, fileOf(phase, name)), 'utf8'));
  }
  return filled.get(key);
}

function ensureScratch() {
  if (scratch !== undefined) return;
  scratch = newProject(realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-wf-scratch-'))));
  for (const ph of Object.values(PHASES)) mkdirSync(join(scratch.root, '.planning/phases', ph.dir), { recursive: true });
}

export function cleanup() {
  if (scratch !== undefined) rmSync(scratch.base, { recursive: true, force: true });
  scratch = undefined;
}

// CONTEXT.md as `scaffold context` writes it, with the line the writer leaves.
const CONTEXT_MARKS = {
  discuss: null,
  power: null,
  assumptions: [/^(# Phase .* Context)$/m, `$1\n\n**Gathered:** ${TODAY} (assumptions mode)`],
  skip_discuss: [/^(# Phase .* Context)$/m, `$1\n\n**Gathered:** ${TODAY}\n**Mode:** Auto-generated (discuss skipped via workflow.skip_discuss)`],
  prd: [/^(# Phase .* Context)$/m, `$1\n\n**Gathered:** ${TODAY}\n**Source:** PRD Express Path (docs/prd.md)`],
};
function contextText(phase, writer) {
  const key = JSON.stringify(['context', phase.number]);
  if (!filled.has(key)) {
    ensureScratch();
    scratch.remove(fileOf(phase, 'CONTEXT.md'));
    scratch.gsd(['scaffold', 'context', '--phase', phase.number, '--name', phase.name]);
    filled.set(key, readFileSync(join(scratch.root, fileOf(phase, 'CONTEXT.md')), 'utf8'));
  }
  const mark = CONTEXT_MARKS[writer];
  return mark === null ? filled.get(key) : fill(filled.get(key), [mark]);
}

// The steps a run is made of: `{ eval }` where the workflow evaluates a
// point's gates, `{ write }` a change to the project, named for the
// reproduction and, within a run, for its resumption.
const ev = (phase, point) => ({ phase: phase.number, eval: point });
const wr = (phase, write, run) => ({ phase: phase.number, write, run });
const mkdir = (p, phase) => mkdirSync(join(p.root, '.planning/phases', phase.dir), { recursive: true });

function discuss(phase, mode, areas) {
  const context = (writer) => (p) => (mkdir(p, phase), p.write(fileOf(phase, 'CONTEXT.md'), contextText(phase, writer)));
  const log = (assumptions) => (p) => {
    const text = fill(template('workflows/discuss-phase/templates/discussion-log.md'), [
      [/\[X\]/g, phase.number],
      [/\[Name\]/g, phase.name],
    ]);
    p.write(fileOf(phase, 'DISCUSSION-LOG.md'), assumptions ? text.replace(/\n\n/, '\n\n**Mode:** assumptions\n\n') : text);
    p.remove(fileOf(phase, 'DISCUSS-CHECKPOINT.json'));
  };
  const checkpoint = (p) => {
    mkdir(p, phase);
    const text = readFileSync(join(CORE, 'workflows/discuss-phase/templates/checkpoint.json'), 'utf8');
    const fields = { '{PHASE_NUM}': phase.number, '{phase_name}': phase.name, '{ISO timestamp}': `${TODAY}T00:00:00Z` };
    p.write(fileOf(phase, 'DISCUSS-CHECKPOINT.json'), fill(text, Object.entries(fields)));
  };
  switch (mode) {
    // --auto takes discuss-phase's own steps with the answers chosen for it.
    case 'default':
    case 'auto':
      return [
        ev(phase, 'discuss:pre'),
        ...(areas ? [wr(phase, 'discuss: checkpoint after an area', checkpoint)] : []),
        wr(phase, 'discuss: CONTEXT.md', context('discuss')),
        ev(phase, 'discuss:post'),
        wr(phase, 'discuss: DISCUSSION-LOG.md', log(false)),
      ];
    // --power leaves discuss-phase before its hooks, for modes/power.md.
    case 'power':
      return [
        wr(phase, 'discuss --power: QUESTIONS.json', (p) => (mkdir(p, phase), p.write(fileOf(phase, 'QUESTIONS.json'), '{"questions":[]}\n'))),
        wr(phase, 'discuss --power: CONTEXT.md', context('power')),
      ];
    // discuss-phase-assumptions.md renders no hooks; CONTEXT.md comes first.
    case 'assumptions':
      return [wr(phase, 'discuss (assumptions): CONTEXT.md', context('assumptions')), wr(phase, 'discuss (assumptions): DISCUSSION-LOG.md', log(true))];
    case 'skip_discuss':
      return [wr(phase, 'autonomous skip_discuss: CONTEXT.md', context('skip_discuss'))];
    default:
      return [];
  }
}

// An imported plan carries import's `type:` (import.md's plan_convert),
// where plan-phase's planner writes `execute`.
function writePlans(phase, plans, label) {
  const type = label.startsWith('import') ? { type: 'feature' } : {};
  return plans.map(([n, wave, deps]) =>
    wr(phase, `${label}: ${phase.padded}-${n}-PLAN.md`, (p) =>
      p.write(fileOf(phase, `${n}-PLAN.md`), agentFile('plan', phase, n, { wave, depends_on: deps.map((d) => `${phase.padded}-${d}`), ...type })),
    ),
  );
}

// plan-phase: plan:pre at §4.6 before research, plans, state.planned-phase
// (§13b), then plan:post (§13e). --prd writes CONTEXT.md before §4.6. An
// imported plan (import --from) renders no plan hooks.
function plan(phase, mode, prd, plans) {
  if (mode === 'import') return writePlans(phase, plans, 'import --from');
  const recorded = wr(phase, 'plan: state.planned-phase', (p) =>
    p.gsd(['query', 'state.planned-phase', '--phase', phase.number, '--name', phase.name, '--plans', String(plans.length)]),
  );
  const research = (p) =>
    p.write(
      fileOf(phase, 'RESEARCH.md'),
      fill(template('templates/research.md', /^## Good Example/), [
        [/\[X\]/g, phase.number],
        [/\[Name\]/g, phase.name],
      ]),
    );
  return [
    ...(prd ? [wr(phase, 'plan --prd: CONTEXT.md', (p) => (mkdir(p, phase), p.write(fileOf(phase, 'CONTEXT.md'), contextText(phase, 'prd'))))] : []),
    ev(phase, 'plan:pre'),
    ...(mode === 'research' ? [wr(phase, 'plan: RESEARCH.md', (p) => (mkdir(p, phase), research(p)))] : []),
    ...writePlans(phase, plans, 'plan'),
    recorded,
    ev(phase, 'plan:post'),
  ];
}

// execute-phase: begin-phase, per wave each plan's SUMMARY and its STATE
// update then execute:wave:post (5.75), execute:post in code_review_gate,
// the verifier's report; a passing one completes the phase.
function execute(phase, plans, outcome) {
  const waves = [...new Set(plans.map(([, wave]) => wave))].sort();
  const steps = [
    wr(phase, 'execute: state.begin-phase', (p) =>
      p.gsd(['query', 'state.begin-phase', '--phase', phase.number, '--name', phase.name, '--plans', String(plans.length)]),
    ),
  ];
  for (const wave of waves) {
    for (const [n] of plans.filter(([, w]) => w === wave)) {
      steps.push(wr(phase, `execute: ${phase.padded}-${n}-SUMMARY.md`, (p) => p.write(fileOf(phase, `${n}-SUMMARY.md`), agentFile('summary', phase, n))));
      steps.push(wr(phase, `execute: state.advance-plan after ${phase.padded}-${n}`, (p) => p.gsd(['query', 'state.advance-plan'])));
    }
    steps.push(ev(phase, 'execute:wave:post'));
  }
  steps.push(ev(phase, 'execute:post'));
  const report = (status) => (p) => p.write(fileOf(phase, 'VERIFICATION.md'), agentFile('verification', phase, undefined, { status }));
  if (outcome === 'passed') steps.push(wr(phase, 'execute: VERIFICATION.md passed', report('passed')), complete(phase));
  if (outcome === 'gaps') steps.push(wr(phase, 'execute: VERIFICATION.md gaps_found', report('gaps_found')));
  if (outcome === 'human')
    steps.push(
      wr(phase, 'execute: VERIFICATION.md human_needed', report('human_needed')),
      wr(phase, 'execute: UAT.md persisted', (p) =>
        p.write(fileOf(phase, 'UAT.md'), uat(phase, { status: 'testing', source: `${phase.padded}-VERIFICATION.md`, results: ['[pending]'] })),
      ),
    );
  return steps;
}

const complete = (phase) => wr(phase, `phase.complete ${phase.number}`, (p) => p.gsd(['query', 'phase.complete', phase.number]));
const passed = (phase, label) =>
  wr(phase, `${label}: VERIFICATION.md passed`, (p) =>
    p.gsd(['query', 'frontmatter.set', fileOf(phase, 'VERIFICATION.md'), '--field', 'status', '--value', 'passed']),
  );

// verify-work: verify:pre before it reads or makes the UAT, then a result.
function verify(phase) {
  const session = (status, result) => (p) =>
    p.write(fileOf(phase, 'UAT.md'), uat(phase, { status, source: `${phase.padded}-VERIFICATION.md`, results: [result] }));
  return [
    ev(phase, 'verify:pre'),
    wr(phase, 'verify-work: first result', session('testing', 'pass')),
    wr(phase, 'verify-work: UAT complete', session('complete', 'pass')),
    passed(phase, 'verify-work'),
    complete(phase),
  ];
}

// A gap plan closes the verifier's gaps: plan --gaps (no research), then
// execute-phase --gaps-only runs it alone.
function gaps(phase) {
  const gap = [['09', '1', []]];
  return [
    {
      name: `plan-phase ${phase.number} --gaps`,
      steps: [ev(phase, 'plan:pre'), ...writePlans(phase, gap, 'plan --gaps'), ...plan(phase, 'skip-research', false, gap).slice(-2)],
    },
    { name: `execute-phase ${phase.number} --gaps-only`, steps: [...execute(phase, gap, 'none'), passed(phase, 'verifier'), complete(phase)] },
  ];
}

function ship(phase) {
  return [
    ev(phase, 'ship:pre'),
    wr(phase, 'ship: the note in STATE.md', (p) => p.gsd(['query', 'state.update', 'Status', `Phase ${phase.number} shipped — PR #1`])),
  ];
}

// The runs of one phase's way through the loop, as a scenario's choices say.
function phaseRuns(phase, c, { through = 'ship' } = {}) {
  const plans = SHAPES[c.shape];
  const runs = [];
  if (c.discuss !== 'none' && c.discuss !== 'prd')
    runs.push({ name: `discuss-phase ${phase.number} (${c.discuss})`, steps: discuss(phase, c.discuss, c.areas), discuss: true });
  runs.push({
    name: `plan-phase ${phase.number} (${c.plan}${c.discuss === 'prd' && c.plan !== 'import' ? ', --prd' : ''})`,
    steps: plan(phase, c.plan, c.discuss === 'prd', plans),
  });
  if (through === 'plan') return runs;
  runs.push({ name: `execute-phase ${phase.number} (${c.outcome})`, steps: execute(phase, plans, c.outcome) });
  if (c.outcome === 'human') runs.push({ name: `verify-work ${phase.number}`, steps: verify(phase) });
  if (c.outcome === 'gaps') runs.push(...gaps(phase));
  if (c.ship) runs.push({ name: `ship ${phase.number}`, steps: ship(phase) });
  return runs;
}

// Every run of a scenario in order, with its stop applied: the stopped run
// keeps its steps up to that write, then is run again (or, for discuss,
// left: plan-phase goes on without a context).
export function runsOf(s) {
  const planned = phaseRuns(PHASES[1], s.p1, { through: 'plan' });
  const runs = [...planned, ...(s.ahead ? phaseRuns(PHASES[2], s.ahead, { through: 'plan' }) : []), ...phaseRuns(PHASES[1], s.p1).slice(planned.length)];
  if (s.insert) {
    runs.push({ name: 'insert-phase 1 Hotfix', steps: [wr(PHASES[1.1], 'phase.insert 1 Hotfix', (p) => p.gsd(['query', 'phase.insert', '1', 'Hotfix']))] });
    runs.push(...phaseRuns(PHASES[1.1], s.insert));
  }
  // The phase planned ahead, taken through: the milestone's last phase,
  // whose completion leaves STATE.md at `All phases complete`.
  if (s.ahead && s.finish) runs.push(...phaseRuns(PHASES[2], s.ahead).slice(phaseRuns(PHASES[2], s.ahead, { through: 'plan' }).length));
  // What each write's run evaluates next with only STATE.md's plan counters
  // (advance-plan, which the rule does not read) written first: the same
  // whether the agent then goes on or stops there.
  for (const run of runs)
    run.steps.forEach((step, i) => {
      if (!step.write) return;
      const rest = run.steps.slice(i + 1);
      const until = rest.findIndex((x) => x.write && !x.write.includes('state.advance-plan'));
      step.window = (until < 0 ? rest : rest.slice(0, until)).filter((x) => x.eval);
    });
  if (s.stop === null) return runs;
  const at = s.stop.run % runs.length;
  const run = runs[at];
  const writes = run.steps.map((step, i) => (step.write ? i : -1)).filter((i) => i >= 0);
  if (writes.length < 2) return runs;
  const cut = writes[s.stop.write % (writes.length - 1)];
  const stopped = { name: `${run.name}, stopped after "${run.steps[cut].write}"`, id: at, steps: run.steps.slice(0, cut + 1) };
  const again = run.discuss && s.stop.abandon ? [] : [{ name: `${run.name}, run again`, id: at, steps: run.steps }];
  return [...runs.slice(0, at), stopped, ...again, ...runs.slice(at + 1)];
}

// gsd-check's --reached for one phase of the project at `p` ({root, env}):
// its reached points and its frontier, read by `whose` reading.
export function checkReached(p, phase, whose = ['--builtin']) {
  const { args, result } = askReached(p.root, p.env, ['--phase-number', phase], whose);
  if (result.status !== 0) throw new Error(`gsd-check ${args.join(' ')}: exit ${result.status ?? result.signal}\n${result.stderr}${result.stdout}`);
  const loop = JSON.parse(result.stdout);
  return { reached: loop.points.filter((x) => x.reached).map((x) => x.point), next: loop.next?.point ?? null };
}

// --reached reads only STATE.md and the phase's own directory: the same
// inputs give the same answer, without another process.
function cachedReached(p, phase, cache) {
  const dir = join(p.root, '.planning/phases', phase.dir);
  const inputs = [
    readFileSync(join(p.root, '.planning/STATE.md'), 'utf8'),
    ...readdirSync(dir)
      .sort()
      .flatMap((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  ];
  const key = JSON.stringify([phase.number, inputs]);
  if (!cache.has(key)) cache.set(key, checkReached(p, phase.number));
  return cache.get(key);
}

// Plays a scenario in a fresh project under `base`, and after each write
// asks --reached of every phase that has a directory. Each observation: the
// step, the phase, --reached's answer (`reached`, `next`), and what GSD's
// workflows evaluated of the phase: `lo` before that write, `hi` by the
// next one (GSD evaluates those next on this same tree, so a halt there
// leaves it just so), `later` what its run evaluates next past writes the
// rule does not read, had the agent gone on.
export function play(base, s) {
  const p = newProject(base);
  // A run and its rerun share an id: what the first wrote is not redone.
  const steps = runsOf(s).flatMap((run, i) =>
    run.steps.map((step) => ({ ...step, run: run.name, act: step.run, id: run.id ?? `run ${i}`, key: `${run.id ?? `run ${i}`}: ${step.write}` })),
  );
  const evaluated = new Map(Object.values(PHASES).map((ph) => [ph.number, new Set()]));
  const done = new Set();
  const observations = [];
  const cache = new Map();
  steps.forEach((step, i) => {
    if (step.eval) return evaluated.get(step.phase).add(step.eval);
    // A rerun resumes: GSD does not redo what it has written.
    if (done.has(step.key)) return;
    done.add(step.key);
    step.act(p);
    const following = steps.slice(i + 1);
    const upTo = following.findIndex((x) => x.write && !done.has(x.key));
    const window = (upTo < 0 ? following : following.slice(0, upTo)).filter((x) => x.eval);
    for (const ph of Object.values(PHASES)) {
      if (!existsSync(join(p.root, '.planning/phases', ph.dir))) continue;
      const lo = new Set(evaluated.get(ph.number));
      const hi = new Set([...lo, ...window.filter((x) => x.phase === ph.number).map((x) => x.eval)]);
      const later = new Set(step.window.filter((x) => x.phase === ph.number).map((x) => x.eval));
      const answer = cachedReached(p, ph, cache);
      const order = (set) => POINTS.filter((x) => set.has(x));
      const evaluatedOf = { lo: order(lo), hi: order(hi), later: order(later) };
      observations.push({
        step: `${step.run}: ${step.write}`,
        phase: ph.number,
        ...answer,
        ...evaluatedOf,
      });
    }
  });
  return observations;
}
