import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parseCommandLine } from '../../src/cli/command-line.ts';
import { seconds, tokenizeFlags } from '../../src/cli/flags.ts';
import { usage } from '../helpers/command-line.ts';

const SPEC = { values: ['file', 'cwd'], booleans: ['raw', 'help'], repeatable: ['file'], aliases: { h: 'help' } };

const parse = (...argv: string[]) => {
  const result = tokenizeFlags(argv, SPEC);
  return result.ok
    ? { values: Object.fromEntries(result.value.values), booleans: [...result.value.booleans], words: result.value.words }
    : result.failure.message;
};

test('values, switches and words, in both value forms; words keep their order, - and -- included', () => {
  assert.deepEqual(parse('a', '--file', 'x', '-', '--raw', '--file=', 'b', '-h', '--', '--raw', '-'), {
    values: { file: ['x', ''] },
    booleans: ['raw', 'help'],
    words: ['a', '-', 'b', '--raw', '-'],
  });
  assert.deepEqual(parse('--raw', '--raw'), { values: {}, booleans: ['raw'], words: [] });
  assert.deepEqual(parse(), { values: {}, booleans: [], words: [] });
});

test('what cannot be read is a usage error naming the flag', () => {
  const cases: [string[], string][] = [
    [['--cwd', 'a', '--cwd', 'b'], '--cwd is given more than once'],
    [['--cwd'], '--cwd needs a value'],
    [['--cwd', '-x'], '--cwd needs a value, got the flag -x; for a value that starts with "-", write --cwd=-x'],
    [['--cwd', '--a b'], '--cwd needs a value, got the flag "--a b"; for a value that starts with "-", write "--cwd=--a b"'],
    [['--raw=1'], '--raw takes no value'],
    [['-h=1'], '-h takes no value'],
    [['--rav'], 'unknown flag --rav; did you mean --raw?'],
    [['--rav=1'], 'unknown flag --rav; did you mean --raw?'],
    [['-x'], 'unknown flag -x'],
    [['-x=1'], 'unknown flag -x'],
    [['--no-raw=1'], 'unknown flag --no-raw'],
    [['-no-file'], 'unknown flag -no-file'],
    [['-raw'], 'unknown flag -raw; did you mean --raw?'],
    [['-cwd=x'], 'unknown flag -cwd; did you mean --cwd?'],
    [['-rh'], 'unknown flag -rh'],
    [['--ra'], 'unknown flag --ra; did you mean --raw?'],
  ];
  for (const [argv, message] of cases) assert.equal(parse(...argv), `${message} (see gsd-check --help)`, argv.join(' '));
});

test('a name that begins several flags lists them; one that runs past a flag names it', () => {
  const spec = { values: ['phase-dir', 'phase-number', 'phase-req-ids'], booleans: ['help', 'version'], repeatable: [], aliases: { h: 'help', V: 'version' } };
  const message = (...argv: string[]) => {
    const result = tokenizeFlags(argv, spec);
    return result.ok ? undefined : result.failure.message;
  };
  assert.equal(message('--phase', '04'), 'unknown flag --phase; did you mean --phase-dir, --phase-number or --phase-req-ids? (see gsd-check --help)');
  assert.equal(message('--phase-number-padded'), 'unknown flag --phase-number-padded; did you mean --phase-number? (see gsd-check --help)');
  assert.equal(message('--ph'), 'unknown flag --ph (see gsd-check --help)');
  assert.equal(message('-hV'), undefined);
});

test("standard input (-) names at most one of a command's files, whichever flags name them", () => {
  assert.equal(usage(['validate', '-', 'tdd.json', '-']), 'validate reads standard input (-) once; give - at most once');
  const gates = ['gates', 'run', '--point', 'ship:pre'];
  for (const files of [
    ['--capability', '-', '--capability', '-'],
    ['--capability', '-', '--config', '-'],
    ['--hooks', '-', '--config', '-'],
  ]) {
    assert.equal(usage([...gates, ...files]), 'gates run reads standard input (-) once; give - at most once', files.join(' '));
  }
  for (const argv of [
    ['validate', '-', 'a.json'],
    [...gates, '--capability', '-', '--config', 'c.json'],
    [...gates, '--hooks', '-'],
  ]) {
    assert.equal(parseCommandLine(argv).ok, true, argv.join(' '));
  }
});

test("seconds: the table's default when absent; a number as a flag writes it; 0 only where allowed", () => {
  const flags = (value?: string) => ({ values: new Map(value === undefined ? [] : [['kill-after', [value]]]), booleans: new Set<string>(), words: [] });
  assert.deepEqual(seconds(flags(), 'kill-after', false), { ok: true, value: 3 });
  for (const [text, value] of [
    ['0', 0],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['1e1', 10],
    ['2.', 2],
  ] as const)
    assert.deepEqual(seconds(flags(text), 'kill-after', false), { ok: true, value }, text);
  for (const text of ['', ' 1', '0x10', '-1', 'Infinity', '1e999', '1_000']) {
    const result = seconds(flags(text), 'kill-after', false);
    assert.equal(
      result.ok ? 'accepted' : result.failure.message,
      `--kill-after must be a finite number of seconds (0 or more), got ${JSON.stringify(text)} (see gsd-check --help)`,
      text,
    );
  }
  const zero = seconds(flags('0'), 'kill-after', true);
  assert.equal(zero.ok ? 'accepted' : zero.failure.message, '--kill-after must be a positive finite number of seconds, got "0" (see gsd-check --help)');
});
