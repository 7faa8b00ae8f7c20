// GSD's workflows in random modes and orders (compat/loop-workflows.mjs),
// with --reached asked after every write and held to the points the
// workflows have evaluated by then. Each phase at each step is one of:
//   agree              the reached set is what GSD evaluated;
//   window             reached before its gates run, by a write after which
//                      the run evaluates it with only STATE.md's plan
//                      counters written between (loop-reached.md, 6.2);
//   frontier           evaluated after the last write, nothing written since,
//                      so not reached (the note's "Left open");
//   documented-open    plan points reached on plans from import --from (also
//                      "Left open");
//   gated-unreached    reached where GSD has evaluated nothing;
//   skipped-evaluated  evaluated by GSD and not reached: a gate --reached
//                      would skip where GSD's loop halts.
// The last two fail, with the scenario as a reproduction, unless KNOWN
// holds them. GSD_CHECK_FUZZ_RUNS sets the number of scenarios (CI runs a
// sample, always the same), GSD_CHECK_FUZZ_SEED picks others; the counts
// print at the end.
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
  stop: fc.option(fc.record({ run: fc.nat(20), write: fc.nat(10), abandon: fc.boolean() }), { nil: null }),
});

const SEVERITY = ['agree', 'window', 'frontier', 'documented-open', 'gated-unreached', 'skipped-evaluated'];

function classify(o, s) {
  const [lo, hi, later] = [new Set(o.lo), new Set(o.hi), new Set(o.later)];
  const points = [];
  for (const point of o.reached) {
    if (hi.has(point)) continue;
    const open = o.imported && (point === 'plan:pre' || point === 'plan:post');
    points.push({ point, class: later.has(point) ? 'window' : open ? 'documented-open' : 'gated-unreached' });
  }
  for (const point of hi) {
    if (!o.reached.includes(point)) points.push({ point, class: lo.has(point) ? 'skipped-evaluated' : 'frontier', next: point === o.next });
  }
  const known = points.map((x) => KNOWN.find((k) => k.holds(o, x, s))?.id);
  const worst = (list) => list.reduce((w, x) => (SEVERITY.indexOf(x.class) > SEVERITY.indexOf(w) ? x.class : w), 'agree');
  // A step is counted in its class; it fails on a difference no KNOWN entry holds.
  return { class: worst(points), failing: worst(points.filter((_, i) => known[i] === undefined)), points, known: known.filter((k) => k !== undefined) };
}

// Differences found and reported, not yet decided in src/: each counted under
// its id instead of failing, so a new one still fails. Remove an entry when
// --reached changes for it.
const KNOWN = [
  {
    // A phase planned ahead (planned-phase wrote `Phase: 2 … — READY TO
    // EXECUTE`, plan:post evaluated) loses plan:post once begin-phase of the
    // phase before rewrites that line; `phase complete` of that phase then
    // names phase 2 without the mark, and nothing else shows its planning
    // was recorded until it begins.
    id: 'planned-ahead',
    holds: (o, x) => x.class === 'skipped-evaluated' && x.point === 'plan:post' && o.phase === '2',
  },
  {
    // discuss-phase-assumptions.md writes CONTEXT.md (no marker of its own)
    // before DISCUSSION-LOG.md's `**Mode:** assumptions`: between the two,
    // and for good once an agent stops there, CONTEXT.md reads as
    // discuss-phase's.
    id: 'assumptions-context-first',
    holds: (o, x, s) =>
      x.class === 'gated-unreached' && x.point.startsWith('discuss:') && { 1: s.p1, 2: s.ahead, 1.1: s.insert }[o.phase]?.discuss === 'assumptions',
  },
  {
    // An inserted phase is planned while STATE.md still names the next
    // integer phase (loop-reached.md section 5), which the rule reads as
    // the loop having moved on: plan:post is reached on the first PLAN.md,
    // before planned-phase and plan:post's gates.
    id: 'inserted-moved-on',
    holds: (o, x) => x.class === 'gated-unreached' && x.point === 'plan:post' && o.phase === '1.1',
  },
  {
    // discuss-phase stopped after write_context, before discuss:post's gates,
    // and left for plan-phase: CONTEXT.md is the window's mark of
    // discuss:post (loop-reached.md 6.2), which no run evaluates now.
    id: 'discuss-left-after-context',
    holds: (o, x, s) => x.class === 'gated-unreached' && x.point === 'discuss:post' && s.stop?.abandon === true,
  },
  {
    // GSD's ship note (`Status: Phase 1 shipped — PR #1`) is --reached's only
    // mark of ship:pre, and the next begin-phase overwrites it
    // (loop-reached.md section 5, "What the ship leaves"; a run that is the
    // ship says so with --ship, 6.8).
    id: 'ship-note-overwritten',
    holds: (o, x) => x.class === 'skipped-evaluated' && x.point === 'ship:pre',
  },
];

test('GSD workflows in their modes: no point skipped that GSD evaluated, none gated it has not', { timeout: 3_600_000 }, (t) => {
  const counts = Object.fromEntries([...SEVERITY, 'frontier-not-next'].map((c) => [c, 0]));
  const knownCounts = {};
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
        for (const id of new Set(verdict.known)) knownCounts[id] = (knownCounts[id] ?? 0) + 1;
        if (verdict.failing === 'gated-unreached' || verdict.failing === 'skipped-evaluated') failures.push({ ...o, verdict, scenario: s });
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }
  cleanup();
  t.diagnostic(`seed ${SEED}, ${scenarios.length} scenarios, ${steps} steps: ${JSON.stringify(counts)}; known: ${JSON.stringify(knownCounts)}`);
  // Each kind of difference once, by the step's write and the point.
  const kinds = new Map();
  for (const f of failures)
    for (const x of f.verdict.points.filter(
      (y) => ['gated-unreached', 'skipped-evaluated'].includes(y.class) && !KNOWN.some((k) => k.holds(f, y, f.scenario)),
    )) {
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
