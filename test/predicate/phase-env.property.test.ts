// Phase values full of shell metacharacters, in every position of a command,
// quoted and unquoted, through real sh: never executed.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import fc from 'fast-check';
import { phaseEnv } from '../../src/predicate/phase-env.ts';
import { systemRunner } from '../../src/run/runner.ts';

const runCommand = (systemRunner(undefined, () => false) as { ok: true; value: import('../../src/run/runner.ts').Runner }).value;
import { sketchOf } from '../helpers/fake-runner.ts';
import { tempDir } from '../helpers/support.ts';

const RUNS = Math.max(20, Math.floor(Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300) / 5));

// Ways a value could try to run `touch CANARY`, and the characters around them.
const ATTACKS = [
  '; touch CANARY',
  '$(touch CANARY)',
  '`touch CANARY`',
  '| touch CANARY',
  '&& touch CANARY',
  '\n touch CANARY',
  "'; touch CANARY; '",
  '"; touch CANARY; "',
  '${IFS}touch${IFS}CANARY',
  '$((1))',
  '> CANARY',
  '< /etc/passwd',
  '* ?',
  '\\',
  '#',
];
const value = fc
  .array(fc.oneof(fc.constantFrom(...ATTACKS), fc.constantFrom(...'$`"\'\\;|&<>(){}[]*?~#! \t\n=%'), fc.string({ maxLength: 4 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

// Every position a placeholder takes in real gates; none uses eval.
const COMMANDS = [
  'printf %s "${PHASE_DIR}" > out',
  'printf %s ${PHASE_DIR} > out',
  'printf %s pre${PHASE_DIR}post > out',
  'printf %s "pre-${PHASE_DIR}-post" > out',
  'x=${PHASE_DIR}; printf %s "$x" > out',
  'printf %s "$(printf %s "${PHASE_DIR}")" > out',
  'test -n "${PHASE_DIR}" && printf %s ok > out',
  'case "${PHASE_DIR}" in *) printf %s matched > out ;; esac',
  'cat > out <<EOF\n${PHASE_DIR}\nEOF',
  'for w in ${PHASE_DIR}; do :; done; printf %s done > out',
  '[ "${PHASE_NUMBER}${PHASE_DIR}${PHASE_REQ_IDS}" ] && printf %s all > out',
];

test('phase values never run, wherever the placeholder stands', async (t) => {
  const dir = tempDir(t);
  await fc.assert(
    fc.asyncProperty(value, fc.constantFrom(...COMMANDS), async (phaseDir, command) => {
      const result = await runCommand({
        command,
        cwd: dir,
        env: { PATH: process.env.PATH, ...phaseEnv({ phaseDir, phaseNumber: phaseDir, phaseReqIds: phaseDir }) },
        timeoutMs: 5000,
        killAfterMs: 500,
      });
      assert.equal(sketchOf(result).timedOut, false);
      assert.equal(existsSync(join(dir, 'CANARY')), false, `${JSON.stringify(phaseDir)} ran in: ${command}`);
      // Only the file the command itself writes may appear.
      assert.deepEqual(
        readdirSync(dir).filter((f) => f !== 'out'),
        [],
      );
      if (command.startsWith('printf %s "${PHASE_DIR}"')) {
        assert.equal(readFileSync(join(dir, 'out'), 'utf8'), phaseDir);
      }
    }),
    { numRuns: RUNS },
  );
});
