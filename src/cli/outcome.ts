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

// The signals gsd-check stops on have these numbers on every POSIX system;
// node:os would tell the same at the price of loading it.
const SIGNAL_NUMBERS: Readonly<Record<string, number | undefined>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

export function interruptedOutcome(signal: NodeJS.Signals): Outcome {
  return {
    exitCode: 128 + (SIGNAL_NUMBERS[signal] ?? 15),
    stdout: '',
    stderr: `gsd-check: stopped by ${signal}; the command's processes were ended\n`,
  };
}
