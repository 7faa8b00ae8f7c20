import { ok } from '../failure.ts';
import type { Evaluation } from '../kinds/kind.ts';
import { KINDS } from '../kinds/table.ts';
import { validatePredicate } from '../predicate/validate.ts';
import { stopSignal } from '../exit-status.ts';
import type { CheckOptions } from './args.ts';
import { parseJson } from '../json/parse.ts';
import { gateContext } from './context.ts';
import { checkPickPath } from './pick-path.ts';
import type { CliDeps, Outcome } from './deps.ts';
import { envelopeOutcome, failureOutcome, interruptedOutcome } from './outcome.ts';
import { argumentPath } from './paths.ts';

export async function checkPredicate(options: CheckOptions, deps: CliDeps): Promise<Outcome> {
  const evaluation = await evaluate(options, deps);
  if (evaluation.status === 'interrupted') return interruptedOutcome(evaluation.signal);
  if (evaluation.status === 'failure') return failureOutcome(evaluation.failure, options.jsonErrors);
  return envelopeOutcome(evaluation.envelope, options);
}

async function evaluate(options: CheckOptions, deps: CliDeps): Promise<Evaluation> {
  const path = options.predicateFile ?? '-';
  const resolved = argumentPath(path, options.cwd, deps.cwd);
  if (!resolved.ok) return { status: 'failure', failure: resolved.failure };
  const source =
    options.predicate !== undefined
      ? ok(options.predicate)
      : await deps.readFile(resolved.value, path === '-' ? 'standard input' : `--predicate-file ${path}`);
  if (!source.ok) {
    return deps.signal?.aborted ? { status: 'interrupted', signal: stopSignal(deps.signal) } : { status: 'failure', failure: source.failure };
  }

  const json = parseJson(source.value, options.predicate !== undefined ? '--predicate' : 'the predicate file', 'predicate');
  if (!json.ok) return { status: 'failure', failure: json.failure };

  const valid = validatePredicate(json.value, KINDS);
  if (!valid.ok) return { status: 'failure', failure: valid.failure };
  const pick = checkPickPath(options.pick, valid.value.kind.details, String(valid.value.predicate.kind));
  if (!pick.ok) return { status: 'failure', failure: pick.failure };

  const context = gateContext(options, deps);
  if (!context.ok) return { status: 'failure', failure: context.failure };
  return valid.value.kind.evaluate(valid.value.predicate, context.value);
}
