import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { tokenizeFlags } from '../../src/cli/flags.ts';

const SPEC = { values: ['file', 'cwd'], booleans: ['raw', 'help'], repeatable: ['file'], aliases: { h: 'help' } };

const parse = (...argv: string[]) => {
  const result = tokenizeFlags(argv, SPEC);
  return result.ok ? { values: Object.fromEntries(result.value.values), booleans: [...result.value.booleans], words: result.value.words } : result.failure.message;
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
