import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { flatKeys, resolveWhen, type KeyDeclaration, ConfigKeys } from '../../src/gates/activation.ts';

const declared = new Map<string, KeyDeclaration>([
  ['workflow.security_enforcement', { type: 'boolean', default: true }],
  ['workflow.windows_enforce', { type: 'boolean', default: false }],
  ['workflow.level', { type: 'number', default: 0 }],
  ['workflow.mode', { type: 'enum', default: 'off' }],
  ['workflow.owner', { type: 'string', default: '' }],
  ['workflow.extra', { type: 'list', default: null }],
]);
const resolve = (when: string, root?: Record<string, unknown>, workstream?: Record<string, unknown>) => resolveWhen(when, { root, workstream }, declared);

test('nested values, typed as declared, decide', () => {
  assert.deepEqual(resolve('workflow.security_enforcement', { workflow: { security_enforcement: false } }), {
    active: false,
    activation: { key: 'workflow.security_enforcement', value: false, source: 'config' },
  });
  assert.equal(resolve('workflow.windows_enforce', { workflow: { windows_enforce: true } }).active, true);
  assert.equal(resolve('workflow.level', { workflow: { level: 2 } }).active, true);
  assert.equal(resolve('workflow.mode', { workflow: { mode: 'strict' } }).active, true);
  // A string key whose default is empty: the configured text decides.
  assert.deepEqual(resolve('workflow.owner', { workflow: { owner: 'sec-team' } }).activation, { key: 'workflow.owner', value: 'sec-team', source: 'config' });
  assert.equal(resolve('workflow.owner', { workflow: { owner: 7 } }).active, false);
  // A type gsd-check does not know takes the configured value as it is.
  assert.deepEqual(resolve('workflow.extra', { workflow: { extra: ['a'] } }), {
    active: true,
    activation: { key: 'workflow.extra', value: ['a'], source: 'config' },
  });
});

test('a value of the wrong type reads as the declared default, with a warning (GSD: 0, null, "false", "no")', () => {
  for (const value of [0, null, 'false', [], 'no']) {
    const on = resolve('workflow.security_enforcement', { workflow: { security_enforcement: value } });
    assert.deepEqual([on.active, on.activation.source, on.activation.value], [true, 'default', true], JSON.stringify(value));
    assert.equal(on.warning, `workflow.security_enforcement is ${JSON.stringify(value)} in the project's config, not a boolean: its default true is used`);
    const off = resolve('workflow.windows_enforce', { workflow: { windows_enforce: value } });
    assert.equal(off.active, false, JSON.stringify(value));
  }
  assert.equal(resolve('workflow.level', { workflow: { level: '2' } }).active, false);
  // An enum's values are strings: a number there is set aside too.
  assert.deepEqual(resolve('workflow.mode', { workflow: { mode: 3 } }), {
    active: true,
    activation: { key: 'workflow.mode', value: 'off', source: 'default' },
    warning: `workflow.mode is 3 in the project's config, not an enum: its default "off" is used`,
  });
});

test('the warning about a wrongly typed value stays short, however deep or long the value', () => {
  let deep: unknown = 0;
  for (let i = 0; i < 50_000; i++) deep = [deep];
  for (const [value, shown] of [
    [deep, 'an array of 1'],
    ['x'.repeat(100_000), `"${'x'.repeat(40)}"...`],
  ] as const) {
    const on = resolve('workflow.security_enforcement', { workflow: { security_enforcement: value } });
    assert.equal(on.warning, `workflow.security_enforcement is ${shown} in the project's config, not a boolean: its default true is used`);
  }
});

test('the workstream config comes first; the project config fills in', () => {
  const root = { workflow: { windows_enforce: true, security_enforcement: true } };
  const workstream = { workflow: { security_enforcement: false } };
  assert.deepEqual(resolve('workflow.security_enforcement', root, workstream).activation, {
    key: 'workflow.security_enforcement',
    value: false,
    source: 'workstream',
  });
  assert.deepEqual(resolve('workflow.windows_enforce', root, workstream).activation.source, 'config');
});

test('unset: the default any capability declared; undeclared: absent and inactive', () => {
  assert.deepEqual(resolve('workflow.security_enforcement', {}), {
    active: true,
    activation: { key: 'workflow.security_enforcement', value: true, source: 'default' },
  });
  assert.deepEqual(resolve('workflow.nowhere', {}), { active: false, activation: { key: 'workflow.nowhere', value: null, source: 'absent' } });
  // An undeclared key that is set decides by truthiness.
  assert.equal(resolve('workflow.undeclared', { workflow: { undeclared: 'yes' } }).active, true);
  assert.equal(resolve('workflow.undeclared', { workflow: { undeclared: 0 } }).active, false);
});

test('flat dotted keys are not read, and are listed for a warning', () => {
  const config = { 'workflow.security_enforcement': false, workflow: {}, plain: 1 };
  assert.equal(resolve('workflow.security_enforcement', config).active, true);
  assert.deepEqual(flatKeys(config), ['workflow.security_enforcement']);
  assert.deepEqual(flatKeys(undefined), []);
});

test('inherited names find nothing', () => {
  for (const when of ['constructor', 'toString', '__proto__', 'workflow.constructor']) {
    assert.equal(resolve(when, { workflow: {} }).active, false, when);
  }
});

test('a miss names the closest key, or a few keys and a count', () => {
  const keys = new ConfigKeys(['workflow.tdd', 'workflow.security']);
  assert.equal(keys.has('workflow.tdd'), true);
  assert.equal(keys.has('constructor'), false);
  assert.equal(keys.miss('workflow.td'), '"workflow.td" is not a key of the capability\'s config; did you mean "workflow.tdd"?');
  assert.equal(keys.miss('other'), '"other" is not a key of the capability\'s config (keys: workflow.tdd, workflow.security)');
});

test('past its comparison budget, a huge config names a few keys: bounded time and text', () => {
  const keys = new ConfigKeys(Array.from({ length: 30_000 }, (_, i) => `k${i}`));
  const started = Date.now();
  const messages = Array.from({ length: 3000 }, (_, i) => keys.miss(`x${i}`));
  assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
  assert.ok(messages.every((m) => m.endsWith('(keys: k0, k1, k2, k3, k4 and 29995 more)')));
  // A long `when` is cut, not repeated whole.
  assert.ok(keys.miss('w'.repeat(100_000)).length < 200);
});

test('the budget is 20,000 key comparisons per capability: each hinted miss spends the number of keys', () => {
  const keys = (n: number) => new ConfigKeys(Array.from({ length: n }, (_, i) => `k${i}`));
  const hinted = (message: string) => message.includes('did you mean');
  const ten = keys(10_000);
  assert.deepEqual(
    ['k12x', 'k13x', 'k14x'].map((when) => hinted(ten.miss(when))),
    [true, true, false],
  );
  // The same miss again is told the same, at no cost.
  assert.equal(ten.miss('k12x'), '"k12x" is not a key of the capability\'s config; did you mean "k12"?');
  assert.equal(hinted(keys(20_000).miss('k12x')), true);
  assert.equal(keys(20_001).miss('k12x'), '"k12x" is not a key of the capability\'s config (keys: k0, k1, k2, k3, k4 and 19996 more)');
});
