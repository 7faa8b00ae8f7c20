// GSD's workflows in random modes and orders (compat/loop-workflows.mjs),
// with --reached asked after every write and held to the points the
// workflows have evaluated by then. Each phase at each step is one of:
//   agree              the reached set is what GSD evaluated;
//   window             reached before its gates run, by a write after which
//                      the run evaluates it with only STATE.md's plan
//                      counters written between (loop-reached.md, 6.2);
//   frontier           evaluated after the last write, nothing written since,
//                      so not reached (the note's "Left open");
//   fail-closed        reached where GSD has evaluated nothing, on files
//                      that cannot be told from files where it has: gated,
//                      as gates.md decides (DECIDED below);
//   gated-unreached    reached where GSD has evaluated nothing;
//   skipped-evaluated  evaluated by GSD and not reached: a gate --reached
//                      would skip where GSD's loop halts.
// The last two fail, with the scenario as a reproduction. GSD_CHECK_FUZZ_RUNS
// sets the number of scenarios (CI runs a sample, always the same),
// GSD_CHECK_FUZZ_SEED picks others; the counts print at the end.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { cleanup, play, runsOf } from '../loop-workflows.mjs';

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 2);
const SEED = Number(process.env.GSD_CHECK_FUZZ_SEED ?? 20261203);

const phase = fc.record({
  discuss: fc.constantFrom('default', 'auto', 'power', 'assumptions', 'skip_discuss', 'prd', 'none'),
  areas: fc.boolean(),
  plan: fc.constantFrom('research', 'skip-research', 'import'),
  shape: fc.constantFrom('one', 'two', 'waves'),
  outcome: fc.constantFrom('passed', 'human', 'gaps'),
  ship: fc.boolean(),
});
const scenario = fc.record({
  p1: phase,
  ahead: fc.option(phase, { nil: null }),
  insert: fc.option(phase, { nil: null }),
  finish: fc.boolean(),
  stop: fc.option(fc.record({ run: fc.nat(20), write: fc.nat(10), abandon: fc.boolean() }), { nil: null }),
});

const SEVERITY = ['agree', 'window', 'frontier', 'fail-closed', 'gated-unreached', 'skipped-evaluated'];

function classify(o, s) {
  const [lo, hi, later] = [new Set(o.lo), new Set(o.hi), new Set(o.later)];
  const points = [];
  for (const point of o.reached) {
    if (hi.has(point)) continue;
    points.push({ point, class: later.has(point) ? 'window' : 'gated-unreached' });
  }
  for (const point of hi) {
    if (!o.reached.includes(point)) points.push({ point, class: lo.has(point) ? 'skipped-evaluated' : 'frontier', next: point === o.next });
  }
  for (const x of points) {
    const decided = DECIDED.find((d) => x.class === 'gated-unreached' && d.holds(o, x, s));
    if (decided !== undefined) Object.assign(x, { class: 'fail-closed', decided: decided.id });
  }
  const worst = (list) => list.reduce((w, x) => (SEVERITY.indexOf(x.class) > SEVERITY.indexOf(w) ? x.class : w), 'agree');
  return { class: worst(points), points, decided: points.map((x) => x.decided).filter((d) => d !== undefined) };
}

// Where the files GSD leaves cannot tell a point evaluated from one not yet,
// --reached gates it (docs/reference/gates.md, "Where the files cannot
// tell"); each entry holds exactly the steps its decision covers.
const DECIDED = [
  {
    // plan-phase records its plans (state.planned-phase) and gates them in
    // the run that writes them; the next planned-phase or begin-phase of any
    // phase rewrites that record, so a plan is plan:post's mark. In the
    // planning run itself, before the record, it is gated early.
    id: 'plan-before-record',
    holds: (o, x) => x.point === 'plan:post' && /^plan-phase /.test(o.step),
  },
  {
    // A passed phase a later one has begun after: GSD's ship note does not
    // outlive that begin-phase, so an unshipped phase reads as a shipped one
    // from then on.
    id: 'ship-past-record',
    holds: (o, x, s) => x.point === 'ship:pre' && !runsOf(s).some((r) => r.name === `ship ${o.phase}`),
  },
  {
    // discuss-phase stopped after write_context and left for plan-phase: the
    // same files as a halt at discuss:post's gates (loop-reached.md 6.2).
    id: 'discuss-left-after-context',
    holds: (o, x, s) => x.point === 'discuss:post' && s.stop?.abandon === true,
  },
];

test('GSD workflows in their modes: no point skipped that GSD evaluated, none gated it has not', { timeout: 3_600_000 }, (t) => {
  const counts = Object.fromEntries([...SEVERITY, 'frontier-not-next'].map((c) => [c, 0]));
  const decidedCounts = {};
  const failures = [];
  let steps = 0;
  const scenarios = fc.sample(scenario, { numRuns: RUNS, seed: SEED });
  for (const s of scenarios) {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-wf-')));
    try {
      for (const o of play(base, s)) {
        const verdict = classify(o, s);
        steps++;
        counts[verdict.class]++;
        if (verdict.points.some((x) => x.class === 'frontier' && !x.next)) counts['frontier-not-next']++;
        for (const id of new Set(verdict.decided)) decidedCounts[id] = (decidedCounts[id] ?? 0) + 1;
        if (verdict.class === 'gated-unreached' || verdict.class === 'skipped-evaluated') failures.push({ ...o, verdict, scenario: s });
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }
  cleanup();
  t.diagnostic(`seed ${SEED}, ${scenarios.length} scenarios, ${steps} steps: ${JSON.stringify(counts)}; decided: ${JSON.stringify(decidedCounts)}`);
  // Each kind of difference once, by the step's write and the point.
  const kinds = new Map();
  for (const f of failures)
    for (const x of f.verdict.points.filter((y) => ['gated-unreached', 'skipped-evaluated'].includes(y.class))) {
      const kind = `${x.class} ${x.point}, phase ${f.phase}, after "${f.step.replace(/^.*?: /, '')}"`;
      if (!kinds.has(kind)) kinds.set(kind, f);
    }
  const shown = [...kinds.values()].slice(0, 5).map((f) => ({
    scenario: f.scenario,
    runs: runsOf(f.scenario).map((r) => r.name),
    step: f.step,
    phase: f.phase,
    evaluated: f.hi,
    reached: f.reached,
    points: f.verdict.points,
  }));
  assert.equal(failures.length, 0, `${failures.length} steps differ:\n${[...kinds.keys()].join('\n')}\nthe first of each:\n${JSON.stringify(shown)}`);
});
