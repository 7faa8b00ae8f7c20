import { resolve } from 'node:path';
import { fail, formatFailure, formatFailureJson, ok, type Failure, type Result } from '../failure.ts';
import type { Evaluation } from '../predicate/kind.ts';
import { KINDS } from '../predicate/kinds.ts';
import { validatePredicate } from '../predicate/validate.ts';
import { entryKind, findProjectRoot } from '../project/root.ts';
import type { Runner } from '../run/runner.ts';
import type { CheckOptions } from './args.ts';
import { renderEnvelope } from './output.ts';

// What `check predicate` needs from the world; main.ts wires the real ones.
export interface CheckDeps {
  readonly run: Runner;
  readonly readPredicateFile: (path: string) => Promise<Result<string>>;
  readonly cwd: () => string;
  readonly home: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal | undefined;
  readonly force?: AbortSignal | undefined;
}

export interface Outcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const EXIT_BLOCK = 1;
export const EXIT_FAILURE = 2;

export async function checkPredicate(options: CheckOptions, deps: CheckDeps): Promise<Outcome> {
  const evaluation = await evaluate(options, deps);
  if (evaluation.status === 'interrupted') {
    return {
      exitCode: 128 + (SIGNAL_NUMBERS[evaluation.signal] ?? 15),
      stdout: '',
      stderr: `gsd-check: stopped by ${evaluation.signal}; the command's processes were ended\n`,
    };
  }
  if (evaluation.status === 'failure') return failureOutcome(evaluation.failure, options.jsonErrors);
  const rendered = renderEnvelope(evaluation.envelope, options);
  if (!rendered.ok) return failureOutcome(rendered.failure, options.jsonErrors);
  return {
    exitCode: options.exitCode && evaluation.envelope.block ? EXIT_BLOCK : 0,
    stdout: rendered.value,
    stderr: '',
  };
}

export function failureOutcome(failure: Failure, json: boolean): Outcome {
  return { exitCode: EXIT_FAILURE, stdout: '', stderr: json ? formatFailureJson(failure) : formatFailure(failure) };
}

async function evaluate(options: CheckOptions, deps: CheckDeps): Promise<Evaluation> {
  const source =
    options.predicate !== undefined ? ok(options.predicate) : await deps.readPredicateFile(options.predicateFile ?? '-');
  if (!source.ok) return { status: 'failure', failure: source.failure };

  const json = parseJson(source.value, options.predicate !== undefined ? '--predicate' : 'the predicate file');
  if (!json.ok) return { status: 'failure', failure: json.failure };

  const valid = validatePredicate(json.value, KINDS);
  if (!valid.ok) return { status: 'failure', failure: valid.failure };

  const start = startDirectory(options.cwd, deps.cwd);
  if (!start.ok) return { status: 'failure', failure: start.failure };

  return valid.value.kind.evaluate(valid.value.predicate, {
    projectRoot: findProjectRoot(start.value, deps.home),
    phaseNumber: options.phaseNumber,
    phaseDir: options.phaseDir,
    phaseReqIds: options.phaseReqIds,
    env: deps.env,
    killAfterMs: options.killAfter * 1000,
    signal: deps.signal,
    force: deps.force,
    run: deps.run,
  });
}

function parseJson(text: string, label: string): Result<unknown> {
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ') : String(error);
    return fail('invalid-json', `${label} is not valid JSON: ${reason}`);
  }
}

function startDirectory(cwd: string | undefined, current: () => string): Result<string> {
  let start: string;
  try {
    start = resolve(current(), cwd ?? '.');
  } catch {
    return fail('bad-cwd', 'the current directory no longer exists');
  }
  const kind = entryKind(start);
  if (kind === 'dir') return ok(start);
  const label = cwd === undefined ? 'the current directory' : `--cwd ${cwd}`;
  return fail('bad-cwd', `${label}: ${kind === undefined ? 'no such directory' : 'not a directory'}`);
}


// The signals gsd-check stops on have these numbers on every POSIX system;
// node:os would tell the same at the price of loading it.
const SIGNAL_NUMBERS: Readonly<Record<string, number | undefined>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
