import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCapability } from '../../src/gates/declaration.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { gatesAt, type Capability } from '../../src/gates/sources.ts';

const gate = (point: string, when?: unknown) => ({ point, check: { query: 'q' }, blocking: true, onError: 'halt', ...(when === undefined ? {} : { when }) });
function cap(file: string, data: Record<string, unknown>): Capability {
  const parsed = parseCapability(data, KINDS);
  assert.ok(parsed.ok);
  return { file, name: parsed.value.id ?? file, declaration: parsed.value };
}

test('the point\'s gates, each with its when resolved against defaults any capability declares', () => {
  const declaring = cap('/caps/a/cap.json', { id: 'a', config: { 'workflow.shared': { type: 'boolean', default: true } }, gates: [gate('plan:pre')] });
  const using = cap('/caps/b.json', { id: 'b', gates: [gate('ship:pre', 'workflow.shared'), gate('plan:pre'), gate('ship:pre', 'workflow.unknown'), gate('ship:pre', '')] });
  const { gates, warnings } = gatesAt('ship:pre', [declaring, using], { root: {} });
  assert.deepEqual(
    gates.map((g) => [g.capability, g.index, g.capDir, g.activation?.active, g.activation?.activation]),
    [
      ['b', 0, '/caps', true, { key: 'workflow.shared', value: true, source: 'default' }],
      ['b', 2, '/caps', false, { key: 'workflow.unknown', value: null, source: 'absent' }],
      ['b', 3, '/caps', false, { key: '', value: null, source: 'absent' }],
    ],
  );
  assert.deepEqual(warnings, []);
  const plan = gatesAt('plan:pre', [declaring, using], { root: {} }).gates;
  assert.deepEqual(plan.map((g) => [g.capability, g.index, g.activation]), [['a', 0, undefined], ['b', 1, undefined]]);
});

test('a mistyped value warns once, however many gates use the key', () => {
  const c = cap('c.json', { config: { 'w.on': { type: 'boolean', default: false } }, gates: [gate('ship:pre', 'w.on'), gate('ship:pre', 'w.on')] });
  const { gates, warnings } = gatesAt('ship:pre', [c], { root: { w: { on: 'yes' } } });
  assert.deepEqual(gates.map((g) => g.activation?.active), [false, false]);
  assert.deepEqual(warnings, ['w.on is "yes" in the project\'s config, not a boolean: its default false is used']);
});

test('a when that is not a key is inactive; the first capability to declare a key sets its default', () => {
  const first = cap('a.json', { id: 'a', config: { 'w.k': { type: 'boolean', default: true } }, gates: [gate('ship:pre', 'w.k'), gate('ship:pre', 7)] });
  const second = cap('b.json', { id: 'b', config: { 'w.k': { type: 'boolean', default: false } } });
  const { gates } = gatesAt('ship:pre', [first, second], { root: {} });
  assert.deepEqual(gates.map((g) => [g.activation?.active, g.activation?.activation]), [
    [true, { key: 'w.k', value: true, source: 'default' }],
    [false, { key: '7', value: null, source: 'absent' }],
  ]);
});
