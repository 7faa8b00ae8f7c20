import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parseCommandLine } from '../../src/cli/command-line.ts';
import { options, P, usage } from '../helpers/command-line.ts';

test('--pick must name a field of the envelope', () => {
  assert.deepEqual(options(['check', 'predicate', '--predicate', P, '--pick', 'block'])?.pick, { text: 'block', steps: ['block'] });
  for (const path of ['blocks', 'constructor', 'gates[0]']) {
    assert.match(usage(['check', 'predicate', '--predicate', P, `--pick=${path}`]), /is not a field of the envelope/, path);
  }
  for (const path of ['', 'details.', '.block', 'details..kind', '[-1]', 'details.gates[]', 'details.gates[x]', 'details.gates[0][1]', 'details.gates[0]x']) {
    assert.match(usage(['check', 'predicate', '--predicate', P, `--pick=${path}`]), /is not a path: fields joined by dots, a list item in brackets/, path);
  }
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--pick', 'blok']), '--pick blok is not a field of the envelope; did you mean block?');
  assert.equal(
    usage(['check', 'predicate', '--predicate', P, '--pick', 'detail.exitCode']),
    '--pick detail.exitCode is not a field of the envelope; did you mean details.exitCode?',
  );
  assert.equal(
    usage(['check', 'predicate', '--predicate', P, '--pick', 'constructor']),
    '--pick constructor is not a field of the envelope; it starts with block, message or details',
  );
});

test('--pick takes a list item in brackets after a field, negative from the end', () => {
  assert.deepEqual(options(['check', 'predicate', '--predicate', P, '--pick', 'details.gates[0].status'])?.pick, {
    text: 'details.gates[0].status',
    steps: ['details', 'gates', 0, 'status'],
  });
  assert.deepEqual(options(['check', 'predicate', '--predicate', P, '--pick', 'details.gates[-1]'])?.pick?.steps, ['details', 'gates', -1]);
  assert.deepEqual(options(['check', 'predicate', '--predicate', P, '--pick', 'details.gates[10]'])?.pick?.steps, ['details', 'gates', 10]);
  assert.deepEqual(options(['check', 'predicate', '--predicate', P, '--pick', 'details.gates[-012]'])?.pick?.steps, ['details', 'gates', -12]);
  assert.deepEqual(options(['check', 'predicate', '--predicate', P, '--pick', 'details.gates.2'])?.pick?.steps, ['details', 'gates', '2']);
});

test('--kill-after is a finite number of seconds, 0 or more', () => {
  assert.equal(options(['check', 'predicate', '--predicate', P, '--kill-after', '0'])?.killAfter, 0);
  assert.equal(options(['check', 'predicate', '--predicate', P, '--kill-after', '.25'])?.killAfter, 0.25);
  assert.equal(options(['check', 'predicate', '--predicate', P, '--kill-after', '1e1'])?.killAfter, 10);
  for (const bad of ['', 'abc', '1e999', '0x10', ' 1', 'Infinity', 'NaN', '1s']) {
    assert.match(usage(['check', 'predicate', '--predicate', P, `--kill-after=${bad}`]), /^--kill-after must be a finite number of seconds/, bad);
  }
  assert.match(usage(['check', 'predicate', '--predicate', P, '--kill-after=-1']), /^--kill-after must be/);
});

test('a phase number must be one, and requirement ids ids: nothing bash could evaluate', () => {
  const message = (flag: string, value: string) => {
    const result = parseCommandLine(['check', 'predicate', '--predicate', '{}', `--${flag}=${value}`]);
    return result.ok ? 'accepted' : result.failure.message;
  };
  for (const value of ['04', '4', '4.1', '12A', '12a.1', '1-2', '1-2-3', 'CK-01', 'PROJ-42', 'AUTH-101', '']) {
    assert.equal(message('phase-number', value), 'accepted', value);
  }
  // An empty one is none, as an empty --phase-dir is.
  assert.equal('phaseNumber' in options(['check', 'predicate', '--predicate', P, '--phase-number='])!, false);
  for (const value of ['a[$(id>PWNED)0]', '$(id)', '`id`', '04;id', '4 1', '-4', '4.', '4..1', 'é', "4'"]) {
    assert.equal(
      message('phase-number', value),
      `--phase-number ${JSON.stringify(value)} is not a phase number; GSD names phases like 04, 4.1, 12A, 1-2, CK-01 or PROJ-42 (see gsd-check --help)`,
      value,
    );
  }
});

test('--phase-req-ids is any one line of text the roadmap holds, up to 4096 characters', () => {
  const message = (value: string) => {
    const result = parseCommandLine(['check', 'predicate', '--predicate', '{}', `--phase-req-ids=${value}`]);
    return result.ok ? 'accepted' : result.failure.message;
  };
  for (const value of [
    'REQ-07,REQ-08',
    'REQ-01 REQ-02',
    '[REQ-01, REQ-02]',
    'TBD',
    '',
    'REQ-01 (partial), AUTH/01',
    'n/a',
    '$(id)',
    "it's `x`; é",
    'x'.repeat(4096),
  ]) {
    assert.equal(message(value), 'accepted', value.slice(0, 20));
  }
  for (const value of ['R\nS', 'R\tS', 'R\x7fS', 'R\x85S', 'R\rS']) {
    assert.equal(
      message(value),
      `--phase-req-ids ${JSON.stringify(value)} holds a control character; requirement ids are one line of text (see gsd-check --help)`,
      value,
    );
  }
  assert.equal(message('x'.repeat(4097)), '--phase-req-ids is 4097 characters long; at most 4096 (see gsd-check --help)');
});

test('--kill-after is 3 seconds unless given, as the help and docs/reference/cli.md say', () => {
  assert.equal(options(['check', 'predicate', '--predicate', P])?.killAfter, 3);
});

test('--current-phase: the phase number from .planning/STATE.md, never beside --phase-number', () => {
  assert.equal(options(['check', 'predicate', '--predicate', P, '--current-phase'])?.currentPhase, true);
  assert.equal(
    usage(['check', 'predicate', '--predicate', P, '--current-phase', '--phase-number', '04']),
    '--current-phase and --phase-number cannot be used together: --current-phase reads the phase number from .planning/STATE.md',
  );
});

test("GSD's global flags: --project-dir, --ws, --exit-contract (or GSD_EXIT_CONTRACT)", () => {
  const o = options(['check', 'predicate', '--predicate', P, '--project-dir', 'p', '--ws', 'alpha', '--exit-contract=v2']);
  assert.deepEqual([o?.projectDir, o?.ws], ['p', 'alpha']);
  assert.match(usage(['check', 'predicate', '--predicate', P, '--project-dir=']), /^--project-dir needs a directory/);
  const contract = (argv: string[], variable?: string) => {
    const result = parseCommandLine(['check', 'predicate', '--predicate', P, ...argv], { jsonErrors: false, exitContract: variable });
    return result.ok ? 'accepted' : result.failure.message;
  };
  for (const [argv, variable] of [
    [[], undefined],
    [['--exit-contract=v1'], undefined],
    [['--exit-contract', 'v2'], 'v3'],
    [[], 'v2'],
    [[], ''],
  ] as const) {
    assert.equal(contract([...argv], variable), 'accepted', `${argv.join(' ')} ${variable}`);
  }
  assert.equal(contract(['--exit-contract=v3']), '--exit-contract "v3" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract(['--exit-contract='], 'v2'), '--exit-contract "" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract([], 'V2'), 'GSD_EXIT_CONTRACT "V2" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(parseCommandLine(['validate', 'a.json'], { jsonErrors: false, exitContract: 'garbage' }).ok, false);
  assert.equal(parseCommandLine(['validate', 'a.json', '--exit-contract=v2']).ok, true);
  assert.match(usage(['validate', 'a.json', '--ws', 'x']), /--ws is not a flag of "validate"/);
});
