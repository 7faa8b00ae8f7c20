import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { defaultsFromEnv, findCommand, parseCommandLine, wantsJsonErrors } from '../../src/cli/command-line.ts';

import { options, P, usage } from '../helpers/command-line.ts';

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
  const spaced = [
    '--predicate',
    P,
    '--phase-dir',
    '.planning/phases/03-x',
    '--phase-number',
    '03',
    '--phase-req-ids',
    'TBD',
    '--cwd',
    '/tmp',
    '--pick',
    'details.exitCode',
    '--kill-after',
    '0.5',
    '--raw',
    '--exit-code',
    '--json-errors',
  ];
  assert.deepEqual(options(['check', 'predicate', ...spaced]), expected);
  const joined = [
    `--predicate=${P}`,
    '--phase-dir=.planning/phases/03-x',
    '--phase-number=03',
    '--phase-req-ids=TBD',
    '--cwd=/tmp',
    '--pick=details.exitCode',
    '--kill-after=0.5',
    '--raw',
    '--exit-code',
    '--json-errors',
  ];
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

test('boolean flags take no value; repeating one is harmless', () => {
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--raw=false']), '--raw takes no value');
  assert.equal(options(['check', 'predicate', '--predicate', P, '--raw', '--raw'])?.raw, true);
});

test('every flag of gsd-check can be suggested: a prefix, a missing dash, a typo', () => {
  assert.equal(
    usage(['check', 'predicate', '--predicate', P, '--phase', '04']),
    'unknown flag --phase; did you mean --phase-dir, --phase-number or --phase-req-ids?',
  );
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

test('a lone - is a word (standard input), never a flag that swallows the next argument', () => {
  const result = parseCommandLine(['validate', 'a.json', '-', 'b.json']);
  assert.ok(result.ok && result.value.action === 'validate');
  assert.deepEqual(result.ok && result.value.action === 'validate' && result.value.options.files, ['a.json', '-', 'b.json']);
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

test('check predicate: the predicate comes from exactly one place', () => {
  assert.equal(usage(['check', 'predicate']), '--predicate or --predicate-file is required');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--predicate-file', 'p.json']), '--predicate and --predicate-file cannot be used together');
  assert.equal(usage(['check', 'predicate', '--predicate', P, '--predicate', P]), '--predicate is given more than once');
  assert.equal(usage(['check', 'predicate', '--predicate-file=']), '--predicate-file needs a path (or - for standard input)');
});

test('validate: files and --json', () => {
  assert.deepEqual(parseCommandLine(['validate', 'a.json', 'b.json', '--json']), {
    ok: true,
    value: { action: 'validate', options: { files: ['a.json', 'b.json'], json: true, jsonErrors: false } },
  });
  assert.equal(usage(['validate']), 'validate needs at least one capability file');
});

// What the exit contract's flag and variable make of a line: accepted, or the usage error.
const contract = (flag: string | undefined, variable: string | undefined): string => {
  const argv = ['check', 'predicate', '--predicate', P, ...(flag === undefined ? [] : [`--exit-contract=${flag}`])];
  const result = parseCommandLine(argv, { jsonErrors: false, exitContract: variable });
  return result.ok ? 'accepted' : result.failure.message;
};

test('the exit contract: v1 or v2, by the flag over GSD_EXIT_CONTRACT, either way; an empty variable is unset', () => {
  for (const [flag, variable] of [
    [undefined, undefined],
    [undefined, ''],
    [undefined, 'v2'],
    ['v1', 'v2'],
    ['v2', 'v1'],
    ['v2', 'garbage'],
  ] as const) {
    assert.equal(contract(flag, variable), 'accepted', `${flag} ${variable}`);
  }
});

test('the exit contract: anything but v1 or v2 is refused, from the flag (even empty) or the variable', () => {
  assert.equal(contract('v3', undefined), '--exit-contract "v3" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract('', 'v1'), '--exit-contract "" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract('V2', undefined), '--exit-contract "V2" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract(undefined, ' v2'), 'GSD_EXIT_CONTRACT " v2" is not an exit contract; v1 or v2 (see gsd-check --help)');
});

// The help a line asks for: none (another action), or the command's.
const helpOf = (argv: string[]): string => {
  const result = parseCommandLine(argv);
  if (!result.ok) return `usage: ${result.failure.message}`;
  return result.value.action === 'help' ? `help ${result.value.command ?? '(all)'}` : result.value.action;
};

test("help: every spelling of GSD's, as a whole argument before --", () => {
  for (const spelling of ['-h', '--help', '-?', '--h', '--usage']) {
    assert.equal(helpOf(['check', spelling, 'predicate']), 'help check predicate', spelling);
    assert.equal(helpOf(['validate', 'a.json', '--', spelling]), 'validate', spelling);
  }
  for (const arg of ['--help=1', '-H', '---h', '?', 'h', '--hel']) assert.doesNotMatch(helpOf(['validate', arg]), /^help/, arg);
  assert.equal(helpOf(['check', 'predicate', `--phase-dir=-h`, '--predicate', P]), 'check-predicate');
});

test('help: the command it is for, found without the spellings, a value flag one stood for the value of, or what follows --', () => {
  assert.equal(helpOf(['gates', 'run', '--point', '-h', '--builtin']), 'help gates run');
  assert.equal(helpOf(['check', '--raw', '-?', 'predicate']), 'help check predicate');
  assert.equal(helpOf(['-h', 'validate', '--', '-h']), 'help validate');
  assert.equal(helpOf(['gates', 'run', '--point', '--usage']), 'help gates run');
  // The flag left without its value would leave no command to find.
  assert.equal(helpOf(['check', 'predicate', '--phase-number', '-h']), 'help check predicate');
  assert.equal(helpOf(['--h']), 'help (all)');
});

test("GSD's query prefix: before a command, the command", () => {
  assert.equal(options(['query', 'check.predicate', '--predicate', P])?.predicate, P);
  assert.equal(options(['query', 'check', 'predicate', '--predicate', P])?.predicate, P);
  assert.equal(options(['--raw', 'query', '--predicate', P, 'check', 'predicate'])?.raw, true);
  assert.equal(parseCommandLine(['query', 'gates', 'run', '--point', 'ship:pre', '--builtin']).ok, true);
  assert.equal(
    usage(['query', 'query', 'check', 'predicate', '--predicate', P]),
    'unknown command "query"; try: gsd-check check predicate, gates run, validate, schema or completion',
  );
  assert.equal(usage(['query']), 'missing command; try: gsd-check check predicate --predicate <json>');
  assert.equal(usage(['check', 'query', 'predicate']), 'unknown subcommand "check query"; try: check predicate');
});

test("help <command>, or a command with --help, is that command's help; help alone is --help", () => {
  const help = (...argv: string[]) => parseCommandLine(argv);
  assert.deepEqual(help('help'), { ok: true, value: { action: 'help' } });
  assert.deepEqual(help('help', 'gates', 'run'), { ok: true, value: { action: 'help', command: 'gates run' } });
  assert.deepEqual(help('help', 'gates'), { ok: true, value: { action: 'help', command: 'gates run' } });
  assert.deepEqual(help('help', 'check.predicate'), { ok: true, value: { action: 'help', command: 'check predicate' } });
  assert.deepEqual(help('validate', 'a.json', '--help'), { ok: true, value: { action: 'help', command: 'validate' } });
  assert.equal(usage(['help', 'nope']), 'help: no command "nope"; one of: check predicate, gates run, validate, schema, completion, help');
  assert.equal(
    usage(['help', 'gates', 'run', 'now']),
    'help: no command "gates run now"; one of: check predicate, gates run, validate, schema, completion, help',
  );
});

test("a command found by its words, an alias, after GSD's query; a typo of its first word is named", () => {
  const found = (words: string[]) => {
    const result = findCommand(words);
    return result.ok ? [result.value.command, result.value.operands] : result.failure.message.replace(/ \(see gsd-check --help\)$/, '');
  };
  assert.deepEqual(found(['check', 'predicate', 'x']), ['check predicate', ['x']]);
  assert.deepEqual(found(['query', 'check.predicate']), ['check predicate', []]);
  assert.deepEqual(found(['validate', 'a', 'b']), ['validate', ['a', 'b']]);
  assert.equal(found(['chek']), 'unknown command "chek"; did you mean gsd-check check predicate?');
  assert.equal(found(['Gates', 'run']), 'unknown command "Gates"; did you mean gsd-check gates run?');
  assert.equal(found(['schemas']), 'unknown command "schemas"; did you mean gsd-check schema?');
  assert.equal(found(['deploy']), 'unknown command "deploy"; try: gsd-check check predicate, gates run, validate, schema or completion');
});
