import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { defaultsFromEnv, parseCommandLine, wantsJsonErrors } from '../../src/cli/command-line.ts';
import { LOOP_POINTS } from '../../src/gates/activation.ts';

const P = '{"kind":"command-exit-zero","command":"true"}';

function options(argv: string[]) {
  const result = parseCommandLine(argv);
  assert.ok(result.ok, result.ok ? '' : result.failure.message);
  assert.equal(result.value.action, 'check-predicate');
  return result.value.action === 'check-predicate' ? result.value.options : undefined;
}

function usage(argv: string[]): string {
  const result = parseCommandLine(argv);
  assert.ok(!result.ok, `expected a usage error for ${JSON.stringify(argv)}`);
  assert.equal(result.failure.reason, 'usage');
  return result.failure.message.replace(/ \(see gsd-check --help\)$/, '');
}

test('both command spellings, every flag, in both forms', () => {
  const expected = {
    predicate: P,
    phaseDir: '.planning/phases/03-x',
    phaseNumber: '03',
    phaseReqIds: 'TBD',
    cwd: '/tmp',
    pick: { text: 'details.exitCode', steps: ['details', 'exitCode'] },
    currentPhase: false,
    killAfter: 0.5,
    raw: true,
    exitCode: true,
    jsonErrors: true,
  };
  const spaced = ['--predicate', P, '--phase-dir', '.planning/phases/03-x', '--phase-number', '03', '--phase-req-ids', 'TBD',
    '--cwd', '/tmp', '--pick', 'details.exitCode', '--kill-after', '0.5', '--raw', '--exit-code', '--json-errors'];
  assert.deepEqual(options(['check', 'predicate', ...spaced]), expected);
  const joined = [`--predicate=${P}`, '--phase-dir=.planning/phases/03-x', '--phase-number=03', '--phase-req-ids=TBD',
    '--cwd=/tmp', '--pick=details.exitCode', '--kill-after=0.5', '--raw', '--exit-code', '--json-errors'];
  assert.deepEqual(options(['check.predicate', ...joined]), expected);
});

test('flags may come before the command; defaults are off', () => {
  assert.deepEqual(options(['--raw', 'check', '--predicate', P, 'predicate']), {
    predicate: P,
    currentPhase: false,
    killAfter: 3,
    raw: true,
    exitCode: false,
    jsonErrors: false,
  });
});

test('values are kept as text: no number coercion, empty and odd values allowed with =', () => {
  const o = options(['check', 'predicate', '--predicate', P, '--phase-number=007', '--phase-req-ids=', '--phase-dir=--odd']);
  assert.equal(o?.phaseNumber, '007');
  assert.equal(o?.phaseReqIds, '');
  assert.equal(o?.phaseDir, '--odd');
  assert.equal(options(['check', 'predicate', '--predicate', P, '--phase-dir', '1e3'])?.phaseDir, '1e3');
  assert.equal(options(['check', 'predicate', '--predicate', P, '--phase-dir', 'a=b'])?.phaseDir, 'a=b');
});

test('"-" is a value (standard input), never a flag', () => {
  assert.equal(options(['check', 'predicate', '--predicate-file', '-'])?.predicateFile, '-');
});

test('a value flag followed by a flag is a missing value that points to the = form', () => {
  assert.equal(
    usage(['check', 'predicate', '--predicate', P, '--phase-dir', '--raw']),
    '--phase-dir needs a value, got the flag --raw; for a value that starts with "-", write --phase-dir=--raw',
  );
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--phase-number', '-1']).startsWith('--phase-number needs a value, got the flag -1'), true);
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--phase-dir']), '--phase-dir needs a value');
});

test('unknown flags, stray arguments and wrong commands are named', () => {
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--timeout', '3']), 'unknown flag --timeout');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--phase_dir=x']), 'unknown flag --phase_dir; did you mean --phase-dir?');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--Raw']), 'unknown flag --Raw; did you mean --raw?');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '-x']), 'unknown flag -x');
  assert.equal(usage(['check', 'predicate', '--predicate', P, 'extra']), 'unexpected argument "extra"');
  assert.equal(usage(['check.predicate', '--predicate', P, 'extra']), 'unexpected argument "extra"');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--', '--raw']), 'unexpected argument "--raw"');
  assert.equal(usage(['check', 'query', '--predicate', P]), 'unknown subcommand "check query"; try: check predicate');
  assert.equal(usage(['check']), 'missing subcommand after "check"; try: check predicate');
  assert.equal(usage(['run']), 'unknown command "run"; try: gsd-check check predicate, gates run, validate, schema or completion');
  assert.equal(usage(['gates']), 'missing subcommand after "gates"; try: gates run');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--point', 'ship:pre']), '--point is not a flag of "check predicate"');
  assert.equal(usage(['validate', 'a.json', '--raw']), '--raw is not a flag of "validate"');
  assert.equal(usage([]), 'missing command; try: gsd-check check predicate --predicate <json>');
});

test('no flag has a negated form: --no-<flag> is an unknown flag', () => {
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--exit-code', '--no-exit-code']), 'unknown flag --no-exit-code; did you mean --exit-code?');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--no-raw']), 'unknown flag --no-raw');
  assert.equal(usage(['--no-help']), 'unknown flag --no-help');
  assert.equal(usage(['validate', 'a.json', '-no-json']), 'unknown flag -no-json');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--no-cwd=x']), 'unknown flag --no-cwd');
  // After --, it is an operand like any other.
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--', '--no-raw']), 'unexpected argument "--no-raw"');
});

test('a boolean flag takes no word after it as its value: "false" stays a stray argument', () => {
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--exit-code', 'false']), 'unexpected argument "false"');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--raw', 'true']), 'unexpected argument "true"');
  assert.equal(usage(['-h=1']), '-h takes no value');
  assert.equal(usage(['-x=1']), 'unknown flag -x');
  assert.deepEqual(parseCommandLine(['-V', 'false']), { ok: true, value: { action: 'version' } });
  const files = parseCommandLine(['validate', '--json', 'false', 'a.json']);
  assert.deepEqual(files.ok && files.value.action === 'validate' && [files.value.options.json, files.value.options.files], [true, ['false', 'a.json']]);
});

test('the predicate comes from exactly one place', () => {
  assert.equal(usage(['check', 'predicate']), '--predicate or --predicate-file is required');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--predicate-file', 'p.json']), '--predicate and --predicate-file cannot be used together');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--predicate', P]), '--predicate is given more than once');
  assert.equal(usage(['check', 'predicate', '--predicate-file=']), '--predicate-file needs a path (or - for standard input)');
});

test('boolean flags take no value; repeating one is harmless', () => {
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--raw=false']), '--raw takes no value');
  assert.equal(options(['check', 'predicate', '--predicate', P, '--raw', '--raw'])?.raw, true);
});

test('--pick must name a field of the envelope', () => {
  assert.deepEqual(options(['check', 'predicate', '--predicate', P, '--pick', 'block'])?.pick, { text: 'block', steps: ['block'] });
  for (const path of ['blocks', 'constructor', 'gates[0]']) {
    assert.match(usage(['check', 'predicate', '--predicate', P, `--pick=${path}`]), /is not a field of the envelope/, path);
  }
  for (const path of ['', 'details.', '.block', 'details..kind', '[-1]', 'details.gates[]', 'details.gates[x]', 'details.gates[0][1]', 'details.gates[0]x']) {
    assert.match(usage(['check', 'predicate', '--predicate', P, `--pick=${path}`]), /is not a path: fields joined by dots, a list item in brackets/, path);
  }
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--pick', 'blok']), '--pick blok is not a field of the envelope; did you mean block?');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--pick', 'detail.exitCode']), '--pick detail.exitCode is not a field of the envelope; did you mean details.exitCode?');
  assert.equal(
    usage(['check', 'predicate', '--predicate', P, '--pick', 'constructor']),
    '--pick constructor is not a field of the envelope; it starts with block, message or details',
  );
});

test('every flag of gsd-check can be suggested: a prefix, a missing dash, a typo', () => {
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--phase', '04']), 'unknown flag --phase; did you mean --phase-dir, --phase-number or --phase-req-ids?');
  assert.equal(usage(['gates', 'run', '--query', 'x']), 'unknown flag --query; did you mean --query-command or --query-timeout?');
  assert.equal(usage(['check', 'predicate', '-predicate', P]), 'unknown flag -predicate; did you mean --predicate?');
  // The bounds of a hint: three letters already begin flags; a prefix of one
  // flag names it; a name that runs past a flag of three letters names that.
  const gates = ['gates', 'run', '--point', 'ship:pre', '--builtin'];
  assert.equal(usage([...gates, '--pha']), 'unknown flag --pha; did you mean --phase-dir, --phase-number or --phase-req-ids?');
  assert.equal(usage([...gates, '--ph']), 'unknown flag --ph');
  assert.equal(usage([...gates, '--query-c']), 'unknown flag --query-c; did you mean --query-command?');
  assert.equal(usage([...gates, '--cwd-directory', '.']), 'unknown flag --cwd-directory; did you mean --cwd?');
  assert.equal(usage([...gates, '-xyz']), 'unknown flag -xyz');
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

test('help and version win over everything else', () => {
  assert.deepEqual(parseCommandLine(['--help']), { ok: true, value: { action: 'help' } });
  assert.deepEqual(parseCommandLine(['check', 'predicate', '-h']), { ok: true, value: { action: 'help', command: 'check predicate' } });
  assert.deepEqual(parseCommandLine(['nonsense', '--help']), { ok: true, value: { action: 'help' } });
  assert.deepEqual(parseCommandLine(['-V']), { ok: true, value: { action: 'version' } });
  assert.deepEqual(parseCommandLine(['--version', 'nonsense']), { ok: true, value: { action: 'version' } });
});

test("GSD's help spellings, anywhere before --, even as a flag's value, are help; the line is not checked", () => {
  const help = (...argv: string[]) => parseCommandLine(argv);
  const checkHelp = { ok: true, value: { action: 'help', command: 'check predicate' } };
  for (const spelling of ['-h', '--help', '-?', '--h', '--usage']) {
    assert.deepEqual(help(spelling), { ok: true, value: { action: 'help' } }, spelling);
    assert.deepEqual(help('check', 'predicate', '--predicate', P, spelling), checkHelp, spelling);
  }
  assert.deepEqual(help('check', '-?', 'predicate'), checkHelp);
  assert.deepEqual(help('check', 'predicate', '--phase-number', '-h', '--raw'), checkHelp);
  assert.deepEqual(help('gates', 'run', '--point', '--h'), { ok: true, value: { action: 'help', command: 'gates run' } });
  assert.deepEqual(help('query', 'check.predicate', '--usage'), checkHelp);
  // Nothing else is checked: a flag of another command, a missing value, an
  // unknown flag (then the command is not looked for: the general help).
  assert.deepEqual(help('check', 'predicate', '--point', 'x', '--cwd', '-?'), checkHelp);
  assert.deepEqual(help('check', 'predicate', '--bogus', '-h'), { ok: true, value: { action: 'help' } });
  assert.deepEqual(help('--cwd', 'nowhere', '-h'), { ok: true, value: { action: 'help' } });
  // After -- every argument is a word; joined, a spelling is a value.
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--', '-h']), 'unexpected argument "-h"');
  assert.equal(options(['check', 'predicate', '--predicate', P, '--phase-dir=-h'])?.phaseDir, '-h');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '-?x']), 'unknown flag -?x');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--help=1']), '--help takes no value');
});

test("GSD's query prefix: before a command, the command", () => {
  assert.equal(options(['query', 'check.predicate', '--predicate', P])?.predicate, P);
  assert.equal(options(['query', 'check', 'predicate', '--predicate', P])?.predicate, P);
  assert.equal(options(['--raw', 'query', '--predicate', P, 'check', 'predicate'])?.raw, true);
  assert.equal(parseCommandLine(['query', 'gates', 'run', '--point', 'ship:pre', '--builtin']).ok, true);
  assert.equal(usage(['query', 'query', 'check', 'predicate', '--predicate', P]), 'unknown command "query"; try: gsd-check check predicate, gates run, validate, schema or completion');
  assert.equal(usage(['query']), 'missing command; try: gsd-check check predicate --predicate <json>');
  assert.equal(usage(['check', 'query', 'predicate']), 'unknown subcommand "check query"; try: check predicate');
});

test("the = values of GSD's --cwd, --project-dir and --ws are trimmed, as GSD trims them; spaced ones and the rest are not", () => {
  const o = options(['check', 'predicate', '--predicate', P, '--cwd= sub\r', '--project-dir=\tp ', '--ws= alpha '])!;
  assert.deepEqual([o.cwd, o.projectDir, o.ws], ['sub', 'p', 'alpha']);
  const spaced = options(['check', 'predicate', '--predicate', P, '--cwd', ' sub\r', '--project-dir', 'p ', '--phase-dir= d '])!;
  assert.deepEqual([spaced.cwd, spaced.projectDir, spaced.phaseDir], [' sub\r', 'p ', ' d ']);
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--cwd= \r\n']), '--cwd needs a directory');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--project-dir=  ']), '--project-dir needs a directory');
  // GSD does not trim --exit-contract=, and refuses " v2" as gsd-check does.
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--exit-contract= v2']), '--exit-contract " v2" is not an exit contract; v1 or v2');
});

test('help <command>, or a command with --help, is that command\'s help; help alone is --help', () => {
  const help = (...argv: string[]) => parseCommandLine(argv);
  assert.deepEqual(help('help'), { ok: true, value: { action: 'help' } });
  assert.deepEqual(help('help', 'gates', 'run'), { ok: true, value: { action: 'help', command: 'gates run' } });
  assert.deepEqual(help('help', 'gates'), { ok: true, value: { action: 'help', command: 'gates run' } });
  assert.deepEqual(help('help', 'check.predicate'), { ok: true, value: { action: 'help', command: 'check predicate' } });
  assert.deepEqual(help('validate', 'a.json', '--help'), { ok: true, value: { action: 'help', command: 'validate' } });
  assert.equal(usage(['help', 'nope']), 'help: no command "nope"; one of: check predicate, gates run, validate, schema, completion, help');
  assert.equal(usage(['help', 'gates', 'run', 'now']), 'help: no command "gates run now"; one of: check predicate, gates run, validate, schema, completion, help');
});

test('--json-errors is seen even when the rest does not parse', () => {
  assert.equal(wantsJsonErrors(['check', '--bogus', '--json-errors']), true);
  assert.equal(wantsJsonErrors(['check', '--', '--json-errors']), false);
  assert.equal(wantsJsonErrors(['--json-errors', '--', 'x']), true);
  assert.equal(wantsJsonErrors(['check']), false);
  // GSD_JSON_ERRORS=1, gsd-tools' switch, turns it on without the flag; other values do not.
  assert.equal(wantsJsonErrors(['check'], defaultsFromEnv({ GSD_JSON_ERRORS: '1' })), true);
  assert.equal(wantsJsonErrors(['check'], defaultsFromEnv({ GSD_JSON_ERRORS: 'true' })), false);
  const fromEnv = parseCommandLine(['check', 'predicate', '--predicate', '{}'], defaultsFromEnv({ GSD_JSON_ERRORS: '1' }));
  assert.equal(fromEnv.ok && fromEnv.value.action === 'check-predicate' && fromEnv.value.options.jsonErrors, true);
  const validateFromEnv = parseCommandLine(['validate', 'a.json'], defaultsFromEnv({ GSD_JSON_ERRORS: '1' }));
  assert.equal(validateFromEnv.ok && validateFromEnv.value.action === 'validate' && validateFromEnv.value.options.jsonErrors, true);
});

test('gates run: point, capabilities (repeatable), config, concurrency and the shared flags', () => {
  const result = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--capability', 'a.json', '--capability=b.json',
    '--config', 'c.json', '--concurrency', '3', '--phase-dir', 'p', '--raw', '--exit-code']);
  assert.ok(result.ok);
  assert.deepEqual(result.value, {
    action: 'gates-run',
    options: {
      points: ['ship:pre'], envelope: 'point', capabilities: ['a.json', 'b.json'], builtin: false, config: 'c.json', concurrency: 3, phaseDir: 'p',
      queryTimeout: 30, reports: [], currentPhase: false, killAfter: 3, raw: true, exitCode: true, jsonErrors: false,
    },
  });
  const gates = (argv: string[]) => usage(['gates', 'run', ...argv]);
  assert.equal(gates(['--capability', 'a.json']), '--point (once per loop point) or --all-points is required');
  assert.match(gates(['--point', 'ship', '--capability', 'a.json']), /^--point "ship" is not a loop point; one of: discuss:pre, /);
  assert.equal(gates(['--point', 'ship:pre']), "--builtin (GSD 1.14's own gates), --capability (once per capability file) or --hooks (the output of gsd_run loop render-hooks) is required");
  const builtin = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--builtin', '--capability', 'a.json']);
  assert.deepEqual(builtin.ok && builtin.value.action === 'gates-run' && [builtin.value.options.builtin, builtin.value.options.capabilities], [true, ['a.json']]);
  assert.equal(gates(['--point', 'ship:pre', '--builtin', '--hooks', '-']), '--hooks and --builtin cannot be used together: rendered hooks are already resolved by GSD');
  assert.match(usage(['check', 'predicate', '--predicate', '{}', '--builtin']), /^--builtin is not a flag of "check predicate"/);
  for (const bad of ['0', '-1', '1.5', 'x', '']) {
    assert.match(gates(['--point', 'ship:pre', '--capability', 'a', `--concurrency=${bad}`]), /^--concurrency must be a whole number of 1 or more/, bad);
  }
  assert.equal(gates(['--point', 'ship:pre', '--point', 'ship:pre', '--capability', 'a']), '--point ship:pre is given more than once');
  // The least of each bound is allowed.
  const least = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--capability', 'a', '--concurrency', '1', '--query-timeout', '0.5']);
  assert.deepEqual(least.ok && least.value.action === 'gates-run' && [least.value.options.concurrency, least.value.options.queryTimeout], [1, 0.5]);
});

test('gates run: --point repeated runs those points in the order given, --all-points all 12 in loop order; never both', () => {
  const points = (argv: string[]) => {
    const result = parseCommandLine(['gates', 'run', '--builtin', ...argv]);
    return result.ok && result.value.action === 'gates-run' ? [result.value.options.points, result.value.options.envelope] : result;
  };
  assert.deepEqual(points(['--point', 'ship:pre', '--point=plan:pre']), [['ship:pre', 'plan:pre'], 'run']);
  assert.deepEqual(points(['--point', 'ship:pre']), [['ship:pre'], 'point']);
  assert.deepEqual(points(['--all-points']), [[...LOOP_POINTS], 'run']);
  assert.equal(LOOP_POINTS.length, 12);
  assert.equal(usage(['gates', 'run', '--builtin', '--all-points', '--point', 'ship:pre']), '--point and --all-points cannot be used together: --all-points runs every point');
  assert.match(usage(['gates', 'run', '--builtin', '--point', 'ship:pre', '--point', 'nope']), /^--point "nope" is not a loop point/);
});

test('validate: files and --json', () => {
  assert.deepEqual(parseCommandLine(['validate', 'a.json', 'b.json', '--json']), {
    ok: true,
    value: { action: 'validate', options: { files: ['a.json', 'b.json'], json: true, jsonErrors: false } },
  });
  assert.equal(usage(['validate']), 'validate needs at least one capability file');
});

test('a phase number must be one, and requirement ids ids: nothing bash could evaluate', () => {
  const message = (flag: string, value: string) => {
    const result = parseCommandLine(['check', 'predicate', '--predicate', '{}', `--${flag}=${value}`]);
    return result.ok ? 'accepted' : result.failure.message;
  };
  for (const value of ['04', '4', '4.1', '12A', '12a.1', '1-2', '1-2-3', 'CK-01', 'PROJ-42', 'AUTH-101', '']) {
    assert.equal(message('phase-number', value), 'accepted', value);
  }
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
  for (const value of ['REQ-07,REQ-08', 'REQ-01 REQ-02', '[REQ-01, REQ-02]', 'TBD', '', 'REQ-01 (partial), AUTH/01', 'n/a', '$(id)', "it's `x`; é", 'x'.repeat(4096)]) {
    assert.equal(message(value), 'accepted', value.slice(0, 20));
  }
  for (const value of ['R\nS', 'R\tS', 'R\x7fS', 'R\x85S', 'R\rS']) {
    assert.equal(message(value), `--phase-req-ids ${JSON.stringify(value)} holds a control character; requirement ids are one line of text (see gsd-check --help)`, value);
  }
  assert.equal(message('x'.repeat(4097)), '--phase-req-ids is 4097 characters long; at most 4096 (see gsd-check --help)');
});

test('GSD\'s global flags: --project-dir, --ws, --exit-contract (or GSD_EXIT_CONTRACT)', () => {
  const o = options(['check', 'predicate', '--predicate', P, '--project-dir', 'p', '--ws', 'alpha', '--exit-contract=v2']);
  assert.deepEqual([o?.projectDir, o?.ws], ['p', 'alpha']);
  assert.match(usage(['check', 'predicate', '--predicate', P, '--project-dir=']), /^--project-dir needs a directory/);
  const contract = (argv: string[], variable?: string) => {
    const result = parseCommandLine(['check', 'predicate', '--predicate', P, ...argv], { jsonErrors: false, exitContract: variable });
    return result.ok ? 'accepted' : result.failure.message;
  };
  for (const [argv, variable] of [[[], undefined], [['--exit-contract=v1'], undefined], [['--exit-contract', 'v2'], 'v3'], [[], 'v2'], [[], '']] as const) {
    assert.equal(contract([...argv], variable), 'accepted', `${argv.join(' ')} ${variable}`);
  }
  assert.equal(contract(['--exit-contract=v3']), '--exit-contract "v3" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract(['--exit-contract='], 'v2'), '--exit-contract "" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract([], 'V2'), 'GSD_EXIT_CONTRACT "V2" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(parseCommandLine(['validate', 'a.json'], { jsonErrors: false, exitContract: 'garbage' }).ok, false);
  assert.equal(parseCommandLine(['validate', 'a.json', '--exit-contract=v2']).ok, true);
  assert.match(usage(['validate', 'a.json', '--ws', 'x']), /--ws is not a flag of "validate"/);
});

test('gates run: --hooks instead of --capability, the query command and its timeout', () => {
  const parsed = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--hooks', '-', '--query-command', 'gsd-tools check "$GSD_QUERY" 04', '--query-timeout', '2.5']);
  assert.ok(parsed.ok && parsed.value.action === 'gates-run');
  const options = parsed.value.options;
  assert.deepEqual([options.hooks, options.capabilities, options.queryCommand, options.queryTimeout], ['-', [], 'gsd-tools check "$GSD_QUERY" 04', 2.5]);
  const defaults = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--capability', 'c.json']);
  assert.ok(defaults.ok && defaults.value.action === 'gates-run');
  assert.deepEqual([defaults.value.options.hooks, defaults.value.options.queryCommand, defaults.value.options.queryTimeout], [undefined, undefined, 30]);
  const refused = (...argv: string[]) => {
    const result = parseCommandLine(['gates', 'run', '--point', 'ship:pre', ...argv]);
    return result.ok ? 'accepted' : result.failure.message;
  };
  assert.equal(refused('--hooks', 'h.json', '--capability', 'c.json'), '--hooks and --capability cannot be used together: rendered hooks are already resolved by GSD (see gsd-check --help)');
  assert.equal(refused(), "--builtin (GSD 1.14's own gates), --capability (once per capability file) or --hooks (the output of gsd_run loop render-hooks) is required (see gsd-check --help)");
  assert.equal(refused('--hooks='), '--hooks needs a file (or - for standard input) (see gsd-check --help)');
  assert.equal(refused('--hooks', '-', '--query-command', ' '), '--query-command needs a shell command (see gsd-check --help)');
  for (const value of ['0', '-1', 'x', '1e999']) {
    assert.equal(refused('--hooks', '-', `--query-timeout=${value}`), `--query-timeout must be a positive finite number of seconds, got ${JSON.stringify(value)} (see gsd-check --help)`, value);
  }
});

test('a lone - is a word (standard input), never a flag that swallows the next argument', () => {
  const result = parseCommandLine(['validate', 'a.json', '-', 'b.json']);
  assert.ok(result.ok && result.value.action === 'validate');
  assert.deepEqual(result.ok && result.value.action === 'validate' && result.value.options.files, ['a.json', '-', 'b.json']);
});

test('--kill-after is 3 seconds unless given, as the help and docs/reference/cli.md say', () => {
  assert.equal(options(['check', 'predicate', '--predicate', P])?.killAfter, 3);
});

test('schema: one name or none; the name is checked by the command', () => {
  assert.deepEqual(parseCommandLine(['schema']), { ok: true, value: { action: 'schema', name: undefined } });
  assert.deepEqual(parseCommandLine(['schema', 'gate']), { ok: true, value: { action: 'schema', name: 'gate' } });
  assert.equal(usage(['schema', 'gate', 'x']), 'unexpected argument "x"');
  assert.equal(usage(['schema', '--json']), '--json is not a flag of "schema"');
});

test('completion: one shell there is a script for, nothing else', () => {
  assert.deepEqual(parseCommandLine(['completion', 'bash']), { ok: true, value: { action: 'completion', shell: 'bash' } });
  assert.equal(usage(['completion']), 'completion needs a shell; one of: bash');
  assert.equal(usage(['completion', 'zsh']), 'completion for "zsh" is not available; one of: bash');
  assert.equal(usage(['completion', 'bash', 'x']), 'unexpected argument "x"');
  assert.equal(usage(['completion', 'bash', '--raw']), '--raw is not a flag of "completion"');
});

test('standard input (-) names at most one of a command\'s files, whichever flags name them', () => {
  assert.equal(usage(['validate', '-', 'tdd.json', '-']), 'validate reads standard input (-) once; give - at most once');
  const gates = ['gates', 'run', '--point', 'ship:pre'];
  for (const files of [['--capability', '-', '--capability', '-'], ['--capability', '-', '--config', '-'], ['--hooks', '-', '--config', '-']]) {
    assert.equal(usage([...gates, ...files]), 'gates run reads standard input (-) once; give - at most once', files.join(' '));
  }
  for (const argv of [['validate', '-', 'a.json'], [...gates, '--capability', '-', '--config', 'c.json'], [...gates, '--hooks', '-']]) {
    assert.equal(parseCommandLine(argv).ok, true, argv.join(' '));
  }
});

test('--current-phase: the phase number from .planning/STATE.md, never beside --phase-number', () => {
  assert.equal(options(['check', 'predicate', '--predicate', P, '--current-phase'])?.currentPhase, true);
  assert.equal(
    usage(['check', 'predicate', '--predicate', P, '--current-phase', '--phase-number', '04']),
    '--current-phase and --phase-number cannot be used together: --current-phase reads the phase number from .planning/STATE.md',
  );
});
