import { fail, ok, type Result } from '../failure.ts';
import { parseCapability } from '../gates/declaration.ts';
import type { Capability } from '../gates/sources.ts';
import { parseJson } from '../json/parse.ts';
import { KINDS } from '../kinds/table.ts';
import type { CliDeps } from './deps.ts';

// A capability file for gates run, `path` resolved and `shown` as given: one
// that is not an object, or whose gates are not a list, fails the command.
export async function loadCapability(path: string, shown: string, deps: Pick<CliDeps, 'readFile'>): Promise<Result<Capability>> {
  const text = await deps.readFile(path, `capability file ${shown}`);
  if (!text.ok) return text;
  const json = parseJson(text.value, `capability file ${shown}`);
  if (!json.ok) return json;
  const parsed = parseCapability(json.value, KINDS);
  if (!parsed.ok) {
    return fail('invalid-capability', parsed.problem === 'not-an-object' ? `capability file ${shown} is not a JSON object` : `capability file ${shown}: gates must be an array`);
  }
  return ok({ file: path, name: parsed.value.id ?? shown, declaration: parsed.value });
}
