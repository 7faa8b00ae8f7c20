import { LOOP_POINTS, type LoopPoint } from '../gates/activation.ts';
import type { PhaseFiles } from './phase-files.ts';

// Which loop points GSD 1.14's own workflows have evaluated the gates of,
// for one phase, by what they leave behind: the phase's files and what
// STATE.md records. STATE.md's status is no evidence on its own: plan-phase
// writes "Ready to execute" (read as executing) before any execution, and
// the last plan's write reads as verifying before execute:post's gates run.
// A point is reached once the last thing GSD writes before its gates is
// there: GSD evaluates it next, on those same inputs, so a gate that halts
// there leaves the phase just so. The rule, with its sources, is
// docs/reference/gates.md's; compat/test/loop-lifecycle.test.mjs drives a
// project through a phase with GSD's own commands and holds it there.

// What tells that a point is reached, or why it is not, in words for the
// envelope.
interface PointReach {
  readonly point: LoopPoint;
  readonly reached: boolean;
  readonly why: string;
}

// GSD 1.14's workflows render these points but evaluate no gate there
// (execute:pre is rendered nowhere; the others dispatch only their steps and
// contributions), so a gate declared there is never GSD's to halt on.
const NEVER_GATED: ReadonlySet<LoopPoint> = new Set(['execute:pre', 'execute:wave:pre', 'verify:post', 'ship:post']);

export function reachedPoints(files: PhaseFiles, candidates: readonly LoopPoint[] = LOOP_POINTS): PointReach[] {
  const has = (suffix: string): string | undefined => files.names.find((name) => name.endsWith(suffix));
  const context = files.context;
  const discussed = context !== undefined && !context.notFromDiscuss;
  const checkpoint = has('-DISCUSS-CHECKPOINT.json');
  // An imported plan is no mark of plan-phase's points.
  const planned = (name: string): boolean => !files.imported.includes(name);
  const plan = files.names.find((name) => name.endsWith('-PLAN.md') && planned(name)) ?? files.plans.find((p) => planned(p.file))?.file;
  const planning = [...['-RESEARCH.md', '-VALIDATION.md', '-PATTERNS.md'].map(has), plan].find((name) => name !== undefined);
  const uat = files.uat;
  // execute-phase persists a report that needs a person as a UAT sourced
  // from it, and commits that UAT, not the report.
  const verified = files.verification ?? (uat?.fromVerification === true ? uat.name : undefined);
  const summarized = files.plans.filter((p) => p.summarized).map((p) => p.id);
  const doneWave = files.waves.find((wave) => wave.every((id) => summarized.includes(id)));
  const allSummarized = files.plans.length > 0 && summarized.length === files.plans.length;
  // A point the loop has passed stays passed: a plan added by `plan-phase
  // --gaps` after verification takes no wave back.
  const rules: Record<LoopPoint, () => string | undefined> = {
    'discuss:pre': () => (discussed ? context.name : checkpoint),
    'discuss:post': () => (discussed ? context.name : undefined),
    'plan:pre': () => planning,
    // plan-phase records its plans in STATE.md and gates them in the run
    // that writes them, and the next planned-phase or begin-phase of any
    // phase rewrites that record: a planning GSD recorded cannot be told from
    // one stopped before it, so a plan is enough.
    'plan:post': () => (plan === undefined ? undefined : `${plan}, which plan-phase records and gates in the run that writes it`),
    'execute:pre': () => undefined,
    'execute:wave:pre': () => undefined,
    'execute:wave:post': () =>
      doneWave !== undefined
        ? `every plan of wave ${files.waves.indexOf(doneWave) + 1} summarized (${doneWave.join(', ')})`
        : verified !== undefined && files.plans.length > 0
          ? `${verified}, written after the last wave`
          : undefined,
    // execute-phase evaluates it in code_review_gate, right after the last
    // wave and before the verifier writes anything.
    'execute:post': () => verified ?? (allSummarized ? `every plan summarized (${summarized.join(', ')})` : uat === undefined ? undefined : uat.name),
    'verify:pre': () => (uat?.verifyWorkRan === true ? `${uat.name}, which verify-work has written` : undefined),
    'verify:post': () => undefined,
    // GSD's note of a ship does not outlive a later phase's begin-phase, so
    // past that a phase that may have shipped is gated as shipped.
    'ship:pre': () =>
      files.shipped
        ? "STATE.md's record of the ship"
        : files.verificationPassed && files.pastShip !== undefined
          ? `${files.verification} passed, and ${files.pastShip}, which erases GSD's record of a ship`
          : undefined,
    'ship:post': () => undefined,
  };
  return candidates.map((point) => {
    if (NEVER_GATED.has(point)) return { point, reached: false, why: "GSD's workflows evaluate no gate at this point" };
    const evidence = rules[point]();
    return evidence === undefined ? { point, reached: false, why: NOT_YET[point] } : { point, reached: true, why: evidence };
  });
}

// What a point waits for, when nothing shows it reached yet.
const NOT_YET: Record<LoopPoint, string> = {
  'discuss:pre': 'no discussion of the phase yet (no CONTEXT.md or discuss checkpoint written by discuss-phase)',
  'discuss:post': 'no CONTEXT.md written by discuss-phase',
  'plan:pre': 'no planning yet (no RESEARCH.md, VALIDATION.md, PATTERNS.md or PLAN.md)',
  'plan:post': 'no PLAN.md yet',
  'execute:pre': "GSD's workflows evaluate no gate at this point",
  'execute:wave:pre': "GSD's workflows evaluate no gate at this point",
  'execute:wave:post': 'no wave is done yet (a SUMMARY.md for every plan of a wave)',
  'execute:post': 'not every plan is summarized, and no VERIFICATION.md or UAT.md yet',
  'verify:pre': 'verify-work has not run (no UAT.md it wrote)',
  'verify:post': "GSD's workflows evaluate no gate at this point",
  'ship:pre':
    'not shipped (STATE.md records no ship of the phase, nor a passed verification and since then what erases such a record: another phase begun, the milestone closed, STATE.md back at the phase); a run that is the ship says so with --ship',
  'ship:post': "GSD's workflows evaluate no gate at this point",
};

// The frontier: the point GSD's loop evaluates next, after the last one
// reached, whose gates a halt there would leave no trace of (discuss:pre,
// plan:pre with --skip-research, verify:pre and ship:pre write nothing
// before their gates). A run reports it rather than gating it: its gates
// are not GSD's to halt on until the loop gets there, and gating them early
// would be red for a phase in good health (ship:pre's, all through the work).
export function nextPoint(points: readonly PointReach[], files: PhaseFiles): PointReach | undefined {
  const last = points.findLastIndex((p) => p.reached);
  return points.slice(last + 1).find((p) => !p.reached && !NEVER_GATED.has(p.point) && !bypassed(p.point, files));
}

// Points the phase's way through the loop goes past: discuss-phase's, where
// another writer made its CONTEXT.md (plan-phase comes next); discuss-phase's
// and plan-phase's, where /gsd:import wrote every plan (execute-phase comes
// next); and verify-work's, where the report passed (the ship comes next).
function bypassed(point: LoopPoint, files: PhaseFiles): boolean {
  const imported = files.plans.length > 0 && files.plans.every((plan) => files.imported.includes(plan.file));
  if (point.startsWith('discuss:')) return files.context?.notFromDiscuss === true || imported;
  if (point.startsWith('plan:')) return imported;
  return point === 'verify:pre' && files.verificationPassed && files.uat === undefined;
}
