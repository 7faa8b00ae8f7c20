import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { NOTHING } from '../helpers/phase-files.ts';
import { project } from '../helpers/project.ts';
import { executionBegun, phaseFiles as readPhase, type PhaseFiles } from '../../src/loop/phase-files.ts';
import type { StatePosition } from '../../src/project/state-document.ts';

// What phase-files.ts reads of a phase directory and STATE.md, as files on
// disk written the way GSD 1.14's workflows and templates write them.

// The phase's files, read where the reading succeeds; `phases`, the
// project's phase ids, only matter to what STATE.md says of the loop.
function phaseFiles(dir: string | undefined, phase: string, state: StatePosition | undefined, phases: readonly string[] = []): PhaseFiles {
  const read = readPhase(dir, phase, state, phases);
  assert.ok(read.ok, read.ok ? '' : read.failure.message);
  return read.value;
}
const DIR = '.planning/phases/04-ship';

// The phase directory laid out from `files` (names relative to it).
const phaseDir = (t: Parameters<typeof project>[0], files: Record<string, string | null>): string =>
  join(project(t, Object.fromEntries(Object.entries(files).map(([name, text]) => [`${DIR}/${name}`, text]))), DIR);

const state = (given: Partial<StatePosition>): StatePosition => ({
  phase: '4',
  source: 'frontmatter',
  status: 'executing',
  rawStatus: 'Ready to execute',
  positionLine: null,
  lastActivity: null,
  ...given,
});

test('no phase directory, or one that is not there: nothing, and STATE.md still read for the phase', (t) => {
  assert.deepEqual(phaseFiles(undefined, '04', undefined), NOTHING);
  assert.deepEqual(phaseFiles(join(project(t), 'gone'), '04', undefined), NOTHING);
  assert.deepEqual(phaseFiles(undefined, '04', state({ phase: '6', positionLine: '6 (Next) — EXECUTING', rawStatus: 'Phase 4 shipped — PR #7' })), {
    ...NOTHING,
    pastShip: 'phase 6 has begun since',
    shipped: true,
  });
});

test("the directory's files by name, sorted; a directory, even one named like a plan, is no file", (t) => {
  const dir = phaseDir(t, { '04-RESEARCH.md': '# Research\n', '04-01-PLAN.md': '# Plan\n', '.gitkeep': '', 'notes/x.md': 'x', '04-02-PLAN.md/y': 'y' });
  assert.deepEqual(phaseFiles(dir, '04', undefined), {
    ...NOTHING,
    names: ['.gitkeep', '04-01-PLAN.md', '04-RESEARCH.md'],
    plans: [{ id: '04-01', file: '04-01-PLAN.md', summarized: false }],
    waves: [['04-01']],
  });
});

test('CONTEXT.md: from discuss-phase unless it carries the mark of a path that renders no discuss hooks', (t) => {
  const contextOf = (files: Record<string, string>) => phaseFiles(phaseDir(t, files), '04', undefined).context;
  assert.equal(contextOf({ '04-RESEARCH.md': '' }), undefined);
  assert.deepEqual(contextOf({ '04-CONTEXT.md': '# Phase 4: Ship - Context\n\n**Gathered:** 2026-01-02\n**Status:** Ready for planning\n' }), {
    name: '04-CONTEXT.md',
    notFromDiscuss: false,
  });
  for (const mark of [
    '**Mode:** Auto-generated (discuss skipped via workflow.skip_discuss)',
    '**Source:** PRD Express Path (docs/prd.md)',
    '**Source:** ADR Ingest Express Path (docs/adr)',
  ]) {
    assert.deepEqual(
      contextOf({ '04-CONTEXT.md': `# Phase 4: Ship - Context\n\n**Gathered:** 2026-01-02\n${mark}\n` }),
      { name: '04-CONTEXT.md', notFromDiscuss: true },
      mark,
    );
  }
  // Assumptions mode marks its CONTEXT.md's Gathered line, which it writes
  // before the DISCUSSION-LOG.md that says so too; the words elsewhere are no mark.
  assert.deepEqual(contextOf({ '04-CONTEXT.md': '# Phase 4: Ship - Context\n\n**Gathered:** 2026-01-02 (assumptions mode)\n' }), {
    name: '04-CONTEXT.md',
    notFromDiscuss: true,
  });
  assert.deepEqual(contextOf({ '04-CONTEXT.md': '# Context\n\nWe talked about (assumptions mode) here.\n**Gathered:** 2026-01-02\n' }), {
    name: '04-CONTEXT.md',
    notFromDiscuss: false,
  });
  assert.deepEqual(contextOf({ '04-CONTEXT.md': '# Context\n', '04-DISCUSSION-LOG.md': '# Discussion Log\n\n**Mode:** assumptions\n' }), {
    name: '04-CONTEXT.md',
    notFromDiscuss: true,
  });
  assert.deepEqual(contextOf({ '04-CONTEXT.md': '# Context\n', '04-DISCUSSION-LOG.md': '# Discussion Log\n\n**Mode:** discuss\n' }), {
    name: '04-CONTEXT.md',
    notFromDiscuss: false,
  });
  // A mark in the log is no CONTEXT.md: without one there is none to describe.
  assert.equal(contextOf({ '04-DISCUSSION-LOG.md': '**Mode:** assumptions\n' }), undefined);
});

test("UAT.md: execute-phase's own (sourced from the VERIFICATION.md, testing, all pending) against verify-work's marks", (t) => {
  const uatOf = (text: string) => phaseFiles(phaseDir(t, { '04-UAT.md': text }), '04', undefined).uat;
  const uat = (status: string, source: string, results: string[]) =>
    `---\nstatus: ${status}\nphase: 04-ship\nsource: ${source}\n---\n\n## Tests\n\n${results.map((r, i) => `### ${i + 1}. T\nexpected: x\nresult: ${r}\n`).join('\n')}`;
  assert.deepEqual(uatOf(uat('testing', '[04-VERIFICATION.md]', ['[pending]', '[pending]'])), {
    name: '04-UAT.md',
    fromVerification: true,
    verifyWorkRan: false,
  });
  assert.deepEqual(uatOf(uat('testing', '04-VERIFICATION.md', ['[pending]'])), { name: '04-UAT.md', fromVerification: true, verifyWorkRan: false });
  for (const status of ['partial', 'complete', 'diagnosed', ' complete ']) {
    assert.deepEqual(
      uatOf(uat(`"${status}"`, '[04-VERIFICATION.md]', ['[pending]'])),
      { name: '04-UAT.md', fromVerification: true, verifyWorkRan: true },
      status,
    );
  }
  // A recorded result, whatever the status says.
  assert.deepEqual(uatOf(uat('testing', '[04-VERIFICATION.md]', ['[pending]', 'pass'])), { name: '04-UAT.md', fromVerification: true, verifyWorkRan: true });
  assert.deepEqual(uatOf(uat('testing', '[04-VERIFICATION.md]', ['  [pending]  '])), { name: '04-UAT.md', fromVerification: true, verifyWorkRan: false });
  // verify-work's own UAT is sourced from the SUMMARY files.
  assert.deepEqual(uatOf(uat('testing', '[04-01-SUMMARY.md, 04-02-SUMMARY.md]', ['[pending]'])), {
    name: '04-UAT.md',
    fromVerification: false,
    verifyWorkRan: true,
  });
  assert.deepEqual(uatOf(uat('testing', 'a person', ['[pending]'])), { name: '04-UAT.md', fromVerification: false, verifyWorkRan: false });
  // No frontmatter: only the results can say anything.
  assert.deepEqual(uatOf('# UAT\n\nresult: [pending]\n'), { name: '04-UAT.md', fromVerification: false, verifyWorkRan: false });
  assert.deepEqual(uatOf('# UAT\n\n### 1. T\nresult: issue\n'), { name: '04-UAT.md', fromVerification: false, verifyWorkRan: true });
  // A result is a test's, as GSD reads them (uat-results.ts): one outside a `### N.` block is none.
  assert.deepEqual(uatOf('# UAT\n\nresult: issue\n'), { name: '04-UAT.md', fromVerification: false, verifyWorkRan: false });
  // `result:` counts only at the start of a line.
  assert.deepEqual(uatOf(uat('testing', 'x', ['[pending]']) + 'the result: pass\n'), { name: '04-UAT.md', fromVerification: false, verifyWorkRan: false });
  assert.equal(phaseFiles(phaseDir(t, { '04-VERIFICATION.md': '' }), '04', undefined).uat, undefined);
});

test('plans: each PLAN.md but superseded ones, summarized by a SUMMARY.md that does not say it is blocked', (t) => {
  const dir = phaseDir(t, {
    '04-01-PLAN.md': '---\nphase: 04-ship\nplan: 01\n---\n',
    '04-01-SUMMARY.md': '---\nphase: 04-ship\nplan: 01\nstatus: complete\n---\n',
    '04-02-PLAN.md': '---\nplan: 02\n---\n',
    '04-02-SUMMARY.md': '---\nstatus: blocked\n---\n',
    '04-03-PLAN.md': '---\nstatus: superseded\n---\n',
    '04-03-SUMMARY.md': '---\nstatus: complete\n---\n',
    '04-04-PLAN.md': '# no frontmatter\n',
    '04-04-SUMMARY.md': '# Summary, no frontmatter\n',
    '04-05-PLAN.md': '---\nplan: 05\n---\n',
    '04-06-PLAN.md': '---\nplan: 06\n---\n',
    '04-06-SUMMARY.md': '---\nstatus: halted\n---\n',
  });
  const files = phaseFiles(dir, '04', undefined);
  assert.deepEqual(files.plans, [
    { id: '04-01', file: '04-01-PLAN.md', summarized: true },
    { id: '04-02', file: '04-02-PLAN.md', summarized: false },
    { id: '04-04', file: '04-04-PLAN.md', summarized: true },
    { id: '04-05', file: '04-05-PLAN.md', summarized: false },
    { id: '04-06', file: '04-06-PLAN.md', summarized: true },
  ]);
  assert.deepEqual(files.waves, [['04-01', '04-02', '04-04', '04-05', '04-06']]);
});

test("waves: the levels of the plans' depends_on within the phase, as phase-plan-index resolves it, not their wave: field", (t) => {
  const plan = (fields: string) => `---\n${fields}\n---\n`;
  const dir = phaseDir(t, {
    '04-01-PLAN.md': plan('wave: 3'),
    '04-02-PLAN.md': plan('wave: 1\ndepends_on: [04-01]'),
    '04-03-PLAN.md': plan('depends_on: []'),
    '04-04-PLAN.md': plan('depends_on:\n  - 04-02\n  - 04-03'),
    // Outside the phase, or not a plan id: no edge.
    '04-05-PLAN.md': plan('depends_on: [03-01, 7]'),
    // A plan's own number, and one id as a scalar, are edges to GSD.
    '04-06-PLAN.md': plan('depends_on: ["01"]'),
    '04-07-PLAN.md': plan('depends_on: 04-06'),
    // Superseded in any case: no plan, so no edge to it.
    '04-09-PLAN.md': plan('status: Superseded'),
    '04-10-PLAN.md': plan('depends_on: [04-09]'),
  });
  assert.deepEqual(phaseFiles(dir, '04', undefined).waves, [
    ['04-01', '04-03', '04-05', '04-10'],
    ['04-02', '04-06'],
    ['04-04', '04-07'],
  ]);
});

test("a plan of wave: 0 starts the waves at 0, as phase-plan-index numbers them; GSD's nested plans/ layout counts", (t) => {
  const dir = phaseDir(t, {
    '04-01-PLAN.md': '---\nwave: 0\n---\n',
    'plans/PLAN-02.md': '---\ndepends_on: [04-01]\n---\n',
    'plans/SUMMARY-02.md': '---\nstatus: complete\n---\n',
  });
  const files = phaseFiles(dir, '04', undefined);
  assert.deepEqual(files.plans, [
    { id: '04-01', file: '04-01-PLAN.md', summarized: false },
    { id: 'plans/PLAN-02.md', file: 'plans/PLAN-02.md', summarized: true },
  ]);
  assert.deepEqual(files.waves, [['04-01'], ['plans/PLAN-02.md']]);
});

test("imported plans: import's type (feature, refactor, config, test, docs), not the planner's (execute, tdd) nor none", (t) => {
  const plan = (type: string | undefined) => `---\nphase: "04-ship"\nplan: "04-01"\n${type === undefined ? '' : `type: ${type}\n`}wave: 1\n---\n# Plan\n`;
  const dir = phaseDir(t, {
    '04-01-PLAN.md': plan('"feature"'),
    '04-02-PLAN.md': plan('execute'),
    '04-03-PLAN.md': plan('docs'),
    '04-04-PLAN.md': plan(undefined),
    '04-05-PLAN.md': plan('tdd'),
    '04-06-PLAN.md': plan('Feature'),
    'plans/PLAN-07.md': plan(' refactor '),
  });
  assert.deepEqual(phaseFiles(dir, '04', undefined).imported, ['04-01-PLAN.md', '04-03-PLAN.md', 'plans/PLAN-07.md']);
});

test('plans GSD refuses to order (a cycle, two ids one in any case) fail the reading: no wave may pass for them', (t) => {
  const cycle = readPhase(
    phaseDir(t, { '04-06-PLAN.md': '---\ndepends_on: [04-07]\n---\n', '04-07-PLAN.md': '---\ndepends_on: [04-06]\n---\n' }),
    '04',
    undefined,
    [],
  );
  assert.deepEqual(cycle.ok ? undefined : [cycle.failure.reason, cycle.failure.message.replace(/\/tmp\/\S+\/\.planning/, '<p>')], [
    'ambiguous-phase',
    'the plans of <p>/phases/04-ship depend on each other in a cycle (phase-plan-index refuses the phase)',
  ]);
  const twice = readPhase(phaseDir(t, { '04-01a-PLAN.md': '', '04-01A-PLAN.md': '' }), '04', undefined, []);
  assert.equal(twice.ok ? undefined : twice.failure.reason, 'ambiguous-phase');
});

test("the phase's own VERIFICATION.md and UAT.md first, as GSD pins them, whatever sorts before; another phase's files are not the phase's, but for its plans", (t) => {
  const dir = phaseDir(t, {
    '04-CORRECTION-VERIFICATION.md': '# worksheet\n',
    '04-VERIFICATION.md': '---\nstatus: passed\n---\n',
    '04-00-smoke-UAT.md': '---\nstatus: testing\n---\n',
    '04-UAT.md': '---\nstatus: complete\n---\n',
    '05-01-PLAN.md': '',
  });
  const files = phaseFiles(dir, '04', undefined);
  // phase-plan-index takes every plan of the directory; the workflows' other reads only the phase's own files.
  assert.deepEqual(
    [files.verification, files.verificationPassed, files.uat?.name, files.plans],
    ['04-VERIFICATION.md', true, '04-UAT.md', [{ id: '05-01', file: '05-01-PLAN.md', summarized: false }]],
  );
  assert.equal(files.names.includes('05-01-PLAN.md'), false);
  // With no pinned one, the first of the phase's; a bare VERIFICATION.md last.
  assert.equal(
    phaseFiles(phaseDir(t, { 'VERIFICATION.md': '', '04-B-VERIFICATION.md': '', '04-A-VERIFICATION.md': '' }), '04', undefined).verification,
    '04-A-VERIFICATION.md',
  );
  assert.equal(phaseFiles(phaseDir(t, { 'VERIFICATION.md': '---\nstatus: passed\n---\n' }), '04', undefined).verificationPassed, true);
});

test('past the ship: another phase executing, by STATE.md, or a later one begun, by its files', () => {
  const past = (phase: string, line: string | null, begun: readonly string[] = [], at = '04') =>
    phaseFiles(undefined, at, state({ phase, positionLine: line }), begun).pastShip;
  // As `phase complete` and a planned-phase leave STATE.md: a ship's note
  // outlives both, so the ship is still to come.
  assert.equal(past('5', '05 — Next'), undefined);
  assert.equal(past('5', '5 (Next) — READY TO EXECUTE'), undefined);
  assert.equal(past('5', null), undefined);
  // begin-phase of another phase rewrites the Status line the note is on.
  assert.equal(past('5', '5 (Next) — EXECUTING'), 'phase 5 has begun since');
  assert.equal(past('5', '  05 (Next) —EXECUTING  '), 'phase 5 has begun since');
  assert.equal(past('1.1', '1.1 (Hotfix) — EXECUTING', [], '01'), 'phase 1.1 has begun since');
  assert.equal(past('12a', '12a (Split) — EXECUTING', [], '12'), 'phase 12a has begun since');
  // An earlier phase STATE.md names as executing was begun after this one,
  // whose own begin-phase would name it (a decimal phase inserted before a
  // shipped one, say).
  assert.equal(past('3', '3 (Old) — EXECUTING'), 'phase 3 has begun since');
  assert.equal(past('01.1', '1.1 (Hotfix) — EXECUTING', [], '02'), 'phase 01.1 has begun since');
  // Only the phase STATE.md names, in the words GSD writes; this phase's own is no sign.
  for (const line of ['4 (Ship) — EXECUTING', '6 (Later) — EXECUTING', '5 (Next) — executing', '5 (Next) — EXECUTING — done', '5 (Next) - EXECUTING', '5']) {
    assert.equal(past('5', line), undefined, line);
  }
  assert.equal(past('4', '4 (Ship) — EXECUTING'), undefined);
  // A later phase's files show its execution begun, whatever STATE.md says now.
  assert.equal(past('6', '06 — Later', ['05']), 'phase 05 has begun since');
  assert.equal(past('2', '2', ['02'], '01'), 'phase 02 has begun since');
  assert.equal(phaseFiles(undefined, '04', undefined, ['05']).pastShip, 'phase 05 has begun since');
  // An earlier phase's files: executed before this one, as a rule.
  assert.equal(past('5', '05 — Next', ['03', '04']), undefined);
});

test("past the ship: begin-phase's words in Last activity, left when the phase it began is planned again", () => {
  const past = (lastActivity: string | null, at = '01') =>
    phaseFiles(undefined, at, state({ phase: '2', positionLine: '2 (Export) — READY TO EXECUTE', rawStatus: 'Ready to execute', lastActivity }), []).pastShip;
  assert.equal(past('2026-12-03 — Phase 2 execution started'), 'phase 2 has begun since');
  assert.equal(past('2026-12-03 — Phase 1.1 execution resumed (wave continue)', '02'), 'phase 1.1 has begun since');
  // Its own begin-phase, the other transitions' words, and a ship's bare date.
  for (const words of ['2026-12-03 — Phase 1 execution started', '2026-12-03 — Phase 2 planning complete', '2026-12-03', 'Phase 2 execution started', null])
    assert.equal(past(words), undefined, String(words));
});

test("past the ship: the milestone's close, which resets STATE.md's Current Position (GSD keeps the phase directories with --no-archive-phases)", () => {
  const closed = (line: string | null, rawStatus: string) => phaseFiles(undefined, '02', state({ phase: '2', positionLine: line, rawStatus }), []).pastShip;
  assert.equal(closed('Milestone v1.0 complete', 'Awaiting next milestone'), 'milestone v1.0 has closed since');
  assert.equal(closed('Milestone v2.1-beta complete', 'v2.1-beta milestone complete'), 'milestone v2.1-beta has closed since');
  // The last phase's `phase complete` comes before its ship: not past it.
  assert.equal(closed('2', 'All phases complete'), undefined);
  assert.equal(closed(null, 'Awaiting next milestone'), undefined);
  assert.equal(closed('Milestone v1.0 complete — later', 'Awaiting next milestone'), undefined);
});

test('past the ship: STATE.md back at a phase that has passed, as ready to plan (the completion of a phase inserted before it moved it there)', (t) => {
  const passed = phaseDir(t, { '04-VERIFICATION.md': '---\nstatus: passed\n---\n' });
  const back = (dir: string | undefined, status: StatePosition['status'], phase = '4') =>
    phaseFiles(dir, '04', state({ phase, status, positionLine: '04 — Ship', rawStatus: 'Ready to plan' }), []).pastShip;
  assert.equal(back(passed, 'planning'), 'STATE.md has come back to it as ready to plan since');
  // Before its verification passed, ready to plan is where a phase starts.
  assert.equal(back(phaseDir(t, { '04-VERIFICATION.md': '---\nstatus: gaps_found\n---\n' }), 'planning'), undefined);
  assert.equal(back(undefined, 'planning'), undefined);
  // Another status of it: its own work, or the last phase's completion before its ship.
  for (const status of ['executing', 'verifying', 'completed'] as const) assert.equal(back(passed, status), undefined, status);
  assert.equal(back(passed, 'planning', '5'), undefined);
});

test("a phase's execution has begun once it holds a summary, a report or a UAT, in the flat or the nested layout", (t) => {
  const begun = (files: Record<string, string>) => executionBegun(phaseDir(t, files));
  assert.equal(begun({ '04-CONTEXT.md': '', '04-01-PLAN.md': '', '04-RESEARCH.md': '' }), false);
  for (const name of ['04-01-SUMMARY.md', 'SUMMARY.md', '04-VERIFICATION.md', 'VERIFICATION.md', '04-UAT.md', 'plans/SUMMARY-01.md', 'plans/04-SUMMARY-02.md'])
    assert.equal(begun({ '04-01-PLAN.md': '', [name]: '' }), true, name);
  assert.equal(begun({ 'plans/PLAN-01.md': '', 'notes/SUMMARY-01.md': '' }), false);
  assert.equal(executionBegun(join(project(t), 'gone')), false);
});

test("shipped: STATE.md's Status as ship writes it, for this phase", () => {
  const shipped = (rawStatus: string | null, phase = '04') => phaseFiles(undefined, phase, state({ rawStatus })).shipped;
  assert.equal(shipped('Phase 4 shipped — PR #12'), true);
  assert.equal(shipped('  Phase 04 shipped — PR #3  '), true);
  assert.equal(shipped('Phase 1.1 shipped — PR #3', '01.1'), true);
  assert.equal(shipped('Phase 3 shipped — PR #12'), false);
  assert.equal(shipped('Phase 4 shipped'), false);
  assert.equal(shipped('Phase 4 shipped — PR #'), false);
  assert.equal(shipped('Phase 4 shipped — PR #12 and more'), false);
  assert.equal(shipped('Ready to execute'), false);
  assert.equal(shipped(null), false);
  assert.equal(phaseFiles(undefined, '04', undefined).shipped, false);
});

test("verificationPassed: the VERIFICATION.md's frontmatter says status: passed", (t) => {
  const passed = (text: string) => phaseFiles(phaseDir(t, { '04-VERIFICATION.md': text }), '04', undefined).verificationPassed;
  assert.equal(passed('---\nphase: 04-ship\nstatus: passed\nscore: 5/5\n---\n# Verification\n'), true);
  assert.equal(passed('---\nstatus: " passed "\n---\n'), true);
  assert.equal(passed('---\nstatus: human_needed\n---\n'), false);
  assert.equal(passed('---\nstatus: gaps_found\n---\n'), false);
  assert.equal(passed('---\nstatus: [passed]\n---\n'), false);
  assert.equal(passed('# Verification\n\nstatus: passed\n'), false);
  assert.equal(phaseFiles(phaseDir(t, { '04-01-PLAN.md': '' }), '04', undefined).verificationPassed, false);
});

test('names come sorted whatever order the file system lists them in: the first PLAN.md named is the lowest', (t) => {
  // Written highest first, so a directory listed in creation order is not sorted already.
  const ids = Array.from({ length: 12 }, (_, i) => `04-${String(12 - i).padStart(2, '0')}`);
  const dir = phaseDir(t, Object.fromEntries(ids.map((id) => [`${id}-PLAN.md`, ''])));
  const sorted = [...ids].sort();
  assert.deepEqual(phaseFiles(dir, '04', undefined), {
    ...NOTHING,
    names: sorted.map((id) => `${id}-PLAN.md`),
    plans: sorted.map((id) => ({ id, file: `${id}-PLAN.md`, summarized: false })),
    waves: [sorted],
  });
});

test('frontmatter that is YAML but no mapping (a list, a scalar) has no fields, as GSD reads it', (t) => {
  const dir = phaseDir(t, {
    '04-01-PLAN.md': '---\n- status: superseded\n---\n',
    '04-01-SUMMARY.md': '---\n- status: blocked\n---\n',
    '04-02-PLAN.md': '---\njust text\n---\n',
    '04-UAT.md': '---\n- status: complete\n- source: 04-VERIFICATION.md\n---\n',
    '04-VERIFICATION.md': '---\n- status: passed\n---\n',
  });
  assert.deepEqual(phaseFiles(dir, '04', undefined), {
    ...NOTHING,
    names: ['04-01-PLAN.md', '04-01-SUMMARY.md', '04-02-PLAN.md', '04-UAT.md', '04-VERIFICATION.md'],
    uat: { name: '04-UAT.md', fromVerification: false, verifyWorkRan: false },
    verification: '04-VERIFICATION.md',
    plans: [
      { id: '04-01', file: '04-01-PLAN.md', summarized: true },
      { id: '04-02', file: '04-02-PLAN.md', summarized: false },
    ],
    waves: [['04-01', '04-02']],
  });
});

test('what is not a regular file is not listed: a directory named like a UAT, a link that leads nowhere', (t) => {
  const dir = phaseDir(t, { '04-CONTEXT.md': '**Mode:** Auto-generated\n' });
  mkdirSync(join(dir, '04-UAT.md'));
  symlinkSync(join(dir, 'nowhere'), join(dir, '04-VERIFICATION.md'));
  assert.deepEqual(phaseFiles(dir, '04', undefined), { ...NOTHING, names: ['04-CONTEXT.md'], context: { name: '04-CONTEXT.md', notFromDiscuss: true } });
});

test("a link to a regular file is one of the phase's files, read through the link, as GSD lists and reads them; a link to a directory is not", (t) => {
  const dir = phaseDir(t, { 'elsewhere/ctx.md': '**Mode:** Auto-generated\n', 'elsewhere/plans/.keep': '' });
  symlinkSync(join(dir, 'elsewhere/ctx.md'), join(dir, '04-CONTEXT.md'));
  symlinkSync(join(dir, 'elsewhere/plans'), join(dir, '04-01-PLAN.md'));
  assert.deepEqual(phaseFiles(dir, '04', undefined), { ...NOTHING, names: ['04-CONTEXT.md'], context: { name: '04-CONTEXT.md', notFromDiscuss: true } });
});

test('a planning file is read up to 256 KiB: a mark within them counts, one past them is not read', (t) => {
  const mark = '**Mode:** Auto-generated';
  const within = phaseDir(t, { '04-CONTEXT.md': `${'x'.repeat(256 * 1024 - mark.length)}${mark}` });
  assert.deepEqual(phaseFiles(within, '04', undefined).context, { name: '04-CONTEXT.md', notFromDiscuss: true });
  const past = phaseDir(t, { '04-CONTEXT.md': `${'x'.repeat(256 * 1024 - mark.length + 1)}${mark}` });
  assert.deepEqual(phaseFiles(past, '04', undefined).context, { name: '04-CONTEXT.md', notFromDiscuss: false });
});
