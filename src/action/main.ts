import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { argvFromInputs, inputVariable } from './inputs.ts';
import { actionOutputs, outputFileText } from './outputs.ts';

// The GitHub Action's entry (action.yml's runs.main), as the runner starts
// it: its own Node, the repository's checkout as the current directory, the
// inputs as INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files.
// It runs the committed gsd-check beside it with that Node (nothing is
// installed at run time), passes its stderr (annotations, warnings) to the
// log as it comes, and its exit status to the step: a halt fails it.

// What the log keeps of gsd-check's stderr for the step's own error line.
const TAIL = 4096;
const EXIT_FAILURE = 2;
const EXIT_WRITE_FAILED = 74;

function failStep(status: number, message: string): void {
  process.stdout.write(`::error title=gsd-check::${escapeData(message)}\n`);
  process.exitCode = status;
}

// GitHub's escaping of a workflow command's message.
const escapeData = (text: string): string => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

function main(): void {
  const argv = argvFromInputs(process.env);
  if (!argv.ok) return failStep(EXIT_FAILURE, argv.failure.message);
  const child = spawn(process.execPath, [join(__dirname, 'gsd-check'), ...argv.value], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  let tail = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-TAIL);
  });
  // A cancelled run signals this process; gsd-check ends its gates' process
  // groups on the same signal and exits 128+N, which the step then takes.
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, forward);
  child.on('error', (error) => failStep(EXIT_FAILURE, `cannot start gsd-check: ${error.message}`));
  child.on('close', (code, signal) => {
    const status = code ?? 128 + (constants.signals[signal ?? 'SIGTERM'] ?? constants.signals.SIGTERM);
    const outputs = actionOutputs(Buffer.concat(stdout).toString('utf8'));
    if (outputs === undefined) {
      const reason = tail.split('\n').filter((line) => line.startsWith('gsd-check: ')).at(-1) ?? `gsd-check exited ${status} without a verdict`;
      return failStep(status === 0 ? EXIT_FAILURE : status, reason);
    }
    process.stdout.write(`gsd-check: ${outputs.message}\n`);
    const file = process.env.GITHUB_OUTPUT;
    if (file !== undefined && file !== '') {
      try {
        appendFileSync(file, outputFileText(outputs, () => `gsd-check-${randomUUID()}`));
      } catch (error) {
        return failStep(EXIT_WRITE_FAILED, `cannot write the step's outputs to GITHUB_OUTPUT: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
    }
    // Without the github report no annotation says why the step failed.
    const reports = process.env[inputVariable('report')] ?? '';
    if (status === 1 && !reports.split(/\r?\n/).some((line) => line.trim() === 'github')) return failStep(1, outputs.message);
    process.exitCode = status;
  });
}

main();
