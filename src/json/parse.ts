import { fail, ok, type Result } from '../failure.ts';
import { findDuplicateKey } from '../text/duplicate-keys.ts';
import { jsonPath } from '../text/json-path.ts';
import { jsonSyntaxError } from './syntax-error.ts';

// JSON as gsd-check accepts it: what JSON.parse accepts, less objects that
// give one key twice. `root` names the document in the path of a duplicate.
export function parseJson(text: string, label: string, root = ''): Result<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const error = jsonSyntaxError(text);
    return fail('invalid-json', `${label} is not valid JSON: ${error.reason} at line ${error.line}, column ${error.column}`);
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    const at = jsonPath(root, [...duplicate.path, duplicate.key]);
    return fail('invalid-json', `${label} gives the key ${JSON.stringify(duplicate.key)} twice (at ${at}): which one counts is ambiguous`);
  }
  return ok(value);
}

// A JSON object: not null, not an array, not a scalar.
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
