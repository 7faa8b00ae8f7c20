// Hostile predicates through the shipped artefact: every run ends in a valid
// envelope or a clean exit 2, never a stack trace. Commands are drawn from a
// harmless set, so a predicate that validates runs nothing random.
import assert from 'node:assert/strict';
import { test } from './helpers/bounded.ts';
import fc from 'fast-check';
import { cli } from './helpers/support.ts';

const RUNS = Math.max(10, Math.floor(Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300) / 10));

const value = fc.oneof(
  fc.constantFrom('true', 'exit 3', 'echo out; echo err >&2; exit 1', '', ' ', '\u0000', '\ud800'),
  fc.constantFrom(0, -0, -1, 1e-320, 0.0001, 0.2, 1e308, 9007199254740993, null, true, '5', [], {}),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const key = fc.constantFrom('command', 'timeout', 'timeOut', '__proto__', 'constructor', 'kind', 'x');
const safeCommand = fc.constantFrom('true', 'exit 3', 'echo out; echo err >&2; exit 1', 'printf "\\377\\033[31m"; exit 2');
const predicate = fc
  .tuple(fc.constantFrom('command-exit-zero', 'toString', '__proto__', 'command-exit-0'), safeCommand, fc.array(fc.tuple(key, value), { maxLength: 3 }))
  .map(([kind, command, extra]) => {
    const fields = Object.fromEntries(extra.filter(([k]) => k !== 'command'));
    return JSON.stringify({ kind, command, ...fields });
  });

test('hostile predicates through dist/gsd-check: an envelope or a clean exit 2', async () => {
  await fc.assert(
    fc.asyncProperty(predicate, async (json) => {
      const result = await cli(['check', 'predicate', '--raw', '--kill-after', '0', '--predicate', json]);
      if (result.status === 0) {
        assert.equal(result.stderr, '');
        const envelope = JSON.parse(result.stdout);
        assert.equal(typeof envelope.block, 'boolean');
        assert.match(envelope.message, /^command (exited \d+|timed out after [^ ]+s|killed by SIG[A-Z]+)/);
      } else {
        assert.equal(result.status, 2, `${json}: ${result.stderr}`);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, /^gsd-check: [^\n]+\n/);
        assert.doesNotMatch(result.stderr, /\n\s+at |internal error/);
      }
    }),
    { numRuns: RUNS },
  );
});
