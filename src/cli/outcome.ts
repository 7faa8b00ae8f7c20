import type { Envelope } from '../envelope.ts';
import { formatFailure, formatFailureJson, type Failure } from '../failure.ts';
import type { EvalOptions } from './args.ts';
import { EXIT_BLOCK, EXIT_FAILURE, stoppedExitStatus } from '../exit-status.ts';
import type { Outcome } from './deps.ts';
import { renderEnvelope } from './output.ts';

export function envelopeOutcome(envelope: Envelope, options: EvalOptions): Outcome {
  const rendered = renderEnvelope(envelope, options);
  if (!rendered.ok) return failureOutcome(rendered.failure, options.jsonErrors);
  return { exitCode: options.exitCode && envelope.block ? EXIT_BLOCK : 0, stdout: rendered.value, stderr: '' };
}

export function failureOutcome(failure: Failure, json: boolean): Outcome {
  return { exitCode: EXIT_FAILURE, stdout: '', stderr: json ? formatFailureJson(failure) : formatFailure(failure) };
}

export function interruptedOutcome(signal: NodeJS.Signals): Outcome {
  return {
    exitCode: stoppedExitStatus(signal),
    stdout: '',
    stderr: `gsd-check: stopped by ${signal}; any command it started was ended\n`,
  };
}
