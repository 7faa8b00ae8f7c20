import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import {
  belongsToPhase,
  comparePhaseIds,
  matchPhaseDirs,
  normalizePhaseId,
  phaseIdInProse,
  phaseIdProblem,
  phaseToken,
  samePhase,
} from '../../src/project/phase-id.ts';

// Each expectation below is what GSD 1.14's phase-id.cjs answers for the same
// input (compat/test/phase-id.test.mjs holds the two equal on many more).

test('phase ids normalised as GSD names phase directories', () => {
  const cases: [string, string][] = [
    ['1', '01'],
    ['01', '01'],
    ['4', '04'],
    ['12A', '12A'],
    ['12a', '12a'],
    ['4.1', '04.1'],
    ['12.1.2', '12.1.2'],
    ['12A.1', '12A.1'],
    ['1-2', '01-02'],
    ['1-2-3', '01-02-03'],
    ['CK-01', '01'],
    ['PROJ-42', '42'],
    ['AUTH-101', '101'],
    ['ck-1', 'ck-1'],
    ['alpha', 'alpha'],
  ];
  for (const [phase, normal] of cases) assert.equal(normalizePhaseId(phase), normal, phase);
});

test("GSD's order of phase ids: numbers, then a letter after none, then decimals after none", () => {
  const sorted = ['12', '1', '1.1', '2A', '2', '1.10', '1.2', 'CK-3', '10', '2B.1', '2B'].sort(comparePhaseIds);
  assert.deepEqual(sorted, ['1', '1.1', '1.2', '1.10', '2', '2A', '2B', '2B.1', 'CK-3', '10', '12']);
  assert.ok(comparePhaseIds('1-2', '1-10') < 0);
  assert.ok(comparePhaseIds('01-02', '1-2') === 0);
  assert.equal(comparePhaseIds('04', '4'), 0);
});

test("a directory's phase token: a year or a lower-case word of the slug is not part of it", () => {
  const cases: [string, string][] = [
    ['04-ship', '04'],
    ['04.1-hotfix', '04.1'],
    ['12A-split', '12A'],
    ['12A.1-x', '12A.1'],
    ['12.1A-x', '12.1A'],
    ['CK-04-ship', 'CK-04'],
    ['ck-04-ship', 'ck-04'],
    ['1-2-foo', '1'],
    ['01-02-milestone', '01-02'],
    ['14-2026-photos', '14'],
    ['10-25abc', '10'],
    ['notes', 'notes'],
    ['P0.3-2-x', 'P0.3-2'],
  ];
  for (const [name, token] of cases) assert.equal(phaseToken(name), token, name);
});

test('find-phase: the directories of one phase, and the bare-number fallback on leading digits', () => {
  const dirs = ['03-auth', '04-ship', '04-ship-notes', '04.1-hotfix', '05-80-20-cleanup', 'CK-07-coded', '12A-split'];
  assert.deepEqual(matchPhaseDirs(dirs, '4'), ['04-ship', '04-ship-notes']);
  assert.deepEqual(matchPhaseDirs(dirs, '4.1'), ['04.1-hotfix']);
  assert.deepEqual(matchPhaseDirs(dirs, '5'), ['05-80-20-cleanup']);
  assert.deepEqual(matchPhaseDirs(dirs, '7'), ['CK-07-coded']);
  assert.deepEqual(matchPhaseDirs(dirs, 'CK-07'), ['CK-07-coded']);
  assert.deepEqual(matchPhaseDirs(dirs, '12a'), ['12A-split']);
  assert.deepEqual(matchPhaseDirs(dirs, '12'), []);
});

test("a phase's own files: its id however padded or coded, or none; another phase's are not", () => {
  assert.ok(belongsToPhase('04-VERIFICATION.md', '04-ship'));
  assert.ok(belongsToPhase('04-VERIFICATION.md', 'CK-04-ship'));
  assert.ok(belongsToPhase('01-VERIFICATION.md', '1-unpadded'));
  assert.ok(belongsToPhase('04.1-CONTEXT.md', '04-ship'));
  assert.ok(belongsToPhase('VERIFICATION.md', '04-ship'));
  assert.ok(belongsToPhase('05-UAT.md', '05-80-20-cleanup'));
  assert.ok(!belongsToPhase('05-PLAN.md', '04-ship'));
  assert.ok(!belongsToPhase('03-VERIFICATION.md', '04-ship'));
  assert.ok(belongsToPhase('anything.md', 'notes'));
});

test('one phase however written; a STATE.md value read from its start only', () => {
  assert.ok(samePhase('4', '04'));
  assert.ok(samePhase('004', '4'));
  assert.ok(samePhase('CK-04', '04'));
  assert.ok(samePhase('12a', '12A'));
  assert.ok(!samePhase('4', '4.1'));
  assert.equal(phaseIdInProse('2 of 2 (Tasks)'), '2');
  assert.equal(phaseIdInProse('CK-04 — Ship'), '04');
  assert.equal(phaseIdInProse('Milestone v0.5 complete'), undefined);
});

test('a phase id on the command line: the shapes GSD makes, nothing a shell would expand', () => {
  for (const id of ['04', '4.1', '12A', '1-2', 'CK-01', 'PROJ-42']) assert.equal(phaseIdProblem(id), undefined, id);
  for (const id of ['a[$(id)]', '1 2', '-1', '1..2', '']) assert.match(phaseIdProblem(id) ?? '', /is not a phase number/, id);
});
