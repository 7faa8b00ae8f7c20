import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFlags } from '../../src/cli/flags.ts';

const SPEC = { values: ['file', 'cwd'], booleans: ['raw', 'help'], repeatable: ['file'], aliases: { h: 'help' } };

const parse = (...argv: string[]) => {
  const result = parseFlags(argv, SPEC);
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
  ];
  for (const [argv, message] of cases) assert.equal(parse(...argv), `${message} (see gsd-check --help)`, argv.join(' '));
});
