import type { EvalOptions } from '../cli/eval-options.ts';
import { pickValue, type PickPath } from '../cli/pick-path.ts';
import type { Envelope } from '../predicate/kind.ts';
import { EXIT_NO, exitStatusOf, fail, formatFailure, formatFailureJson, ok, type Failure, type Result, stoppedExitStatus, type Stop } from '../failure.ts';
import { checkLabel } from '../gates/declaration.ts';
import { gateLabel, type GateReport } from '../gates/run-point.ts';
import { visible, oneLine } from '../text/format.ts';

// A command's reply: what it prints and exits with, which main.ts delivers.
export interface Reply {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  // The workflow commands gsd-check means (GitHub annotations), for stderr
  // before the rest: under GitHub Actions every other line is made so that
  // the runner cannot read a command in it (text/github-log.ts).
  readonly workflowCommands?: string;
}

// What an evaluating command prints and exits with, from its verdict or the
// reason it has none.
export function evaluationReply(evaluation: Result<Envelope>, options: EvalOptions): Reply {
  const verdict = evaluation.ok ? verdictReply(evaluation.value, options) : evaluation;
  return verdict.ok ? verdict.value : failureReply(verdict.failure, options.jsonErrors);
}

// A verdict rendered for stdout, or the failure to render it: --pick of a
// field this envelope lacks.
export function verdictReply(envelope: Envelope, options: EvalOptions): Result<Reply> {
  const rendered = renderEnvelope(envelope, options);
  if (!rendered.ok) return rendered;
  return ok({ exitCode: options.exitCode && envelope.block ? EXIT_NO : 0, stdout: rendered.value, stderr: '' });
}

export function failureReply(failure: Failure, json: boolean): Reply {
  if (failure.reason === 'stopped') return stoppedReply(failure.stop);
  return { exitCode: exitStatusOf(failure), stdout: '', stderr: json ? formatFailureJson(failure) : formatFailure(failure) };
}

export function stoppedReply(stop: Stop): Reply {
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
  // GSD prints nothing for null, so a script's test for "empty" holds in both.
  const { value } = picked;
  return ok(`${value === null ? '' : typeof value === 'string' ? visible(value) : JSON.stringify(value)}\n`);
}

// The line gates run writes to stderr for a finished gate.
export function progressLine(point: string, report: GateReport): string {
  const reason = report.error ?? (report.status === 'pass' || report.status === 'inactive' ? '' : (report.envelope?.message ?? ''));
  const text = visible(oneLine(reason, 200));
  const label = visible(`${gateLabel(report)} [${checkLabel(report.check)}]`);
  return `gsd-check: ${point} ${label} ${report.status} (${report.durationMs} ms)${text === '' ? '' : `: ${text}`}`;
}
