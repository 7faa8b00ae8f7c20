import type { Envelope } from '../envelope.ts';
import { exitStatusOf, formatFailure, formatFailureJson, type Failure, type Result } from '../failure.ts';
import type { EvalOptions } from '../cli/args.ts';
import { EXIT_BLOCK } from '../exit-status.ts';
import { stoppedExitStatus, type Stop } from '../stop.ts';
import type { Outcome } from './deps.ts';
import { renderEnvelope } from './output.ts';

// What an evaluating command prints and exits with, from its verdict or the
// reason it has none.
export function evaluationOutcome(evaluation: Result<Envelope>, options: EvalOptions): Outcome {
  if (!evaluation.ok) return failureOutcome(evaluation.failure, options.jsonErrors);
  const envelope = evaluation.value;
  const rendered = renderEnvelope(envelope, options);
  if (!rendered.ok) return failureOutcome(rendered.failure, options.jsonErrors);
  return { exitCode: options.exitCode && envelope.block ? EXIT_BLOCK : 0, stdout: rendered.value, stderr: '' };
}

export function failureOutcome(failure: Failure, json: boolean): Outcome {
  if (failure.reason === 'stopped') return stoppedOutcome(failure.stop);
  return { exitCode: exitStatusOf(failure), stdout: '', stderr: json ? formatFailureJson(failure) : formatFailure(failure) };
}

export function stoppedOutcome(stop: Stop): Outcome {
  return {
    exitCode: stoppedExitStatus(stop),
    stdout: '',
    stderr: `gsd-check: stopped by ${stop.signal}; any command it started was ended\n`,
  };
}
