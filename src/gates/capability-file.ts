import { fail, ok, type Result } from '../failure.ts';
import { textInput, type ReadInput } from '../io/input.ts';
import { parseJson } from '../json/parse.ts';
import { KINDS } from '../kinds/table.ts';
import { parseCapability } from './declaration.ts';
import type { Capability } from './sources.ts';

// A capability file for gates run, `path` resolved and `shown` as given: one
// that is not an object, or whose gates are not a list, fails the command.
export async function loadCapability(path: string, shown: string, read: ReadInput): Promise<Result<Capability>> {
  const label = `capability file ${shown}`;
  const text = await textInput(read, path, label);
  if (!text.ok) return text;
  const json = parseJson(text.value, label);
  if (!json.ok) return json;
  const parsed = parseCapability(json.value, KINDS, label);
  // The command's failure names the file; the issue is validate's to show.
  if (!parsed.ok) return fail('invalid-capability', parsed.failure.message);
  return ok({ file: path, name: parsed.value.id ?? shown, declaration: parsed.value });
}
