import { ok } from '../failure.ts';
import type { Evaluation } from '../predicate/kind.ts';
import { KINDS } from '../kinds/table.ts';
import { validatePredicate } from '../predicate/validate.ts';
import type { CheckOptions } from '../cli/command-line.ts';
import { argumentPath } from './argument-path.ts';
import { parseJson } from '../json/parse.ts';
import { textInput } from '../io/input.ts';
import type { CliDeps } from './deps.ts';
import { gateContext } from './gate-context.ts';
import { gsdPaths } from '../project/shown-path.ts';
import { checkPickPath } from '../cli/pick-path.ts';
import { evaluationReply, type Reply } from './reply.ts';

export async function checkPredicate(options: CheckOptions, deps: CliDeps): Promise<Reply> {
  return evaluationReply(await evaluate(options, deps), options);
}

async function evaluate(options: CheckOptions, deps: CliDeps): Promise<Evaluation> {
  const path = options.predicateFile ?? '-';
  const resolved = argumentPath(path, options.cwd, deps.cwd);
  if (!resolved.ok) return resolved;
  const source =
    options.predicate !== undefined
      ? ok(options.predicate)
      : await textInput(deps.readInput, resolved.value, path === '-' ? 'standard input' : `--predicate-file ${path}`);
  if (!source.ok) return source;

  const json = parseJson(source.value, options.predicate !== undefined ? '--predicate' : 'the predicate file', 'predicate');
  if (!json.ok) return json;

  const valid = validatePredicate(json.value, KINDS);
  if (!valid.ok) return valid;
  const pick = checkPickPath(options.pick, valid.value.kind.details, String(valid.value.predicate.kind));
  if (!pick.ok) return pick;

  const context = gateContext(options, deps, gsdPaths);
  if (!context.ok) return context;
  return valid.value.kind.evaluate(valid.value.predicate, context.value);
}
