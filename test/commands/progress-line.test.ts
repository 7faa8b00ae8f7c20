import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressLine } from '../../src/commands/outcome.ts';
import type { GateReport } from '../../src/gates/run-point.ts';

const report = (fields: Partial<GateReport>): GateReport => ({
  capability: 'sec',
  index: 2,
  check: { predicate: { kind: 'artifact-frontmatter-equals' } },
  when: null,
  blocking: true,
  onError: 'halt',
  status: 'pass',
  durationMs: 3,
  ...fields,
});

test('one line per gate: point, gate, check, status, time, and why when it did not pass', () => {
  const envelope = { block: true, message: 'threats open:\n2', details: { kind: 'artifact-frontmatter-equals' } };
  assert.equal(progressLine('ship:pre', report({ envelope: { ...envelope, block: false, message: 'fine' } })), 'gsd-check: ship:pre sec#2 [predicate artifact-frontmatter-equals] pass (3 ms)');
  assert.equal(progressLine('ship:pre', report({ status: 'halt', envelope })), 'gsd-check: ship:pre sec#2 [predicate artifact-frontmatter-equals] halt (3 ms): threats open: 2');
  assert.equal(progressLine('ship:pre', report({ status: 'advisory', envelope })), 'gsd-check: ship:pre sec#2 [predicate artifact-frontmatter-equals] advisory (3 ms): threats open: 2');
  assert.equal(progressLine('plan:pre', report({ check: { query: 'q' }, status: 'skipped', error: 'query q: failed' })), 'gsd-check: plan:pre sec#2 [query q] skipped (3 ms): query q: failed');
  assert.equal(progressLine('plan:pre', report({ status: 'inactive', envelope })), 'gsd-check: plan:pre sec#2 [predicate artifact-frontmatter-equals] inactive (3 ms)');
  // Text from outside is escaped and cut to one line of at most 200 characters.
  const long = progressLine('ship:pre', report({ capability: 'x\u001b[2J', status: 'halt', error: 'e'.repeat(500) }));
  assert.equal(long, `gsd-check: ship:pre x\\x1b[2J#2 [predicate artifact-frontmatter-equals] halt (3 ms): ${'e'.repeat(197)}...`);
});
