import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateCapability } from '../../src/gates/validate-capability.ts';
import { KINDS } from '../../src/kinds/table.ts';

const lines = (capability: unknown): string[] => validateCapability(capability, KINDS).map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`));
const good = { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' };
const one = (gate: unknown, extra: Record<string, unknown> = {}) => lines({ id: 'cap', ...extra, gates: [gate] });

test('a valid gate, and a capability without gates, have no issues', () => {
  assert.deepEqual(one(good), []);
  assert.deepEqual(lines({ id: 'x' }), []);
  assert.deepEqual(lines({ id: 'x', gates: [] }), []);
});

test('the capability and its gates list must have the right shape', () => {
  assert.deepEqual(lines([]), ['must be a JSON object, got []']);
  assert.deepEqual(lines({ gates: {} }), ['gates: must be an array, got an object']);
  assert.deepEqual(lines({ gates: [null, 3, 'x'] }), [
    'gates[0]: must be an object, got null',
    'gates[1]: must be an object, got 3',
    'gates[2]: must be an object, got "x"',
  ]);
});

test('every rule of a gate, one table', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ point: undefined }, ['gates[0].point: is required (a loop point)']],
    [{ point: 'ship:pres' }, ['gates[0].point: must be a loop point, got "ship:pres"; did you mean "ship:pre"?']],
    [{ point: 3 }, [`gates[0].point: must be a loop point, got 3 (one of: discuss:pre, discuss:post, plan:pre, plan:post, execute:pre, execute:wave:pre, execute:wave:post, execute:post, verify:pre, verify:post, ship:pre, ship:post)`]],
    [{ check: undefined }, ['gates[0].check: is required']],
    [{ check: 'npm test' }, ['gates[0].check: must be an object, got "npm test"']],
    [{ check: {} }, ['gates[0].check: must have exactly one of query, predicate, agentVerdict']],
    [{ check: { query: 'q', predicate: good.check.predicate } }, ['gates[0].check: must have exactly one of query, predicate, agentVerdict, has query and predicate']],
    [{ check: { query: '' } }, ['gates[0].check.query: must be a non-empty string, got ""']],
    [{ check: { query: 'q', querry: 'x' } }, ['gates[0].check.querry: unknown field; did you mean "query"?']],
    [{ check: { agentVerdict: null }, blocking: false }, ['gates[0].check.agentVerdict: must not be null']],
    [{ check: { agentVerdict: { prompt: 'p' } } }, ['gates[0].blocking: must not be true for an agentVerdict gate: an agent verdict is advisory']],
    [{ check: { predicate: { kind: 'command-exit-zero', command: 'true', timeOut: 5 } } }, ['gates[0].check.predicate.timeOut: unknown field; did you mean "timeout"?']],
    [
      { check: { predicate: { kind: 'command-exit-zero', command: "test -f '${PHASE_DIR}/PLAN.md' && test -f '${PHASE_DIR}/x'" } } },
      ['gates[0].check.predicate.command: ${PHASE_DIR} inside single quotes stays literal: phase values reach the command as environment variables; use double quotes ("${PHASE_DIR}")'],
    ],
    [{ check: { predicate: { kind: 'command-exit-zero', command: 'true', timeout: 0 } } }, ['gates[0].check.predicate.timeout: must be a positive finite number of seconds, got 0']],
    [{ check: { predicate: { kind: 'constructor' } } }, ['gates[0].check.predicate.kind: unknown predicate kind "constructor"; known kinds: command-exit-zero, artifact-frontmatter-equals']],
    [{ check: { predicate: [] } }, ['gates[0].check.predicate: must be a JSON object, got []']],
    [{ when: '' }, ['gates[0].when: must be a non-empty string, got ""']],
    [{ when: 5 }, ['gates[0].when: must be a non-empty string, got 5']],
    [{ blocking: undefined }, ['gates[0].blocking: is required (true or false)']],
    [{ blocking: 'yes' }, ['gates[0].blocking: must be true or false, got "yes"']],
    [{ onError: undefined }, ['gates[0].onError: is required ("halt" or "skip")']],
    [{ onError: 'ignore' }, ['gates[0].onError: must be "halt" or "skip", got "ignore"']],
    [{ id: 'g1' }, ['gates[0].id: unknown field (known fields: point, check, when, blocking, onError)']],
    [{ blockng: true }, ['gates[0].blockng: unknown field; did you mean "blocking"?']],
  ];
  for (const [change, expected] of cases) {
    const gate: Record<string, unknown> = { ...good, ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete gate[key];
    assert.deepEqual(one(gate), expected, JSON.stringify(change));
  }
});

test('when must name a key of the capability config, where it declares one', () => {
  const config = { 'workflow.security_enforcement': { type: 'boolean', default: true } };
  assert.deepEqual(one({ ...good, when: 'workflow.security_enforcement' }, { config }), []);
  assert.deepEqual(one({ ...good, when: 'workflow.security_enforcment' }, { config }), [
    'gates[0].when: "workflow.security_enforcment" is not a key of the capability\'s config; did you mean "workflow.security_enforcement"?',
  ]);
  assert.deepEqual(one({ ...good, when: 'other' }, { config }), [
    'gates[0].when: "other" is not a key of the capability\'s config (keys: workflow.security_enforcement)',
  ]);
  assert.deepEqual(one({ ...good, when: 'anything' }), [], 'no config declared: any key');
  assert.deepEqual(one({ ...good, when: 'constructor' }, { config: {} }), [
    'gates[0].when: "constructor" is not a key of the capability\'s config (keys: none)',
  ]);
});

test('several issues in one file are all reported, in order', () => {
  assert.deepEqual(
    lines({
      gates: [
        good,
        null,
        { point: 'ship', check: { predicate: { kind: 'command-exit-zero', command: '', timeOut: 1 } }, blocking: 'no' },
      ],
    }),
    [
      'gates[1]: must be an object, got null',
      'gates[2].point: must be a loop point, got "ship" (one of: discuss:pre, discuss:post, plan:pre, plan:post, execute:pre, execute:wave:pre, execute:wave:post, execute:post, verify:pre, verify:post, ship:pre, ship:post)',
      'gates[2].check.predicate.timeOut: unknown field; did you mean "timeout"?',
      'gates[2].check.predicate.command: must not be empty',
      'gates[2].blocking: must be true or false, got "no"',
      'gates[2].onError: is required ("halt" or "skip")',
    ],
  );
});
