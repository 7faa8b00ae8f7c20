import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parseCapability, checkLabel } from '../../src/gates/declaration.ts';
import { KINDS } from '../../src/kinds/table.ts';

const lines = (capability: unknown): string[] => {
  const parsed = parseCapability(capability, KINDS);
  return (parsed.ok ? parsed.value.issues : parsed.failure.issues).map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`));
};
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
    [
      { point: 3 },
      [
        `gates[0].point: must be a loop point, got 3 (one of: discuss:pre, discuss:post, plan:pre, plan:post, execute:pre, execute:wave:pre, execute:wave:post, execute:post, verify:pre, verify:post, ship:pre, ship:post)`,
      ],
    ],
    [{ check: undefined }, ['gates[0].check: is required']],
    [{ check: 'npm test' }, ['gates[0].check: must be an object, got "npm test"']],
    [{ check: {} }, ['gates[0].check: must have exactly one of query, predicate, agentVerdict']],
    [
      { check: { query: 'q', predicate: good.check.predicate } },
      ['gates[0].check: must have exactly one of query, predicate, agentVerdict, has query and predicate'],
    ],
    [{ check: { query: '' } }, ['gates[0].check.query: must be a non-empty string, got ""']],
    [{ check: { query: 'q', querry: 'x' } }, ['gates[0].check.querry: unknown field; did you mean "query"?']],
    [{ check: { agentVerdict: null }, blocking: false }, ['gates[0].check.agentVerdict: must not be null']],
    [{ check: { agentVerdict: { prompt: 'p' } } }, ['gates[0].blocking: must not be true for an agentVerdict gate: an agent verdict is advisory']],
    [
      { check: { predicate: { kind: 'command-exit-zero', command: 'true', timeOut: 5 } } },
      ['gates[0].check.predicate.timeOut: unknown field; did you mean "timeout"?'],
    ],
    [
      { check: { predicate: { kind: 'command-exit-zero', command: "test -f '${PHASE_DIR}/PLAN.md' && test -f '${PHASE_DIR}/x'" } } },
      [
        'gates[0].check.predicate.command: ${PHASE_DIR} inside single quotes stays literal: phase values reach the command as environment variables; use double quotes ("${PHASE_DIR}")',
      ],
    ],
    [
      { check: { predicate: { kind: 'command-exit-zero', command: 'true', timeout: 0 } } },
      ['gates[0].check.predicate.timeout: must be a positive finite number of seconds, got 0'],
    ],
    [
      { check: { predicate: { kind: 'constructor' } } },
      ['gates[0].check.predicate.kind: unknown predicate kind "constructor"; known kinds: command-exit-zero, artifact-frontmatter-equals'],
    ],
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

test("the issues GSD refuses the whole capability for: its validateGate's and its contract's, not gsd-check's own", () => {
  const refused = (gate: unknown, config?: Record<string, unknown>) => {
    const parsed = parseCapability({ config, gates: [gate] }, KINDS);
    assert.ok(parsed.ok);
    const [declaration] = parsed.value.gates;
    return declaration!.issues.map((i) => `${declaration!.refusals.includes(i) ? 'refused ' : ''}${i.path}: ${i.message}`);
  };
  assert.deepEqual(refused(good), []);
  assert.deepEqual(refused(null), ['refused gates[0]: must be an object, got null']);
  assert.deepEqual(
    refused({ ...good, point: 'ship', extra: 1 }).map((l) => l.slice(0, 32)),
    ['gates[0].extra: unknown field (k', 'refused gates[0].point: must be '],
  );
  assert.deepEqual(refused({ ...good, check: [] }), ['refused gates[0].check: must be an object, got []']);
  assert.deepEqual(
    refused({ ...good, check: { query: 'q', predicate: {} } })[0],
    'refused gates[0].check: must have exactly one of query, predicate, agentVerdict, has query and predicate',
  );
  // A blank query, an unknown field of the check, a predicate gsd-check refuses: GSD loads the gate.
  assert.deepEqual(refused({ ...good, check: { query: ' ', querry: 1 } }), [
    'gates[0].check.querry: unknown field; did you mean "query"?',
    'gates[0].check.query: must be a non-empty string, got " "',
  ]);
  assert.deepEqual(
    refused({ ...good, check: { predicate: { kind: 'nope' } } }).map((l) => l.startsWith('refused')),
    [false],
  );
  assert.deepEqual(refused({ ...good, check: { agentVerdict: null }, blocking: false }), ['gates[0].check.agentVerdict: must not be null']);
  assert.deepEqual(refused({ ...good, check: { agentVerdict: {} } }), [
    'refused gates[0].blocking: must not be true for an agentVerdict gate: an agent verdict is advisory',
  ]);
  assert.deepEqual(refused({ point: good.point, check: good.check, blocking: 'yes' }), [
    'refused gates[0].blocking: must be true or false, got "yes"',
    'refused gates[0].onError: is required ("halt" or "skip")',
  ]);
  // when: a string, and where there is a config one of its keys (a blank one too).
  assert.deepEqual(refused({ ...good, when: null }), ['refused gates[0].when: must be a non-empty string, got null']);
  assert.deepEqual(refused({ ...good, when: '' }), ['gates[0].when: must be a non-empty string, got ""']);
  assert.deepEqual(refused({ ...good, when: '' }, {}), ['refused gates[0].when: must be a non-empty string, got ""']);
  assert.deepEqual(refused({ ...good, when: ' ' }, { ' ': {} }), ['gates[0].when: must be a non-empty string, got " "']);
  assert.deepEqual(refused({ ...good, when: 'k2' }, { k: {} }), ['refused gates[0].when: "k2" is not a key of the capability\'s config; did you mean "k"?']);
});

test('several issues in one file are all reported, in order', () => {
  assert.deepEqual(
    lines({
      gates: [good, null, { point: 'ship', check: { predicate: { kind: 'command-exit-zero', command: '', timeOut: 1 } }, blocking: 'no' }],
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

test('issues come in the order a reader fixes them: unknown fields, point, check, when, blocking, onError', () => {
  assert.deepEqual(
    lines({
      config: { k: {} },
      gates: [{ onError: 'x', blocking: 'y', when: 'kk', check: { agentVerdict: null, querry: 1 }, point: 'ship', checks: 1 }],
    }),
    [
      'gates[0].checks: unknown field; did you mean "check"?',
      'gates[0].point: must be a loop point, got "ship" (one of: discuss:pre, discuss:post, plan:pre, plan:post, execute:pre, execute:wave:pre, execute:wave:post, execute:post, verify:pre, verify:post, ship:pre, ship:post)',
      'gates[0].check.querry: unknown field; did you mean "query"?',
      'gates[0].check.agentVerdict: must not be null',
      'gates[0].when: "kk" is not a key of the capability\'s config; did you mean "k"?',
      'gates[0].blocking: must be true or false, got "y"',
      'gates[0].onError: must be "halt" or "skip", got "x"',
    ],
  );
});

test('the declaration: id, declared config keys, and per gate its point and what runs', () => {
  const parsed = parseCapability(
    {
      id: 'sec',
      config: { 'w.on': { type: 'boolean', default: true }, 'w.any': { default: 1 }, 'w.bare': true },
      gates: [
        good,
        { ...good, point: 'nowhere', checks: 1, when: 'w.bare', check: { query: 'ui.gate' }, blocking: false, onError: 'skip' },
        { ...good, check: { agentVerdict: { prompt: 'p' } }, blocking: false },
        { ...good, check: { predicate: { kind: 'nope' } } },
        { ...good, onError: 'never' },
        7,
      ],
    },
    KINDS,
  );
  assert.ok(parsed.ok);
  const { id, keys, gates } = parsed.value;
  assert.equal(id, 'sec');
  assert.deepEqual(
    [...keys],
    [
      ['w.on', { type: 'boolean', default: true }],
      ['w.any', { type: undefined, default: 1 }],
    ],
  );
  assert.deepEqual(
    gates.map((g) => g.point),
    ['ship:pre', undefined, 'ship:pre', 'ship:pre', 'ship:pre', undefined],
  );
  const [predicate, query, agent, unknownKind, broken, notAnObject] = gates.map((g) => g.gate);
  assert.ok(predicate?.ok && predicate.value.check.shape === 'predicate' && predicate.value.check.predicate.ok);
  assert.deepEqual(
    [predicate.value.blocking, predicate.value.onError, predicate.value.check.predicate.value.predicate],
    [true, 'halt', { kind: 'command-exit-zero', command: 'true', timeout: 30 }],
  );
  // An unknown field and a point nowhere are issues, but the gate can still run.
  assert.deepEqual(query, { ok: true, value: { check: { shape: 'query', query: 'ui.gate' }, blocking: false, onError: 'skip' } });
  assert.deepEqual(
    gates[1]?.issues.map((i) => i.path),
    ['gates[1].checks', 'gates[1].point'],
  );
  assert.deepEqual(agent, { ok: true, value: { check: { shape: 'agentVerdict' }, blocking: false, onError: 'halt' } });
  // An invalid predicate fails when the gate runs, through its onError.
  assert.ok(unknownKind?.ok && unknownKind.value.check.shape === 'predicate' && !unknownKind.value.check.predicate.ok);
  assert.equal(unknownKind.value.check.predicate.failure.reason, 'unknown-kind');
  const issue = { path: 'gates[4].onError', message: 'must be "halt" or "skip", got "never"' };
  assert.deepEqual(broken, { ok: false, failure: { reason: 'invalid-capability', message: `invalid gate: ${issue.path}: ${issue.message}`, issues: [issue] } });
  assert.deepEqual(notAnObject, {
    ok: false,
    failure: {
      reason: 'invalid-capability',
      message: 'invalid gate: gates[5]: must be an object, got 7',
      issues: [{ path: 'gates[5]', message: 'must be an object, got 7' }],
    },
  });
  assert.deepEqual(
    gates.map((g) => g.when.on),
    ['always', 'key', 'always', 'always', 'always', 'always'],
  );
  assert.deepEqual(gates[5]?.declared, {});
  assert.equal(gates[1]?.declared.checks, 1);
});

test('a gate whose check, blocking or onError is broken says why, in the words validate uses', () => {
  const broken = (change: Record<string, unknown>) => {
    const gate: Record<string, unknown> = { ...good, ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete gate[key];
    const parsed = parseCapability({ gates: [gate] }, KINDS);
    assert.ok(parsed.ok);
    const declaration = parsed.value.gates[0]!;
    return declaration.gate.ok ? 'runs' : declaration.gate.failure.issues.map((i) => `${i.path}: ${i.message}`);
  };
  assert.deepEqual(broken({ check: undefined }), ['gates[0].check: is required']);
  assert.deepEqual(broken({ check: 'npm test' }), ['gates[0].check: must be an object, got "npm test"']);
  assert.deepEqual(broken({ check: {} }), ['gates[0].check: must have exactly one of query, predicate, agentVerdict']);
  assert.deepEqual(broken({ check: { query: ' ' } }), ['gates[0].check.query: must be a non-empty string, got " "']);
  assert.deepEqual(broken({ blocking: undefined, onError: 1 }), [
    'gates[0].blocking: is required (true or false)',
    'gates[0].onError: must be "halt" or "skip", got 1',
  ]);
  // Slips elsewhere leave it runnable.
  assert.equal(broken({ point: 'x', when: '', extra: 1, check: { predicate: { kind: 'command-exit-zero', command: '' } } }), 'runs');
  const undeclared = parseCapability({ config: { k: {} }, gates: [{ ...good, when: 'other' }] }, KINDS);
  assert.deepEqual(undeclared.ok && [undeclared.value.gates[0]!.gate.ok, undeclared.value.issues.length], [true, 1]);
});

test('an id that is not a non-blank string is no id; a capability without gates has none', () => {
  for (const id of [undefined, '', '  ', 3]) {
    const parsed = parseCapability({ id }, KINDS);
    assert.deepEqual(parsed.ok && [parsed.value.id, parsed.value.gates, parsed.value.keys.size], [undefined, [], 0], String(id));
  }
  const parsed = parseCapability({ gates: {} }, KINDS);
  assert.deepEqual(parsed.ok ? 'accepted' : parsed.failure, {
    reason: 'invalid-capability',
    message: 'the capability: gates must be an array',
    issues: [{ path: 'gates', message: 'must be an array, got an object' }],
  });
  const scalar = parseCapability('x', KINDS, 'cap.json');
  assert.deepEqual(scalar.ok ? 'accepted' : scalar.failure, {
    reason: 'invalid-capability',
    message: 'cap.json is not a JSON object',
    issues: [{ path: '', message: 'must be a JSON object, got "x"' }],
  });
});

test('a check in a word or two, whatever was declared', () => {
  const cases: [unknown, string][] = [
    [{ query: 'ui.plan-gate' }, 'query ui.plan-gate'],
    [{ predicate: { kind: 'command-exit-zero', command: 'x' } }, 'predicate command-exit-zero'],
    [{ predicate: { kind: 3 } }, 'predicate ?'],
    [{ predicate: null }, 'predicate ?'],
    [{ agentVerdict: null }, 'agentVerdict'],
    [{ query: 5, agentVerdict: {} }, 'agentVerdict'],
    [{}, 'check'],
    [null, 'check'],
    [undefined, 'check'],
    ['npm test', 'check'],
  ];
  for (const [check, label] of cases) assert.equal(checkLabel(check), label, JSON.stringify(check));
});

test("a gate's when, by GSD's rule: none or null always, a string key when it is on, anything else never; validate flags blank and null", () => {
  const when = (value: unknown) => {
    const parsed = parseCapability({ gates: [value === undefined ? good : { ...good, when: value }] }, KINDS);
    assert.ok(parsed.ok);
    return [parsed.value.gates[0]!.when, parsed.value.issues.map((i) => i.message)];
  };
  assert.deepEqual(when(undefined), [{ on: 'always' }, []]);
  assert.deepEqual(when(null), [{ on: 'always' }, ['must be a non-empty string, got null']]);
  assert.deepEqual(when('workflow.x'), [{ on: 'key', key: 'workflow.x' }, []]);
  assert.deepEqual(when(''), [{ on: 'never', shown: '' }, ['must be a non-empty string, got ""']]);
  // GSD looks a blank key up like any other; validate calls it a slip.
  assert.deepEqual(when(' \t'), [{ on: 'key', key: ' \t' }, ['must be a non-empty string, got " \\t"']]);
  assert.deepEqual(when(3), [{ on: 'never', shown: '3' }, ['must be a non-empty string, got 3']]);
});
