import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { EXIT_NO, EXIT_FAILURE, EXIT_WRITE_FAILED, exitStatusOf, STOP_SIGNALS } from '../failure.ts';
import { appendToFile } from '../io/report-file.ts';
import { commandData, inertLog } from '../text/github-log.ts';
import { commandEnvironment } from './environment.ts';
import { argvFromInputs } from './inputs.ts';
import { actionOutputs, outputFileText } from './outputs.ts';
import { visible } from '../text/format.ts';

// The GitHub Action's entry (action.yml's runs.main), as the runner starts
// it: its own Node, the repository's checkout as the current directory, the
// inputs as INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files.
// It runs the committed gsd-check beside it with that Node (nothing is
// installed at run time), passes its stderr (annotations, warnings) to the
// log as it comes, and its exit status to the step: a halt fails it.

// What the log keeps of gsd-check's stderr for the step's own error line.
const TAIL = 4096;
const PREFIX = 'gsd-check: ';

// One error annotation, the step's summary of why it failed: GitHub shows
// it on the run's page, where stderr's lines are not.
function failStep(status: number, message: string): void {
  const text = message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
  process.stdout.write(`::error title=gsd-check::${commandData(text)}\n`);
  process.exitCode = status;
}

// A status with no verdict behind it: a stop keeps its 128+N; anything else
// (a crash, a damaged copy, an exit 0 that printed no envelope, a 74 whose
// envelope this process never read) is a check that could not be made, never
// the 1 of a halt. gsd-check's 74 without an envelope means its stdout
// failed, and that is this process's pipe, which it reads to the end.
const withoutVerdict = (status: number): number => (status > 128 ? status : EXIT_FAILURE);

// The step's status when there is an envelope: the envelope decides, since
// gsd-check's own status can be lost (Node reports a death by a signal it
// has no name for, 32 to 64, as exit 0). A halt, when a halt is to fail the
// step, fails it whatever gsd-check's status: 1, or that status when it says
// more (2 for a point not evaluated, 74, 128+N).
const withVerdict = (status: number, block: boolean, exitOnBlock: boolean): number => (block && exitOnBlock && status === 0 ? EXIT_NO : status);

function main(): void {
  const run = argvFromInputs(process.env);
  if (!run.ok) return failStep(exitStatusOf(run.failure), run.failure.message);
  const program = join(__dirname, 'gsd-check');
  if (!existsSync(program)) return failStep(EXIT_FAILURE, `${program} is missing: the Action's copy needs action.yml and all of dist/`);
  const child = spawn(process.execPath, [program, ...run.value.argv], { stdio: ['ignore', 'pipe', 'pipe'], env: commandEnvironment(process.env) });
  const stdout: Buffer[] = [];
  let tail = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-TAIL);
  });
  // A cancelled run signals this process; gsd-check ends its gates' process
  // groups on the same signal and exits 128+N, which the step then takes.
  // Every signal gsd-check stops on is passed on: one left to its default
  // action here would end this process and orphan gsd-check's.
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  child.on('error', (error) => failStep(EXIT_FAILURE, `cannot start gsd-check: ${error.message}`));
  child.on('close', (code, signal) => {
    const status = code ?? 128 + (constants.signals[signal ?? 'SIGTERM'] ?? constants.signals.SIGTERM);
    const outputs = actionOutputs(Buffer.concat(stdout).toString('utf8'));
    if (outputs === undefined) {
      const reason =
        tail
          .split('\n')
          .filter((line) => line.startsWith(PREFIX))
          .at(-1) ?? `gsd-check exited ${status} without a verdict`;
      return failStep(withoutVerdict(status), reason);
    }
    process.stdout.write(inertLog(`${PREFIX}${visible(outputs.message)}\n`));
    const file = process.env.GITHUB_OUTPUT;
    if (file !== undefined && file !== '') {
      const appended = appendToFile(
        file,
        outputFileText(outputs, () => `gsd-check-${randomUUID()}`),
      );
      if (!appended.ok) return failStep(EXIT_WRITE_FAILED, `cannot write the step's outputs to GITHUB_OUTPUT ${file}: ${appended.failure}`);
    }
    const stepStatus = withVerdict(status, outputs.block === 'true', run.value.exitOnBlock);
    // Without the github report no annotation says why the step failed.
    if (stepStatus === EXIT_NO && !run.value.annotated) return failStep(stepStatus, outputs.message);
    process.exitCode = stepStatus;
  });
}

main();
