import { ok, type Result } from '../failure.ts';
import { usage } from './usage.ts';

// The JSON Schemas of schemas/*.schema.json by name, as JSON, baked in by
// build.mjs (schemas/generate.ts): the bundle is vendored alone, with no
// schemas/ beside it.
declare const GSD_CHECK_SCHEMAS: string;

// The one place that names them: esbuild writes the text wherever this is
// used, and only `gsd-check schema` calls it, so no other command parses it.
const schemas = (): Readonly<Record<string, unknown>> => JSON.parse(GSD_CHECK_SCHEMAS) as Record<string, unknown>;

// A schema as its file under schemas/ holds it, or, without a name, the names
// one a line.
export function schemaText(name: string | undefined): Result<string> {
  const all = schemas();
  const names = Object.keys(all);
  if (name === undefined) return ok(`${names.join('\n')}\n`);
  if (!Object.hasOwn(all, name)) return usage(`no schema named ${JSON.stringify(name)}; one of: ${names.join(', ')}`);
  return ok(`${JSON.stringify(all[name], null, 2)}\n`);
}
