import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { parseCapability } from '../../src/gates/declaration.ts';
import { gatesAt, type Capability, gatesFromHooks, gatesFromHooksOf, hooksWarnings, builtinCapabilities } from '../../src/gates/sources.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { ROOT } from '../helpers/support.ts';

const gate = (point: string, when?: unknown) => ({ point, check: { query: 'q' }, blocking: true, onError: 'halt', ...(when === undefined ? {} : { when }) });
function cap(file: string, data: Record<string, unknown>): Capability {
  const parsed = parseCapability(data, KINDS);
  assert.ok(parsed.ok);
  return { file, name: parsed.value.id ?? file, declaration: parsed.value };
}

test("the point's gates, each with its when resolved against defaults any capability declares", () => {
  const declaring = cap('/caps/a/cap.json', { id: 'a', config: { 'workflow.shared': { type: 'boolean', default: true } }, gates: [gate('plan:pre')] });
  const using = cap('/caps/b.json', {
    id: 'b',
    gates: [gate('ship:pre', 'workflow.shared'), gate('plan:pre'), gate('ship:pre', 'workflow.unknown'), gate('ship:pre', '')],
  });
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
  assert.deepEqual(
    plan.map((g) => [g.capability, g.index, g.activation]),
    [
      ['a', 0, undefined],
      ['b', 1, undefined],
    ],
  );
});

test('a mistyped value warns once, however many gates use the key', () => {
  const c = cap('c.json', { config: { 'w.on': { type: 'boolean', default: false } }, gates: [gate('ship:pre', 'w.on'), gate('ship:pre', 'w.on')] });
  const { gates, warnings } = gatesAt('ship:pre', [c], { root: { w: { on: 'yes' } } });
  assert.deepEqual(
    gates.map((g) => g.activation?.active),
    [false, false],
  );
  assert.deepEqual(warnings, ['w.on is "yes" in the project\'s config, not a boolean: its default false is used']);
});

test('a when that is not a key is inactive; the first capability to declare a key sets its default', () => {
  const first = cap('a.json', { id: 'a', config: { 'w.k': { type: 'boolean', default: true } }, gates: [gate('ship:pre', 'w.k'), gate('ship:pre', 7)] });
  const second = cap('b.json', { id: 'b', config: { 'w.k': { type: 'boolean', default: false } } });
  const { gates } = gatesAt('ship:pre', [first, second], { root: {} });
  assert.deepEqual(
    gates.map((g) => [g.activation?.active, g.activation?.activation]),
    [
      [true, { key: 'w.k', value: true, source: 'default' }],
      [false, { key: '7', value: null, source: 'absent' }],
    ],
  );
});

// GSD's loop-resolver: `when === undefined || when === null` is unconditional.
// Inactive would skip a blocking gate that GSD runs.
test('a gate whose when is null runs unconditionally, as one with no when; an empty when is inactive', () => {
  const capability = cap('a.json', { id: 'a', gates: [{ ...gate('ship:pre'), when: null }, gate('ship:pre'), gate('ship:pre', '')] });
  const { gates } = gatesAt('ship:pre', [capability], { root: {} });
  assert.deepEqual(
    gates.map((g) => g.activation?.active),
    [undefined, undefined, false],
  );
});

const hookGate = (capId: string, check: unknown, extra: Record<string, unknown> = {}) => ({
  capId,
  kind: 'gate',
  check,
  blocking: true,
  onError: 'halt',
  ...extra,
});

test('the rendered gate entries, all active, indexed per capability; steps and contributions left out', () => {
  const security = { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } };
  const hooks = {
    point: 'ship:pre',
    activeHooks: [
      { capId: 'docs', kind: 'step', body: 'x' },
      hookGate('security', security, { when: 'workflow.security_enforcement' }),
      hookGate('acme', { query: 'a' }),
      { capId: 'acme', kind: 'contribution' },
      hookGate('acme', { query: 'b' }, { blocking: false, onError: 'skip' }),
    ],
    rendered: '…',
  };
  const result = gatesFromHooks(hooks, 'ship:pre', '--hooks h.json', KINDS);
  assert.ok(result.ok);
  assert.deepEqual(
    result.value.map((g) => [g.capability, g.index, g.declaration.declared, g.activation, g.capDir]),
    [
      ['security', 0, { point: 'ship:pre', check: security, blocking: true, onError: 'halt', when: 'workflow.security_enforcement' }, undefined, undefined],
      ['acme', 0, { point: 'ship:pre', check: { query: 'a' }, blocking: true, onError: 'halt' }, undefined, undefined],
      ['acme', 1, { point: 'ship:pre', check: { query: 'b' }, blocking: false, onError: 'skip' }, undefined, undefined],
    ],
  );
});

test("GSD's own gates rendered keep their places in its registry, as --builtin names them; one it does not declare comes after them", () => {
  const hooks = {
    point: 'plan:pre',
    activeHooks: [
      hookGate('drift', { query: 'verify.context-drift' }),
      hookGate('drift', { query: 'verify.codebase-drift' }),
      hookGate('drift', { query: 'other' }),
      hookGate('ui', { query: 'ui.plan-gate' }),
    ],
  };
  const rendered = gatesFromHooks(hooks, 'plan:pre', 'h', KINDS);
  assert.deepEqual(rendered.ok && rendered.value.map((g) => `${g.capability}#${g.index}`), ['drift#3', 'drift#2', 'drift#4', 'ui#0']);
  const builtin = gatesAt('plan:pre', builtinCapabilities(), { root: {} }).gates.filter((g) => g.capability === 'drift');
  assert.deepEqual(
    builtin.map((g) => `${g.capability}#${g.index}`),
    ['drift#2', 'drift#3'],
  );
});

test('another point, or a shape that is not render-hooks output, is refused', () => {
  const message = (hooks: unknown) => {
    const result = gatesFromHooks(hooks, 'ship:pre', 'the hooks', KINDS);
    return result.ok ? 'accepted' : [result.failure.reason, result.failure.message, ...result.failure.issues.map((i) => `${i.path}: ${i.message}`)];
  };
  assert.deepEqual(message({ point: 'plan:pre', activeHooks: [] }), ['invalid-json', 'the hooks: rendered for point "plan:pre", not for --point ship:pre']);
  assert.deepEqual(message([]), ['invalid-json', 'the hooks is not a JSON object (is it the output of gsd_run loop render-hooks <point> --raw?)']);
  assert.deepEqual(message({ point: 'ship:pre' }), ['invalid-json', 'the hooks: activeHooks must be an array, got nothing']);
  assert.deepEqual(message({ point: 'ship:pre', activeHooks: [hookGate('', { query: 'q' })] }), [
    'invalid-json',
    'the hooks has malformed gate entries',
    'activeHooks[0].capId: must be a non-empty string, got ""',
  ]);
  assert.equal(message({ point: 'ship:pre', activeHooks: [] }), 'accepted');
});

test("GSD 1.14's built-in gates: 11 gates of 7 capabilities, every one valid, every `when` declared", () => {
  const capabilities = builtinCapabilities();
  assert.deepEqual(
    capabilities.map((c) => `${c.name}:${c.declaration.gates.length}`),
    ['ai-integration:1', 'broken-windows:1', 'drift:4', 'gap-analysis:1', 'security:1', 'tdd:1', 'ui:2'],
  );
  for (const capability of capabilities) {
    assert.deepEqual(capability.declaration.issues, [], capability.name);
    assert.equal(capability.file, undefined, 'no file: GSD_CAP_DIR is not set for them');
  }
  const windows = capabilities.find((c) => c.name === 'broken-windows')!;
  assert.deepEqual(
    [windows.declaration.gates[0]!.declared.when, windows.declaration.keys.get('workflow.windows_enforce')?.default],
    ['workflow.windows_enforce', false],
  );
});

test("the test fixtures switch their gates by GSD's own keys, as GSD 1.14 declares them", () => {
  const gsd = new Map(builtinCapabilities().flatMap((c) => [...c.declaration.keys]));
  for (const name of ['broken-windows', 'security', 'tdd']) {
    const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/capabilities', `${name}.json`), 'utf8')) as {
      config: Record<string, { type: string; default: unknown }>;
      gates: { when?: string }[];
    };
    for (const [key, declared] of Object.entries(fixture.config)) {
      assert.ok(gsd.has(key), `${name}.json declares ${key}, which no gate of GSD 1.14 is switched by`);
      assert.deepEqual([declared.type, declared.default], [gsd.get(key)!.type, gsd.get(key)!.default], `${name}.json: ${key}`);
    }
    for (const gate of fixture.gates) if (gate.when !== undefined) assert.ok(gsd.has(gate.when), `${name}.json: when ${gate.when}`);
  }
});

test('a capability read from standard input has no directory of its own: no GSD_CAP_DIR of "."', () => {
  const fromStdin = cap('-', { id: 's', gates: [gate('ship:pre')] });
  const fromFile = cap('caps/c.json', { id: 'f', gates: [gate('ship:pre')] });
  assert.deepEqual(
    gatesAt('ship:pre', [fromStdin, fromFile], { root: {} }).gates.map((g) => [g.capability, g.capDir]),
    [
      ['s', undefined],
      ['f', 'caps'],
    ],
  );
});

test("GSD's warnings beside rendered hooks: its strings, by the point of their document, not other values; none from hooks that have none", () => {
  const doc = (point: string, warnings?: unknown) => JSON.stringify({ point, activeHooks: [], ...(warnings === undefined ? {} : { warnings }) });
  assert.deepEqual(hooksWarnings(JSON.parse(doc('ship:pre', ['x', '', 3, null, 'y']))), ['GSD: x', 'GSD: y']);
  assert.deepEqual(hooksWarnings(JSON.parse(doc('ship:pre', 'x'))), []);
  assert.deepEqual(hooksWarnings(JSON.parse(doc('ship:pre'))), []);
  const both = gatesFromHooksOf(`${doc('ship:pre', ['s'])}\n${doc('plan:pre', ['p', 's'])}`, 'h', ['plan:pre', 'ship:pre'], KINDS);
  assert.ok(both.ok);
  assert.deepEqual(
    [...both.value.warnings],
    [
      ['ship:pre', ['GSD: s']],
      ['plan:pre', ['GSD: p', 'GSD: s']],
    ],
  );
  assert.deepEqual([...both.value.byPoint.keys()], ['plan:pre', 'ship:pre']);
});
