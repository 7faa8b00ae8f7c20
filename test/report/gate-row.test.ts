import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import type { GateReport } from '../../src/gates/run-point.ts';
import { gateRow } from '../../src/report/gate-row.ts';

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
    status: 'halt', outcome: 'failure', capability: 'sec', gate: 'sec#1', check: 'query q', durationMs: 7, reason: 'open threats',
  });
  assert.deepEqual([gateRow(report({ status: 'halt', error: 'query q: exited 2' }))].map((r) => [r.outcome, r.reason]), [['error', 'query q: exited 2']]);
});

test('pass and advisory pass; skipped and inactive are skipped, each with why', () => {
  const rows = [
    report({ envelope: { ...envelope('fine'), block: false } }),
    report({ status: 'advisory', envelope: envelope('UI spec missing') }),
    report({ status: 'skipped', error: 'query q: exited 2' }),
    report({ status: 'inactive', activation: { key: 'workflow.ui', value: false, source: 'config' } }),
    report({ status: 'inactive', activation: { key: 'workflow.x', value: null, source: 'absent' } }),
  ].map(gateRow);
  assert.deepEqual(rows.map((r) => [r.outcome, r.reason]), [
    ['passed', ''],
    ['passed', 'UI spec missing'],
    ['skipped', 'onError skip: query q: exited 2'],
    ['skipped', "inactive: workflow.ui is false (the project's config)"],
    ['skipped', 'inactive: workflow.x is null (set nowhere)'],
  ]);
});
