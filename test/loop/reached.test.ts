import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { NOTHING } from '../helpers/phase-files.ts';
import type { LoopPoint } from '../../src/gates/activation.ts';
import type { PhaseFiles } from '../../src/loop/phase-files.ts';
import { nextPoint, reachedPoints } from '../../src/loop/reached.ts';

// The rule of docs/reference/gates.md's table, one point at a time, on what
// phase-files.ts would read of a phase (written here as that value).

const phase = (given: Partial<PhaseFiles> = {}): PhaseFiles => ({ ...NOTHING, ...given });
// What one point says of a phase: [reached, why].
const at = (point: LoopPoint, given: Partial<PhaseFiles>): [boolean, string] => {
  const [reach, ...rest] = reachedPoints(phase(given), [point]);
  assert.deepEqual(rest, []);
  assert.equal(reach!.point, point);
  return [reach!.reached, reach!.why];
};

const PLANNED = '04-01-PLAN.md, which plan-phase records and gates in the run that writes it';
const NEVER = "GSD's workflows evaluate no gate at this point";
const NOT_YET = {
  'discuss:pre': 'no discussion of the phase yet (no CONTEXT.md or discuss checkpoint written by discuss-phase)',
  'discuss:post': 'no CONTEXT.md written by discuss-phase',
  'plan:pre': 'no planning yet (no RESEARCH.md, VALIDATION.md, PATTERNS.md or PLAN.md)',
  'plan:post': 'no PLAN.md yet',
  'execute:wave:post': 'no wave is done yet (a SUMMARY.md for every plan of a wave)',
  'execute:post': 'not every plan is summarized, and no VERIFICATION.md or UAT.md yet',
  'verify:pre': 'verify-work has not run (no UAT.md it wrote)',
  'ship:pre':
    'not shipped (STATE.md records no ship of the phase, nor a passed verification and since then what erases such a record: another phase begun, the milestone closed, STATE.md back at the phase); a run that is the ship says so with --ship',
} as const;

test('a phase with nothing: every one of the 12 points, in loop order, not reached, each saying what it waits for', () => {
  assert.deepEqual(reachedPoints(phase()), [
    { point: 'discuss:pre', reached: false, why: NOT_YET['discuss:pre'] },
    { point: 'discuss:post', reached: false, why: NOT_YET['discuss:post'] },
    { point: 'plan:pre', reached: false, why: NOT_YET['plan:pre'] },
    { point: 'plan:post', reached: false, why: NOT_YET['plan:post'] },
    { point: 'execute:pre', reached: false, why: NEVER },
    { point: 'execute:wave:pre', reached: false, why: NEVER },
    { point: 'execute:wave:post', reached: false, why: NOT_YET['execute:wave:post'] },
    { point: 'execute:post', reached: false, why: NOT_YET['execute:post'] },
    { point: 'verify:pre', reached: false, why: NOT_YET['verify:pre'] },
    { point: 'verify:post', reached: false, why: NEVER },
    { point: 'ship:pre', reached: false, why: NOT_YET['ship:pre'] },
    { point: 'ship:post', reached: false, why: NEVER },
  ]);
});

test('only the candidates given are considered, in the order given', () => {
  assert.deepEqual(reachedPoints(phase({ shipped: true }), ['ship:pre', 'discuss:pre']), [
    { point: 'ship:pre', reached: true, why: "STATE.md's record of the ship" },
    { point: 'discuss:pre', reached: false, why: NOT_YET['discuss:pre'] },
  ]);
  assert.deepEqual(reachedPoints(phase(), []), []);
});

// Everything GSD leaves by the end of a shipped phase.
const SHIPPED: Partial<PhaseFiles> = {
  names: ['04-01-PLAN.md', '04-01-SUMMARY.md', '04-CONTEXT.md', '04-DISCUSS-CHECKPOINT.json', '04-RESEARCH.md', '04-UAT.md', '04-VERIFICATION.md'],
  verification: '04-VERIFICATION.md',
  context: { name: '04-CONTEXT.md', notFromDiscuss: false },
  uat: { name: '04-UAT.md', fromVerification: true, verifyWorkRan: true },
  plans: [{ id: '04-01', file: '04-01-PLAN.md', summarized: true }],
  waves: [['04-01']],
  shipped: true,
  verificationPassed: true,
};

test('the four points GSD renders but gates nowhere are never reached, even in a shipped phase; every other one is', () => {
  assert.deepEqual(reachedPoints(phase(SHIPPED)), [
    { point: 'discuss:pre', reached: true, why: '04-CONTEXT.md' },
    { point: 'discuss:post', reached: true, why: '04-CONTEXT.md' },
    { point: 'plan:pre', reached: true, why: '04-RESEARCH.md' },
    { point: 'plan:post', reached: true, why: PLANNED },
    { point: 'execute:pre', reached: false, why: NEVER },
    { point: 'execute:wave:pre', reached: false, why: NEVER },
    { point: 'execute:wave:post', reached: true, why: 'every plan of wave 1 summarized (04-01)' },
    { point: 'execute:post', reached: true, why: '04-VERIFICATION.md' },
    { point: 'verify:pre', reached: true, why: '04-UAT.md, which verify-work has written' },
    { point: 'verify:post', reached: false, why: NEVER },
    { point: 'ship:pre', reached: true, why: "STATE.md's record of the ship" },
    { point: 'ship:post', reached: false, why: NEVER },
  ]);
});

test('discuss:pre: a CONTEXT.md discuss-phase wrote, else its checkpoint; discuss:post only the CONTEXT.md', () => {
  const checkpoint = { names: ['04-DISCUSS-CHECKPOINT.json'] };
  assert.deepEqual(at('discuss:pre', checkpoint), [true, '04-DISCUSS-CHECKPOINT.json']);
  assert.deepEqual(at('discuss:post', checkpoint), [false, NOT_YET['discuss:post']]);
  const discussed = { names: ['04-CONTEXT.md', '04-DISCUSS-CHECKPOINT.json'], context: { name: '04-CONTEXT.md', notFromDiscuss: false } };
  assert.deepEqual(at('discuss:pre', discussed), [true, '04-CONTEXT.md']);
  assert.deepEqual(at('discuss:post', discussed), [true, '04-CONTEXT.md']);
  // A checkpoint's name must end so: a copy beside it is not one.
  assert.deepEqual(at('discuss:pre', { names: ['04-DISCUSS-CHECKPOINT.json.bak'] }), [false, NOT_YET['discuss:pre']]);
});

test('a CONTEXT.md another writer made (no discuss hooks rendered) reaches neither discuss point, unless a checkpoint shows a discussion', () => {
  const auto = { names: ['04-CONTEXT.md'], context: { name: '04-CONTEXT.md', notFromDiscuss: true } };
  assert.deepEqual(at('discuss:pre', auto), [false, NOT_YET['discuss:pre']]);
  assert.deepEqual(at('discuss:post', auto), [false, NOT_YET['discuss:post']]);
  const both = { ...auto, names: ['04-CONTEXT.md', '04-DISCUSS-CHECKPOINT.json'] };
  assert.deepEqual(at('discuss:pre', both), [true, '04-DISCUSS-CHECKPOINT.json']);
  assert.deepEqual(at('discuss:post', both), [false, NOT_YET['discuss:post']]);
});

test('plan:pre: any of RESEARCH.md, VALIDATION.md, PATTERNS.md, PLAN.md, the first of them in that order named', () => {
  for (const name of ['04-RESEARCH.md', '04-VALIDATION.md', '04-PATTERNS.md', '04-01-PLAN.md'])
    assert.deepEqual(at('plan:pre', { names: [name] }), [true, name]);
  assert.deepEqual(at('plan:pre', { names: ['04-01-PLAN.md', '04-PATTERNS.md', '04-RESEARCH.md', '04-VALIDATION.md'] }), [true, '04-RESEARCH.md']);
  assert.deepEqual(at('plan:pre', { names: ['04-01-PLAN.md', '04-PATTERNS.md', '04-VALIDATION.md'] }), [true, '04-VALIDATION.md']);
  assert.deepEqual(at('plan:pre', { names: ['04-01-PLAN.md', '04-PATTERNS.md'] }), [true, '04-PATTERNS.md']);
  assert.deepEqual(at('plan:pre', { names: ['04-CONTEXT.md', '04-RESEARCH.md.orig', 'PLAN.md.txt'] }), [false, NOT_YET['plan:pre']]);
});

test('plan:post: a plan, the first one named, whatever STATE.md says (a recorded planning cannot be told from one stopped before)', () => {
  const plans = [
    { id: '04-01', file: '04-01-PLAN.md', summarized: false },
    { id: '04-02', file: '04-02-PLAN.md', summarized: false },
  ];
  assert.deepEqual(at('plan:post', { names: ['04-01-PLAN.md', '04-02-PLAN.md'] }), [true, PLANNED]);
  assert.deepEqual(at('plan:post', { plans, waves: [['04-01', '04-02']] }), [true, PLANNED]);
  // A nested plan, which phase-plan-index lists, counts by its file.
  assert.deepEqual(at('plan:post', { plans: [{ id: 'plans/PLAN-01.md', file: 'plans/PLAN-01.md', summarized: false }] }), [
    true,
    'plans/PLAN-01.md, which plan-phase records and gates in the run that writes it',
  ]);
  assert.deepEqual(at('plan:post', { names: ['04-RESEARCH.md', '04-01-PLAN.md.bak'] }), [false, NOT_YET['plan:post']]);
  // Neither a shipped record nor a passed verification counts without a plan.
  assert.deepEqual(at('plan:post', { shipped: true, verificationPassed: true, verification: '04-VERIFICATION.md' }), [false, NOT_YET['plan:post']]);
});

test("plans /gsd:import wrote mark neither of plan-phase's points; one of its own beside them does", () => {
  const plans = [
    { id: '04-01', file: '04-01-PLAN.md', summarized: false },
    { id: '04-02', file: '04-02-PLAN.md', summarized: false },
  ];
  const imported = { names: ['04-01-PLAN.md'], plans: plans.slice(0, 1), imported: ['04-01-PLAN.md'] };
  assert.deepEqual(at('plan:pre', imported), [false, NOT_YET['plan:pre']]);
  assert.deepEqual(at('plan:post', imported), [false, NOT_YET['plan:post']]);
  // Research is plan-phase's own.
  assert.deepEqual(at('plan:pre', { ...imported, names: ['04-01-PLAN.md', '04-RESEARCH.md'] }), [true, '04-RESEARCH.md']);
  const both = { names: ['04-01-PLAN.md', '04-02-PLAN.md'], plans, imported: ['04-01-PLAN.md'] };
  assert.deepEqual(at('plan:pre', both), [true, '04-02-PLAN.md']);
  assert.deepEqual(at('plan:post', both), [true, '04-02-PLAN.md, which plan-phase records and gates in the run that writes it']);
  // Its waves are executed as any: execute-phase runs them.
  assert.deepEqual(at('execute:wave:post', { ...imported, plans: [{ ...plans[0]!, summarized: true }], waves: [['04-01']] }), [
    true,
    'every plan of wave 1 summarized (04-01)',
  ]);
});

test('execute:wave:post: the first wave whose every plan is summarized, numbered from 1 and its plans listed', () => {
  const waves = [['04-01', '04-02'], ['04-03']];
  const summarized = (...ids: string[]) => ({
    plans: ['04-01', '04-02', '04-03'].map((id) => ({ id, file: `${id}-PLAN.md`, summarized: ids.includes(id) })),
    waves,
  });
  assert.deepEqual(at('execute:wave:post', summarized()), [false, NOT_YET['execute:wave:post']]);
  assert.deepEqual(at('execute:wave:post', summarized('04-01')), [false, NOT_YET['execute:wave:post']]);
  assert.deepEqual(at('execute:wave:post', summarized('04-01', '04-02')), [true, 'every plan of wave 1 summarized (04-01, 04-02)']);
  assert.deepEqual(at('execute:wave:post', summarized('04-03')), [true, 'every plan of wave 2 summarized (04-03)']);
  assert.deepEqual(at('execute:wave:post', summarized('04-01', '04-02', '04-03')), [true, 'every plan of wave 1 summarized (04-01, 04-02)']);
  // A summarized plan in no wave (a depends_on cycle) completes none.
  assert.deepEqual(at('execute:wave:post', { plans: [{ id: '04-09', file: '04-09-PLAN.md', summarized: true }], waves: [] }), [
    false,
    NOT_YET['execute:wave:post'],
  ]);
  assert.deepEqual(at('execute:wave:post', { plans: [{ id: '04-09', file: '04-09-PLAN.md', summarized: true }], waves: [['04-01']] }), [
    false,
    NOT_YET['execute:wave:post'],
  ]);
});

test('execute:post: a VERIFICATION.md, else any UAT.md (execute-phase persists a report for a person as one)', () => {
  assert.deepEqual(at('execute:post', { names: ['04-VERIFICATION.md'], verification: '04-VERIFICATION.md' }), [true, '04-VERIFICATION.md']);
  assert.deepEqual(
    at('execute:post', {
      names: ['04-UAT.md', '04-VERIFICATION.md'],
      verification: '04-VERIFICATION.md',
      uat: { name: '04-UAT.md', fromVerification: true, verifyWorkRan: true },
    }),
    [true, '04-VERIFICATION.md'],
  );
  assert.deepEqual(at('execute:post', { names: ['04-UAT.md'], uat: { name: '04-UAT.md', fromVerification: true, verifyWorkRan: false } }), [true, '04-UAT.md']);
  assert.deepEqual(at('execute:post', { names: ['04-UAT.md'], uat: { name: '04-UAT.md', fromVerification: false, verifyWorkRan: false } }), [
    true,
    '04-UAT.md',
  ]);
  assert.deepEqual(at('execute:post', { names: ['04-VERIFICATION.md.draft', '04-01-SUMMARY.md'] }), [false, NOT_YET['execute:post']]);
});

test("verify:pre: only a UAT that verify-work has written, not execute-phase's own", () => {
  assert.deepEqual(at('verify:pre', { uat: { name: '04-UAT.md', fromVerification: false, verifyWorkRan: true } }), [
    true,
    '04-UAT.md, which verify-work has written',
  ]);
  assert.deepEqual(at('verify:pre', { uat: { name: '04-UAT.md', fromVerification: true, verifyWorkRan: false } }), [false, NOT_YET['verify:pre']]);
  assert.deepEqual(at('verify:pre', { names: ['04-VERIFICATION.md'], verification: '04-VERIFICATION.md' }), [false, NOT_YET['verify:pre']]);
});

test("ship:pre: STATE.md's record of the ship, or a passed phase a later one has begun after (the record does not outlive that)", () => {
  assert.deepEqual(at('ship:pre', { shipped: true }), [true, "STATE.md's record of the ship"]);
  assert.deepEqual(at('ship:pre', { ...SHIPPED, shipped: false }), [false, NOT_YET['ship:pre']]);
  assert.deepEqual(at('ship:pre', { ...SHIPPED, shipped: false, pastShip: 'phase 5 has begun since' }), [
    true,
    "04-VERIFICATION.md passed, and phase 5 has begun since, which erases GSD's record of a ship",
  ]);
  // Only a phase that could ship: /gsd-ship refuses any other verification.
  assert.deepEqual(at('ship:pre', { ...SHIPPED, shipped: false, verificationPassed: false, pastShip: 'phase 5 has begun since' }), [
    false,
    NOT_YET['ship:pre'],
  ]);
});

test('the ungated points stay unreached whatever the phase holds, and say so', () => {
  for (const point of ['execute:pre', 'execute:wave:pre', 'verify:post', 'ship:post'] as const) assert.deepEqual(at(point, SHIPPED), [false, NEVER]);
});

test('execute:post: every plan summarized, before the verifier writes anything (code_review_gate runs it right after the last wave)', () => {
  const plans = (summarized: boolean[]) => ({
    plans: summarized.map((done, i) => ({ id: `04-0${i + 1}`, file: `04-0${i + 1}-PLAN.md`, summarized: done })),
    waves: [['04-01'], ['04-02']],
  });
  assert.deepEqual(at('execute:post', plans([true, true])), [true, 'every plan summarized (04-01, 04-02)']);
  assert.deepEqual(at('execute:post', plans([true, false])), [false, NOT_YET['execute:post']]);
});

test('a point passed stays passed: a gap plan after verification takes no wave back', () => {
  const gap = {
    plans: [
      { id: '04-01', file: '04-01-PLAN.md', summarized: true },
      { id: '04-02', file: '04-02-PLAN.md', summarized: false },
    ],
    waves: [['04-01', '04-02']],
  };
  assert.deepEqual(at('execute:wave:post', gap), [false, NOT_YET['execute:wave:post']]);
  assert.deepEqual(at('execute:wave:post', { ...gap, verification: '04-VERIFICATION.md' }), [true, '04-VERIFICATION.md, written after the last wave']);
});

test('the frontier: the first point GSD gates after the last one reached, passing over those it gates nowhere; none after the ship', () => {
  const next = (reached: readonly LoopPoint[], given: Partial<PhaseFiles> = {}) =>
    nextPoint(
      reachedPoints(phase()).map((p) => ({ ...p, reached: reached.includes(p.point) })),
      phase(given),
    )?.point;
  assert.equal(next([]), 'discuss:pre');
  assert.equal(next(['discuss:pre', 'discuss:post', 'plan:pre', 'plan:post']), 'execute:wave:post');
  assert.equal(next(['plan:pre']), 'plan:post');
  // A point left behind does not count: what comes after the last reached one does.
  assert.equal(next(['plan:pre', 'execute:post']), 'verify:pre');
  assert.equal(next(['execute:post', 'verify:pre']), 'ship:pre');
  assert.equal(next(['ship:pre']), undefined);
});

test("the frontier passes over the points this phase's way goes past: discuss-phase's where another writer made CONTEXT.md, verify-work's after a passing report", () => {
  const next = (reached: readonly LoopPoint[], given: Partial<PhaseFiles>) =>
    nextPoint(
      reachedPoints(phase(given)).map((p) => ({ ...p, reached: reached.includes(p.point) })),
      phase(given),
    )?.point;
  const assumed = { names: ['04-CONTEXT.md'], context: { name: '04-CONTEXT.md', notFromDiscuss: true } };
  assert.equal(next([], assumed), 'plan:pre');
  assert.equal(next([], { ...assumed, context: { name: '04-CONTEXT.md', notFromDiscuss: false } }), 'discuss:pre');
  const passed = { verification: '04-VERIFICATION.md', verificationPassed: true };
  assert.equal(next(['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'], passed), 'ship:pre');
  // A report for a person goes on to verify-work, as does one that did not pass.
  const person = { ...passed, uat: { name: '04-UAT.md', fromVerification: true, verifyWorkRan: false } };
  assert.equal(next(['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'], person), 'verify:pre');
  assert.equal(next(['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'], { ...passed, verificationPassed: false }), 'verify:pre');
});

test('the frontier passes over discuss-phase and plan-phase where every plan is one /gsd:import wrote: execute-phase is next', () => {
  const next = (given: Partial<PhaseFiles>) => nextPoint(reachedPoints(phase(given)), phase(given))?.point;
  const plan = { id: '04-01', file: '04-01-PLAN.md', summarized: false };
  const imported = { names: ['04-01-PLAN.md'], plans: [plan], waves: [['04-01']], imported: ['04-01-PLAN.md'] };
  assert.equal(next(imported), 'execute:wave:post');
  // A plan of plan-phase's beside it: plan-phase has run, and the rule reads it.
  const both = { names: ['04-01-PLAN.md', '04-02-PLAN.md'], plans: [plan, { ...plan, id: '04-02', file: '04-02-PLAN.md' }], waves: [['04-01', '04-02']] };
  assert.equal(next({ ...both, imported: ['04-01-PLAN.md'] }), 'execute:wave:post');
  // No plans at all: the phase's way is not known yet.
  assert.equal(next({}), 'discuss:pre');
});
