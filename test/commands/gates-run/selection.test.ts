import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from '../../helpers/bounded.ts';
import { testDeps } from '../../helpers/deps.ts';
import { artifact, project, type Tree } from '../../helpers/project.ts';
import type { GatesOptions } from '../../../src/cli/gates-options.ts';
import { gateContext } from '../../../src/commands/gate-context.ts';
import { selectPoints } from '../../../src/commands/gates-run/selection.ts';
import { fail, ok } from '../../../src/failure.ts';
import { LOOP_POINTS, type LoopPoint } from '../../../src/gates/activation.ts';
import type { GateContext } from '../../../src/predicate/kind.ts';
import { lookUpPhaseDir } from '../../../src/project/phase.ts';
import { gsdPaths } from '../../../src/project/shown-path.ts';

// --reached's selection: the points GSD's loop has reached for the phase the
// command line names, in projects laid out on disk, each with the context
// gates run builds (gate-context.ts) from the same options.

const OPTIONS: GatesOptions = {
  points: LOOP_POINTS as unknown as GatesOptions['points'],
  printed: 'run',
  capabilities: [],
  consent: [],
  builtin: true,
  render: false,
  reached: true,
  ship: false,
  requireTestedGsd: false,
  killAfter: 1,
  currentPhase: false,
  queryTimeout: 30,
  reports: [],
  raw: true,
  exitCode: false,
  jsonErrors: false,
};
const SCOPE = { project: undefined, workstream: undefined };

function contextOf(root: string, options: GatesOptions): GateContext {
  const built = gateContext(options, testDeps(root), gsdPaths);
  assert.ok(built.ok, built.ok ? '' : built.failure.message);
  return built.value;
}

// STATE.md as GSD's transitions leave it: the frontmatter's status, and
// `## Current Position`'s Phase: and Status: lines.
const state = (phase: string, position: string, status: string, frontmatterStatus = 'executing') =>
  `---\ngsd_state_version: 1.0\ncurrent_phase: ${phase}\nstatus: ${frontmatterStatus}\n---\n# Project State\n\n## Current Position\n\nPhase: ${position}\nStatus: ${status}\n`;

const NOT = {
  discussPre: 'no discussion of the phase yet (no CONTEXT.md or discuss checkpoint written by discuss-phase)',
  discussPost: 'no CONTEXT.md written by discuss-phase',
  planPre: 'no planning yet (no RESEARCH.md, VALIDATION.md, PATTERNS.md or PLAN.md)',
  planPost: 'no PLAN.md yet',
  never: "GSD's workflows evaluate no gate at this point",
  wavePost: 'no wave is done yet (a SUMMARY.md for every plan of a wave)',
  executePost: 'not every plan is summarized, and no VERIFICATION.md or UAT.md yet',
  verifyPre: 'verify-work has not run (no UAT.md it wrote)',
  shipPre:
    'not shipped (STATE.md records no ship of the phase, nor a passed verification and since then what erases such a record: another phase begun, the milestone closed, STATE.md back at the phase); a run that is the ship says so with --ship',
};

// The twelve points, each reached with its evidence where `reached` says so.
function points(reached: Partial<Record<LoopPoint, string | undefined>>) {
  const waits: Record<LoopPoint, string> = {
    'discuss:pre': NOT.discussPre,
    'discuss:post': NOT.discussPost,
    'plan:pre': NOT.planPre,
    'plan:post': NOT.planPost,
    'execute:pre': NOT.never,
    'execute:wave:pre': NOT.never,
    'execute:wave:post': NOT.wavePost,
    'execute:post': NOT.executePost,
    'verify:pre': NOT.verifyPre,
    'verify:post': NOT.never,
    'ship:pre': NOT.shipPre,
    'ship:post': NOT.never,
  };
  return LOOP_POINTS.map((point) =>
    reached[point] === undefined ? { point, reached: false, why: waits[point] } : { point, reached: true, why: reached[point] },
  );
}

const PLANNED: Tree = {
  '.planning/STATE.md': state('04', '4 (Ship) — READY TO EXECUTE', 'Ready to execute'),
  '.planning/phases/04-ship/04-CONTEXT.md': '# Phase 4: Ship - Context\n',
  '.planning/phases/04-ship/04-01-PLAN.md': artifact({ phase: '04-ship', plan: '01' }),
};
const PLANNED_POINTS = {
  'discuss:pre': '04-CONTEXT.md',
  'discuss:post': '04-CONTEXT.md',
  'plan:pre': '04-01-PLAN.md',
  'plan:post': '04-01-PLAN.md, which plan-phase records and gates in the run that writes it',
};

// The selection less the phase's files it read (phase-files.test.ts holds
// those), so a test compares what it is about.
function withoutPhase(selected: Awaited<ReturnType<typeof selectPoints>>): unknown {
  if (!selected.ok) return selected;
  const { phase: _phase, ...rest } = selected.value;
  return ok(rest);
}

test('--phase-number: the points its directory and STATE.md show reached, in loop order, and the loop as read; the context as given', async (t) => {
  const root = project(t, PLANNED);
  const context = contextOf(root, { ...OPTIONS, phaseNumber: '4' });
  const selected = await selectPoints({ ...OPTIONS, phaseNumber: '4' }, context);
  assert.deepEqual(
    withoutPhase(selected),
    ok({
      points: ['discuss:pre', 'discuss:post', 'plan:pre', 'plan:post'],
      loop: {
        phase: '4',
        from: '--phase-number',
        status: 'executing',
        rawStatus: 'executing',
        points: points(PLANNED_POINTS),
        next: { point: 'execute:wave:post', why: 'no wave is done yet (a SUMMARY.md for every plan of a wave)' },
      },
      context,
    }),
  );
  assert.equal(selected.ok && selected.value.context, context);
  // The files it read are the phase's, for the ship's preflight.
  assert.equal(selected.ok && selected.value.phase?.dir, join(root, '.planning/phases/04-ship'));
  assert.deepEqual(selected.ok && selected.value.phase?.files.plans.map((plan) => plan.id), ['04-01']);
});

test('--current-phase: the phase STATE.md names, read once by the context, and said to come from STATE.md', async (t) => {
  const root = project(t, PLANNED);
  const options = { ...OPTIONS, currentPhase: true };
  const context = contextOf(root, options);
  assert.deepEqual(
    withoutPhase(await selectPoints(options, context)),
    ok({
      points: ['discuss:pre', 'discuss:post', 'plan:pre', 'plan:post'],
      loop: {
        phase: '04',
        from: 'STATE.md',
        status: 'executing',
        rawStatus: 'executing',
        points: points(PLANNED_POINTS),
        next: { point: 'execute:wave:post', why: 'no wave is done yet (a SUMMARY.md for every plan of a wave)' },
      },
      context,
    }),
  );
  // What the context read is what counts, not the file read again.
  const executing = {
    ...context,
    state: { ...context.state!, status: 'verifying' as const, rawStatus: 'Phase complete — ready for verification', positionLine: '4 (Ship) — EXECUTING' },
  };
  const selected = await selectPoints(options, executing);
  assert.deepEqual(selected.ok && selected.value.loop, {
    phase: '04',
    from: 'STATE.md',
    status: 'verifying',
    rawStatus: 'Phase complete — ready for verification',
    points: points(PLANNED_POINTS),
    next: { point: 'execute:wave:post', why: 'no wave is done yet (a SUMMARY.md for every plan of a wave)' },
  });
});

test('--phase-dir: the files of that directory; with no phase number, STATE.md says nothing of the phase, only its status', async (t) => {
  const root = project(t, PLANNED);
  const options = { ...OPTIONS, phaseDir: '.planning/phases/04-ship' };
  const context = contextOf(root, options);
  assert.deepEqual(
    withoutPhase(await selectPoints(options, context)),
    ok({
      points: ['discuss:pre', 'discuss:post', 'plan:pre', 'plan:post'],
      loop: {
        phase: null,
        from: '--phase-dir',
        status: 'executing',
        rawStatus: 'executing',
        points: points(PLANNED_POINTS),
        next: { point: 'execute:wave:post', why: 'no wave is done yet (a SUMMARY.md for every plan of a wave)' },
      },
      context,
    }),
  );
  // With the number too, the directory is still the one given.
  const both = { ...options, phaseNumber: '04' };
  const selected = await selectPoints(both, contextOf(root, both));
  assert.deepEqual(selected.ok && [selected.value.points, selected.value.loop?.from, selected.value.loop?.phase], [
    ['discuss:pre', 'discuss:post', 'plan:pre', 'plan:post'],
    '--phase-dir',
    '04',
  ]);
});

test("a phase with no directory, or another phase's position: what its files show, and no failure", async (t) => {
  const none = async (tree: Tree, phaseNumber = '04') => {
    const options = { ...OPTIONS, phaseNumber };
    const selected = await selectPoints(options, contextOf(project(t, tree), options));
    assert.ok(selected.ok);
    return [selected.value.points, selected.value.loop?.points];
  };
  assert.deepEqual(await none({ '.planning/STATE.md': PLANNED['.planning/STATE.md']! }), [[], points({})]);
  // STATE.md says 05 is ready: 04's plans count as they did.
  assert.deepEqual(await none({ ...PLANNED, '.planning/STATE.md': state('05', '5 (Next) — READY TO EXECUTE', 'Ready to execute') }), [
    ['discuss:pre', 'discuss:post', 'plan:pre', 'plan:post'],
    points(PLANNED_POINTS),
  ]);
});

test('two directories for the phase, as find-phase reads them, fail the selection: never nothing reached', async (t) => {
  const failed = async (tree: Tree, extra: Partial<GatesOptions>) => {
    const options = { ...OPTIONS, ...extra };
    const root = project(t, tree);
    const selected = await selectPoints(options, contextOf(root, options));
    return selected.ok ? undefined : [selected.failure.reason, selected.failure.message];
  };
  const twice = { ...PLANNED, '.planning/phases/04-ship-notes/notes.md': '' };
  assert.deepEqual(await failed(twice, { phaseNumber: '04' }), [
    'ambiguous-phase',
    "phase 04 matches 2 directories of .planning/phases (04-ship, 04-ship-notes), as GSD's find-phase reads them: give --phase-dir",
  ]);
  // The phase before, looked for after phase complete: the same.
  const completed = { ...COMPLETED, '.planning/phases/04-ship-notes/notes.md': '' };
  assert.deepEqual(await failed(completed, { currentPhase: true }), [
    'ambiguous-phase',
    "phase 04 matches 2 directories of .planning/phases (04-ship, 04-ship-notes), as GSD's find-phase reads them: give --phase-dir",
  ]);
});

test('no STATE.md, or one GSD could not read: no status, and the files still count', async (t) => {
  const loop = async (stateText: string | undefined) => {
    const tree: Tree = { ...PLANNED };
    const { ['.planning/STATE.md']: _, ...rest } = tree;
    const options = { ...OPTIONS, phaseNumber: '04' };
    const selected = await selectPoints(options, contextOf(project(t, stateText === undefined ? rest : { ...rest, '.planning/STATE.md': stateText }), options));
    return selected.ok ? selected.value.loop : undefined;
  };
  const expected = {
    phase: '04',
    from: '--phase-number',
    status: null,
    rawStatus: null,
    points: points(PLANNED_POINTS),
    next: { point: 'execute:wave:post', why: NOT.wavePost },
  };
  assert.deepEqual(await loop(undefined), expected);
  assert.deepEqual(await loop('# Project State\n\nnothing here\n'), expected);
});

test('only the points asked for are considered; --ship makes ship:pre reached unless STATE.md already records the ship', async (t) => {
  const root = project(t, PLANNED);
  const asked = { ...OPTIONS, phaseNumber: '04', points: ['ship:pre', 'plan:pre', 'execute:post'] as GatesOptions['points'] };
  const selected = async (options: GatesOptions, at = root) => {
    const result = await selectPoints(options, contextOf(at, options));
    assert.ok(result.ok);
    return [result.value.points, result.value.loop?.points];
  };
  assert.deepEqual(await selected(asked), [
    ['plan:pre'],
    [
      { point: 'ship:pre', reached: false, why: NOT.shipPre },
      { point: 'plan:pre', reached: true, why: '04-01-PLAN.md' },
      { point: 'execute:post', reached: false, why: NOT.executePost },
    ],
  ]);
  assert.deepEqual(await selected({ ...asked, ship: true }), [
    ['ship:pre', 'plan:pre'],
    [
      { point: 'ship:pre', reached: true, why: "--ship: this run is the phase's ship" },
      { point: 'plan:pre', reached: true, why: '04-01-PLAN.md' },
      { point: 'execute:post', reached: false, why: NOT.executePost },
    ],
  ]);
  // --ship reaches nothing but ship:pre, and only when it is asked for.
  assert.deepEqual(await selected({ ...asked, points: ['plan:post', 'ship:post'], ship: true }), [
    ['plan:post'],
    [
      { point: 'plan:post', reached: true, why: PLANNED_POINTS['plan:post'] },
      { point: 'ship:post', reached: false, why: NOT.never },
    ],
  ]);
  const shipped = project(t, {
    ...PLANNED,
    '.planning/STATE.md': state('04', '4 (Ship) — EXECUTING', 'Phase 4 shipped — PR #12', '"Phase 4 shipped — PR #12"'),
  });
  assert.deepEqual((await selected({ ...asked, ship: true }, shipped))[1]![0], { point: 'ship:pre', reached: true, why: "STATE.md's record of the ship" });
});

// A project where `phase complete 04` ran: STATE.md names 05, which has
// nothing yet; 04 is verified and was planned.
const COMPLETED: Tree = {
  '.planning/STATE.md': state('05', '5 (Next) — not started', 'Ready to plan', 'planning'),
  '.planning/phases/04-ship/04-01-PLAN.md': '',
  '.planning/phases/04-ship/04-01-SUMMARY.md': artifact({ status: 'complete' }),
  '.planning/phases/04-ship/04-VERIFICATION.md': artifact({ status: 'passed' }),
  '.planning/phases/05-next': null,
};
const AUTO_CONTEXT = '# Phase 5: Next - Context\n\n**Gathered:** 2026-01-02\n**Mode:** Auto-generated (discuss skipped via workflow.skip_discuss)\n';
const COMPLETED_POINTS = {
  'plan:pre': '04-01-PLAN.md',
  'plan:post': '04-01-PLAN.md, which plan-phase records and gates in the run that writes it',
  'execute:wave:post': 'every plan of wave 1 summarized (04-01)',
  'execute:post': '04-VERIFICATION.md',
};

test('--current-phase on a phase that has reached nothing, after a complete one: the one before, whose ship is next, and why', async (t) => {
  const root = project(t, COMPLETED);
  const options = { ...OPTIONS, currentPhase: true };
  const context = contextOf(root, options);
  assert.deepEqual(
    withoutPhase(await selectPoints(options, context)),
    ok({
      points: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post'],
      loop: {
        phase: '04',
        from: 'STATE.md names 05, which has reached no point; 04 is complete',
        status: 'planning',
        rawStatus: 'planning',
        points: points(COMPLETED_POINTS),
        next: { point: 'ship:pre', why: NOT.shipPre },
      },
      context: { ...context, phaseNumber: '04', phaseDirLookup: lookUpPhaseDir(root, '04', SCOPE) },
    }),
  );
  // A file between them is no phase: 04 is still the one before.
  const noted = project(t, { ...COMPLETED, '.planning/phases/04.5-notes.md': '# notes\n' });
  const past = await selectPoints(options, contextOf(noted, options));
  assert.equal(past.ok && past.value.loop?.phase, '04');
});

test("--ship on the ship's pull request, after phase complete: the phase before is the one shipped, not the one STATE.md names", async (t) => {
  // run-gates-in-ci.md's ship job: --reached --ship --current-phase on a pull
  // request from GSD's phase branch, opened after `phase complete` moved STATE.md on.
  const root = project(t, COMPLETED);
  const options = { ...OPTIONS, currentPhase: true, ship: true };
  const context = contextOf(root, options);
  assert.deepEqual(
    withoutPhase(await selectPoints(options, context)),
    ok({
      points: ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post', 'ship:pre'],
      loop: {
        phase: '04',
        from: 'STATE.md names 05, which has reached no point; 04 is complete',
        status: 'planning',
        rawStatus: 'planning',
        points: points({ ...COMPLETED_POINTS, 'ship:pre': "--ship: this run is the phase's ship" }),
        next: null,
      },
      context: { ...context, phaseNumber: '04', phaseDirLookup: lookUpPhaseDir(root, '04', SCOPE) },
    }),
  );
  // With no complete phase before it, the ship is the current phase's.
  const first = project(t, { ...COMPLETED, '.planning/phases/04-ship/04-VERIFICATION.md': artifact({ status: 'gaps_found' }) });
  const alone = await selectPoints(options, contextOf(first, options));
  assert.deepEqual(alone.ok && [alone.value.loop?.phase, alone.value.loop?.from, alone.value.points], ['05', 'STATE.md', ['ship:pre']]);
});

test('no move back: the current phase has reached a point, the phase before is not verified as passed, or the phase was given by number', async (t) => {
  const stays = async (tree: Tree, extra: Partial<GatesOptions> = { currentPhase: true }) => {
    const options = { ...OPTIONS, ...extra };
    const context = contextOf(project(t, tree), options);
    const selected = await selectPoints(options, context);
    assert.ok(selected.ok);
    assert.equal(selected.value.context, context);
    return [selected.value.loop?.phase, selected.value.loop?.from, selected.value.points];
  };
  assert.deepEqual(await stays({ ...COMPLETED, '.planning/phases/05-next/05-CONTEXT.md': '# Context\n' }), ['05', 'STATE.md', ['discuss:pre', 'discuss:post']]);
  assert.deepEqual(await stays({ ...COMPLETED, '.planning/phases/04-ship/04-VERIFICATION.md': artifact({ status: 'gaps_found' }) }), ['05', 'STATE.md', []]);
  assert.deepEqual(await stays({ ...COMPLETED, '.planning/phases/04-ship/04-VERIFICATION.md': '# Verification\n\nstatus: passed\n' }), ['05', 'STATE.md', []]);
  assert.deepEqual(await stays(COMPLETED, { phaseNumber: '05' }), ['05', '--phase-number', []]);
  // The phase just before, not the last one verified: 04 is not, so 03 is not looked at.
  assert.deepEqual(
    await stays({
      ...COMPLETED,
      '.planning/phases/04-ship/04-VERIFICATION.md': artifact({ status: 'human_needed' }),
      '.planning/phases/03-build/03-VERIFICATION.md': artifact({ status: 'passed' }),
    }),
    ['05', 'STATE.md', []],
  );
  // A phase after the current one is not before it; nor is a file, or a directory that is no phase.
  assert.deepEqual(
    await stays({
      '.planning/STATE.md': state('01', '1 (First) — not started', 'Ready to plan', 'planning'),
      '.planning/phases/02-later/02-VERIFICATION.md': artifact({ status: 'passed' }),
      '.planning/phases/00-notes': 'a file',
      '.planning/phases/notes/00-VERIFICATION.md': artifact({ status: 'passed' }),
    }),
    ['01', 'STATE.md', []],
  );
});

test('--current-phase passes over a phase between that holds nothing (one phase insert made after the completion), and no further', async (t) => {
  const moved = async (tree: Tree) => {
    const options = { ...OPTIONS, currentPhase: true };
    const selected = await selectPoints(options, contextOf(project(t, tree), options));
    assert.ok(selected.ok, selected.ok ? '' : selected.failure.message);
    return [selected.value.loop?.phase, selected.value.loop?.from, selected.value.points];
  };
  const from = 'STATE.md names 05, which has reached no point; 04 is complete';
  assert.deepEqual(await moved({ ...COMPLETED, '.planning/phases/04.1-hotfix/.gitkeep': '' }), ['04', from, Object.keys(COMPLETED_POINTS)]);
  // One between that holds a file of its own, and did not pass, is where it stops.
  assert.deepEqual(await moved({ ...COMPLETED, '.planning/phases/04.1-hotfix/04.1-01-PLAN.md': '' }), ['05', 'STATE.md', []]);
  assert.deepEqual(await moved({ ...COMPLETED, '.planning/phases/04.1-hotfix/04.1-CONTEXT.md': AUTO_CONTEXT }), ['05', 'STATE.md', []]);
  // STATE.md's phase itself: files that reach no point (skip_discuss's
  // CONTEXT.md) say the loop is there, with its next point.
  const options = { ...OPTIONS, currentPhase: true };
  const there = await selectPoints(options, contextOf(project(t, { ...COMPLETED, '.planning/phases/05-next/05-CONTEXT.md': AUTO_CONTEXT }), options));
  assert.deepEqual(there.ok && [there.value.loop?.phase, there.value.points, there.value.loop?.next?.point], ['05', [], 'plan:pre']);
});

test("the phase before, in GSD's order of phase numbers: 1 < 2 < 2.1 < 2A < 10", async (t) => {
  const verified = (id: string, slug: string) => ({ [`.planning/phases/${id}-${slug}/${id}-VERIFICATION.md`]: artifact({ status: 'passed' }) });
  const phases: Tree = { ...verified('01', 'a'), ...verified('02', 'b'), ...verified('02.1', 'c'), ...verified('02A', 'd'), ...verified('10', 'e') };
  // The phase STATE.md names, with a directory of nothing: where the run moves to.
  const before = async (current: string) => {
    const options = { ...OPTIONS, currentPhase: true };
    const root = project(t, {
      ...phases,
      [`.planning/phases/${current}-now`]: null,
      '.planning/STATE.md': state(current, `${current} (Now) — not started`, 'Ready to plan', 'planning'),
    });
    const selected = await selectPoints(options, contextOf(root, options));
    assert.ok(selected.ok, selected.ok ? '' : selected.failure.message);
    return [selected.value.loop?.phase, selected.value.points];
  };
  assert.deepEqual(await before('11'), ['10', ['execute:post']]);
  // A later phase verified has begun since: the loop went past the ship.
  assert.deepEqual(await before('03'), ['02A', ['execute:post', 'ship:pre']]);
  assert.deepEqual(await before('02B'), ['02A', ['execute:post', 'ship:pre']]);
  assert.deepEqual(await before('02.2'), ['02.1', ['execute:post', 'ship:pre']]);
  assert.deepEqual(await before('02.05'), ['02.1', ['execute:post', 'ship:pre']]);
  assert.deepEqual(await before('02.1.1'), ['02.1', ['execute:post', 'ship:pre']]);
  assert.deepEqual(await before('00'), ['00', []]);
  // Numbers, not text: 2.10 comes after 2.9, 10 after 9.
  const decimals = project(t, {
    ...verified('02.9', 'a'),
    ...verified('02.10', 'b'),
    '.planning/phases/03-now': null,
    '.planning/STATE.md': state('03', '3 (Now) — not started', 'Ready to plan', 'planning'),
  });
  const options = { ...OPTIONS, currentPhase: true };
  const selected = await selectPoints(options, contextOf(decimals, options));
  assert.equal(selected.ok && selected.value.loop?.phase, '02.10');
});

test('a planning directory that cannot be had (GSD_PROJECT leading elsewhere): no phase before is looked for', async (t) => {
  const root = project(t, COMPLETED);
  const options = { ...OPTIONS, currentPhase: true };
  const context = contextOf(root, options);
  const unscoped = { ...context, planning: fail('usage', 'GSD_PROJECT must name one directory, got "../x"') };
  const selected = await selectPoints(options, unscoped);
  assert.deepEqual(selected.ok && [selected.value.loop?.phase, selected.value.loop?.from, selected.value.points], ['05', 'STATE.md', []]);
  assert.equal(selected.ok && selected.value.context, unscoped);
});
