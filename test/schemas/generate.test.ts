import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { Ajv, type ValidateFunction } from 'ajv';
import * as v from 'valibot';
import { generateSchemas, SCHEMA_NAMES, toJson, type SchemaName } from '../../schemas/generate.ts';
import { parseCapability } from '../../src/gates/declaration.ts';
import { gatesFromHooks } from '../../src/gates/sources.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { MAX_DEPTH } from '../../src/json/parse.ts';
import { validatePredicate } from '../../src/predicate/validate.ts';
import { ROOT } from '../helpers/support.ts';

const GSD_CAPABILITIES = join(ROOT, 'test/fixtures/gsd-1.14/capabilities');

const file = (name: SchemaName): string => readFileSync(join(ROOT, 'schemas', `${name}.schema.json`), 'utf8');

// strict: a keyword ajv does not know, or a misplaced one, is an error.
const ajv = new Ajv({ strict: true, allErrors: true });
const validators = Object.fromEntries(SCHEMA_NAMES.map((name) => [name, ajv.compile(JSON.parse(file(name)))])) as Record<SchemaName, ValidateFunction>;
const accepts = (name: SchemaName, value: unknown): boolean => validators[name](value);

test('the committed schemas are what the valibot schemas make now', () => {
  const fresh = generateSchemas();
  assert.deepEqual(
    readdirSync(join(ROOT, 'schemas'))
      .filter((f) => f.endsWith('.json'))
      .sort(),
    SCHEMA_NAMES.map((n) => `${n}.schema.json`).sort(),
  );
  for (const name of SCHEMA_NAMES) assert.equal(file(name), `${JSON.stringify(fresh[name], null, 2)}\n`, name);
});

test('a check JSON Schema has no word for must say what it means there, or the build fails', () => {
  const untranslated = v.pipe(
    v.string(),
    v.check((s: string) => s !== 'x'),
  );
  assert.throws(() => toJson(untranslated), /the "check" check has no JSON Schema translation/);
  assert.throws(() => toJson(v.object({ a: v.custom<unknown>(() => true) })), /the "custom" check has no JSON Schema translation/);
  assert.throws(() => toJson(v.pipe(v.string(), v.metadata({ jsonSchema: {} }))), /follows no check that needs one/);
  const translated = v.pipe(
    v.string(),
    v.check((s: string) => s !== 'x'),
    v.metadata({ jsonSchema: { not: { const: 'x' } } }),
    v.minLength(1),
  );
  assert.deepEqual(toJson(translated), { type: 'string', not: { const: 'x' }, minLength: 1 });
  // Two of one keyword both hold.
  const twice = v.pipe(
    v.string(),
    v.check(() => true),
    v.metadata({ jsonSchema: { pattern: 'a' } }),
    v.check(() => true),
    v.metadata({ jsonSchema: { pattern: 'b' } }),
  );
  assert.deepEqual(toJson(twice), { type: 'string', pattern: 'a', allOf: [{ pattern: 'b' }] });
});

test("every one of GSD 1.14's capability files is valid by the capability schema, as validate finds it", () => {
  const names = readdirSync(GSD_CAPABILITIES).filter((name) => name.endsWith('.json'));
  assert.equal(names.length, 46);
  let gates = 0;
  for (const name of names) {
    const capability: unknown = JSON.parse(readFileSync(join(GSD_CAPABILITIES, name), 'utf8'));
    assert.ok(accepts('capability', capability), `${name}: ${ajv.errorsText(validators.capability.errors)}`);
    const parsed = parseCapability(capability, KINDS);
    assert.deepEqual(parsed.ok && parsed.value.issues, [], name);
    for (const gate of (capability as { gates?: unknown[] }).gates ?? []) {
      assert.ok(accepts('gate', gate), name);
      gates++;
    }
  }
  assert.equal(gates, 11);
});

const good = { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' };
const gateWith = (change: Record<string, unknown>): Record<string, unknown> => {
  const gate: Record<string, unknown> = { ...good, ...change };
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete gate[key];
  return gate;
};
const issuesOf = (capability: unknown): number => {
  const parsed = parseCapability(capability, KINDS);
  return parsed.ok ? parsed.value.issues.length : 1;
};
const nest = (depth: number): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};
const artifact = { kind: 'artifact-frontmatter-equals', artifact: 'S.md', field: 'f', equals: 0 };

// What validate refuses and the schemas cannot: docs/how-to/author-gates.md lists them.
const UNSAID = {
  undeclaredWhen: { id: 'c', config: { k: { type: 'boolean', default: true } }, gates: [gateWith({ when: 'other' })] },
  quotedPlaceholder: { gates: [gateWith({ check: { predicate: { kind: 'command-exit-zero', command: "test -f '${PHASE_DIR}/PLAN.md'" } } })] },
  tooDeep: { gates: [gateWith({ check: { predicate: { ...artifact, equals: nest(MAX_DEPTH + 1) } } })] },
  astralCommand: { gates: [gateWith({ check: { predicate: { kind: 'command-exit-zero', command: '😀'.repeat(4000) } } })] },
};

test('every capability validate refuses is refused by the schema, but for what JSON Schema cannot say', () => {
  const refused: unknown[] = [
    [],
    'x',
    { gates: {} },
    { gates: [null] },
    { gates: [3] },
    { gates: ['x'] },
    ...[
      { point: undefined },
      { point: 'ship:pres' },
      { point: 3 },
      { check: undefined },
      { check: 'npm test' },
      { check: {} },
      { check: { query: 'q', predicate: good.check.predicate } },
      { check: { query: '' } },
      { check: { query: ' ' } },
      { check: { query: 'q', querry: 'x' } },
      { check: { agentVerdict: null }, blocking: false },
      { check: { agentVerdict: { prompt: 'p' } } },
      { check: { predicate: { kind: 'command-exit-zero', command: 'true', timeOut: 5 } } },
      { check: { predicate: { kind: 'command-exit-zero', command: 'true', timeout: 0 } } },
      { check: { predicate: { kind: 'constructor' } } },
      { check: { predicate: { kind: 'nope' } } },
      { check: { predicate: [] } },
      { when: '' },
      { when: 5 },
      { blocking: undefined },
      { blocking: 'yes' },
      { onError: undefined },
      { onError: 'ignore' },
      { onError: 1 },
      { id: 'g1' },
      { blockng: true },
    ].map((change) => ({ id: 'cap', gates: [gateWith(change)] })),
    { gates: [good, null, { point: 'ship', check: { predicate: { kind: 'command-exit-zero', command: '', timeOut: 1 } }, blocking: 'no' }] },
    { config: { k: {} }, gates: [{ onError: 'x', blocking: 'y', when: 'kk', check: { agentVerdict: null, querry: 1 }, point: 'ship', checks: 1 }] },
  ];
  for (const capability of refused) {
    assert.ok(issuesOf(capability) > 0, `validate takes ${JSON.stringify(capability)}`);
    assert.equal(accepts('capability', capability), false, JSON.stringify(capability));
  }
  for (const [name, capability] of Object.entries(UNSAID)) {
    assert.ok(issuesOf(capability) > 0, name);
    assert.equal(accepts('capability', capability), true, `${name} is refused by the schema now: take it off the list in author-gates.md`);
  }
  for (const capability of [
    { id: 'x' },
    { id: 3, gates: [] },
    { gates: [good] },
    { gates: [gateWith({ check: { agentVerdict: { prompt: 'p' } }, blocking: false, when: 'k' })] },
  ]) {
    assert.equal(issuesOf(capability), 0, JSON.stringify(capability));
    assert.equal(accepts('capability', capability), true, JSON.stringify(capability));
  }
});

test('every predicate validatePredicate refuses is refused by the predicate schema', () => {
  const command = (fields: Record<string, unknown>) => ({ kind: 'command-exit-zero', command: 'true', ...fields });
  const refused: unknown[] = [
    null,
    [],
    'x',
    3,
    true,
    { command: 'true' },
    { kind: 7 },
    { kind: '' },
    { kind: 'command-exit-0' },
    JSON.parse('{"kind":"__proto__","command":"true"}'),
    command({ timeOut: 5, cmd: 'x' }),
    JSON.parse('{"kind":"command-exit-zero","command":"true","__proto__":{"timeout":1}}'),
    { kind: 'command-exit-zero' },
    ...[42, null, '', ' \t\n', 'true\0; rm -rf x', 'x'.repeat(4097)].map((c) => command({ command: c })),
    ...['1e999', '-1e999', '0', '-0', '-1', '"5"', 'null', 'true', '[]'].map((t) => JSON.parse(`{"kind":"command-exit-zero","command":"true","timeout":${t}}`)),
    { kind: 'artifact-frontmatter-equals', artifact: 'S.md', field: 'f' },
    ...['', ' ', '.', '..', 'a/b', 'a\\b', 'a\0b', 3].map((name) => ({ ...artifact, artifact: name })),
    { ...artifact, field: '  ' },
  ];
  for (const predicate of refused) {
    assert.equal(validatePredicate(predicate, KINDS).ok, false, JSON.stringify(predicate));
    assert.equal(accepts('predicate', predicate), false, JSON.stringify(predicate));
  }
  for (const predicate of [
    command({}),
    command({ timeout: 1e-320 }),
    command({ command: 'x'.repeat(4096) }),
    { ...artifact, equals: null },
    { ...artifact, equals: nest(MAX_DEPTH) },
  ]) {
    assert.ok(validatePredicate(predicate, KINDS).ok, JSON.stringify(predicate));
    assert.equal(accepts('predicate', predicate), true, JSON.stringify(predicate));
  }
});

test('render-hooks output: what gates run --hooks refuses, the schema refuses; steps and contributions pass', () => {
  const entry = (fields: Record<string, unknown>) => ({ capId: 'c', kind: 'gate', check: { query: 'q' }, blocking: true, onError: 'halt', ...fields });
  const read = (hooks: unknown): boolean => {
    const result = gatesFromHooks(hooks, 'ship:pre', 'h', KINDS);
    return result.ok && result.value.every((gate) => gate.declaration.issues.length === 0);
  };
  const valid = {
    point: 'ship:pre',
    activeHooks: [{ capId: 'd', kind: 'step', ref: { skill: 's' } }, { capId: 'd', kind: 'contribution' }, entry({ when: 'w' }), 'stray', null],
    rendered: '…',
  };
  assert.ok(read(valid));
  assert.ok(accepts('render-hooks', valid));
  for (const hooks of [
    [],
    { point: 'ship:pre' },
    { point: 'ship:pre', activeHooks: {} },
    { point: 'ship:pre', activeHooks: [entry({ capId: '' })] },
    { point: 'ship:pre', activeHooks: [entry({ capId: 3 })] },
    { point: 'ship:pre', activeHooks: [entry({ onError: 'never' })] },
    { point: 'ship:pre', activeHooks: [entry({ check: { agentVerdict: 'v' } })] },
    { point: 'ship:pre', activeHooks: [entry({ extra: 1 })] },
  ]) {
    assert.equal(read(hooks), false, JSON.stringify(hooks));
    assert.equal(accepts('render-hooks', hooks), false, JSON.stringify(hooks));
  }
});
