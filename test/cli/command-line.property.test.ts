import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import fc from 'fast-check';
import { parseCommandLine } from '../../src/cli/command-line.ts';

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300);

const words = fc.oneof(
  fc.constantFrom(
    'check',
    'predicate',
    'check.predicate',
    '--predicate',
    '--predicate-file',
    '--phase-dir',
    '--phase-number',
    '--phase-req-ids',
    '--cwd',
    '--pick',
    '--kill-after',
    '--raw',
    '--exit-code',
    '--json-errors',
    '-h',
    '-V',
    '--',
    '-',
    '--=',
    '---',
    '--no-raw',
    '--raw=',
    '--pick=details.',
    '--__proto__',
    '--constructor',
    '-hV',
    '=',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 8 }).map((s) => `--${s}`),
  fc.string({ maxLength: 8 }).map((s) => `--phase-dir=${s}`),
);

test('any argv parses to an action or a usage error, never a throw', () => {
  fc.assert(
    fc.property(fc.array(words, { maxLength: 10 }), (argv) => {
      const result = parseCommandLine(argv);
      if (result.ok) return;
      assert.equal(result.failure.reason, 'usage');
      assert.doesNotMatch(result.failure.message, /\n/);
      assert.match(result.failure.message, /\(see gsd-check --help\)$/);
    }),
    { numRuns: RUNS * 3 },
  );
});

test('a value given with = always comes back unchanged (an empty --phase-dir is none)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (value) => {
      const result = parseCommandLine(['check', 'predicate', '--predicate', '{}', `--phase-dir=${value}`]);
      assert.ok(result.ok && result.value.action === 'check-predicate');
      assert.equal(result.value.options.phaseDir, value === '' ? undefined : value);
    }),
    { numRuns: RUNS },
  );
});
