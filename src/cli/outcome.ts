import type { Envelope } from '../envelope.ts';
import { formatFailure, formatFailureJson, type Failure } from '../failure.ts';
import type { EvalOptions } from './args.ts';
import { EXIT_BLOCK, EXIT_FAILURE, type Outcome } from './deps.ts';
import { renderEnvelope } from './output.ts';

export function envelopeOutcome(envelope: Envelope, options: EvalOptions): Outcome {
  const rendered = renderEnvelope(envelope, options);
  if (!rendered.ok) return failureOutcome(rendered.failure, options.jsonErrors);
  return { exitCode: options.exitCode && envelope.block ? EXIT_BLOCK : 0, stdout: rendered.value, stderr: '' };
}

export function failureOutcome(failure: Failure, json: boolean): Outcome {
  return { exitCode: EXIT_FAILURE, stdout: '', stderr: json ? formatFailureJson(failure) : formatFailure(failure) };
}

// SIGUSR1 and SIGUSR2 have other numbers on macOS than on Linux, so the
// numbers come from the platform. node:os is loaded here, on the way out,
// where its start-up cost no longer matters.
function signalNumber(signal: NodeJS.Signals): number {
  const { constants } = require('node:os') as typeof import('node:os');
  return constants.signals[signal] ?? constants.signals.SIGTERM;
}

export function interruptedOutcome(signal: NodeJS.Signals): Outcome {
  return {
    exitCode: 128 + signalNumber(signal),
    stdout: '',
    stderr: `gsd-check: stopped by ${signal}; the command's processes were ended\n`,
  };
}
