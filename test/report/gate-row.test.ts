import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import type { GateReport } from '../../src/gates/run-point.ts';
import { gateRow, pointHeadline, runHeadline, type GateRow, type PointRows } from '../../src/report/gate-row.ts';

const report = (fields: Partial<GateReport>): GateReport => ({
  capability: 'sec',
  index: 1,
  check: { query: 'q' },
  when: null,
  blocking: true,
  onError: 'halt',
  status: 'pass',
  durationMs: 7,
  ...fields,
});
const envelope = (message: string) => ({ block: true, message, details: { kind: 'query' } });

test("a halt by the check's verdict is a failure; by a check that could not be evaluated, an error", () => {
  assert.deepEqual(gateRow(report({ status: 'halt', envelope: envelope('open threats') })), {
    status: 'halt',
    caseStatus: 'failure',
    capability: 'sec',
    gate: 'sec#1',
    check: 'query q',
    durationMs: 7,
    reason: 'open threats',
  });
  assert.deepEqual(
    [gateRow(report({ status: 'halt', error: 'query q: exited 2' }))].map((r) => [r.caseStatus, r.reason]),
    [['error', 'query q: exited 2']],
  );
});

test('pass and advisory pass; skipped and inactive are skipped, each with why', () => {
  const rows = [
    report({ envelope: { ...envelope('fine'), block: false } }),
    report({ status: 'advisory', envelope: envelope('UI spec missing') }),
    report({ status: 'skipped', error: 'query q: exited 2' }),
    report({ status: 'inactive', activation: { key: 'workflow.ui', value: false, source: 'config' } }),
    report({ status: 'inactive', activation: { key: 'workflow.x', value: null, source: 'absent' } }),
  ].map(gateRow);
  assert.deepEqual(
    rows.map((r) => [r.caseStatus, r.reason]),
    [
      ['passed', ''],
      ['passed', 'UI spec missing'],
      ['skipped', 'onError skip: query q: exited 2'],
      ['skipped', "inactive: workflow.ui is false (the project's config)"],
      ['skipped', 'inactive: workflow.x is null (set nowhere)'],
    ],
  );
});

const headRow = (status: GateRow['status'], gate: string): GateRow => ({
  status,
  caseStatus: 'passed',
  capability: 'c',
  gate,
  check: 'query q',
  durationMs: 1,
  reason: 'why',
});
const pointOf = (rows: GateRow[], evaluated = true): PointRows => ({ point: 'ship:pre', message: 'the envelope message', evaluated, reached: true, rows });

test("a point's headline names only the gates that halted, and how many are advisory; without a halt it is the point's message", () => {
  assert.equal(
    pointHeadline(pointOf([headRow('halt', 'a#0'), headRow('advisory', 'b#0'), headRow('halt', 'c#1'), headRow('pass', 'd#0')])),
    'ship:pre: halted by a#0, c#1; 1 advisory',
  );
  assert.equal(pointHeadline(pointOf([headRow('halt', 'a#0')])), 'ship:pre: halted by a#0');
  assert.equal(pointHeadline(pointOf([headRow('advisory', 'b#0'), headRow('skipped', 'e#0')])), 'the envelope message');
  assert.equal(pointHeadline(pointOf([])), 'the envelope message');
});

test("the run's headline names the points that halted or could not be evaluated; without one it is the run's message", () => {
  const passed = { ...pointOf([headRow('pass', 'a#0')]), point: 'plan:pre' as const };
  const halted = pointOf([headRow('halt', 'a#0')]);
  const unevaluated = { ...pointOf([], false), point: 'verify:pre' as const };
  assert.equal(runHeadline([passed, unevaluated, halted], 'run'), '2 of 3 points halted: verify:pre, ship:pre');
  assert.equal(runHeadline([passed, pointOf([headRow('advisory', 'b#0')])], 'run'), 'run');
});
