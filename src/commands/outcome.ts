import type { Envelope } from '../envelope.ts';
import { exitStatusOf, fail, formatFailure, formatFailureJson, ok, type Failure, type Result } from '../failure.ts';
import type { EvalOptions } from '../cli/args.ts';
import { EXIT_BLOCK } from '../exit-status.ts';
import { stoppedExitStatus, type Stop } from '../stop.ts';
import type { Outcome } from './deps.ts';
import { visible } from '../text/format.ts';
import { pickValue, type PickPath } from '../cli/pick-path.ts';

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

interface OutputOptions {
  readonly raw: boolean;
  readonly pick?: PickPath | undefined;
}

export function renderEnvelope(envelope: Envelope, options: OutputOptions): Result<string> {
  if (options.pick === undefined) {
    return ok(`${options.raw ? JSON.stringify(envelope) : JSON.stringify(envelope, null, 2)}\n`);
  }
  const picked = pickValue(envelope, options.pick);
  if (picked === undefined) return fail('no-such-field', `--pick ${options.pick.text}: the envelope has no such field`);
  // A picked value is one line, read by scripts line by line: a newline in a
  // message (a command's tail, a query's report) is shown escaped, as on stderr.
  return ok(`${typeof picked.value === 'string' ? visible(picked.value) : JSON.stringify(picked.value)}\n`);
}
