import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parseCommandLine } from '../../src/cli/command-line.ts';
import { seconds } from '../../src/cli/option-values.ts';
import { usage } from '../helpers/command-line.ts';

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

test('seconds: the table\'s default when absent; a number as a flag writes it; 0 only where allowed', () => {
  const flags = (value?: string) => ({ values: new Map(value === undefined ? [] : [['kill-after', [value]]]), booleans: new Set<string>(), words: [] });
  assert.deepEqual(seconds(flags(), 'kill-after', false), { ok: true, value: 3 });
  for (const [text, value] of [['0', 0], ['0.5', 0.5], ['.5', 0.5], ['1e1', 10], ['2.', 2]] as const) assert.deepEqual(seconds(flags(text), 'kill-after', false), { ok: true, value }, text);
  for (const text of ['', ' 1', '0x10', '-1', 'Infinity', '1e999', '1_000']) {
    const result = seconds(flags(text), 'kill-after', false);
    assert.equal(result.ok ? 'accepted' : result.failure.message, `--kill-after must be a finite number of seconds (0 or more), got ${JSON.stringify(text)} (see gsd-check --help)`, text);
  }
  const zero = seconds(flags('0'), 'kill-after', true);
  assert.equal(zero.ok ? 'accepted' : zero.failure.message, '--kill-after must be a positive finite number of seconds, got "0" (see gsd-check --help)');
});
