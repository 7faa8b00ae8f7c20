import * as v from 'valibot';
import { fail, ok, type Issue, type Result } from '../failure.ts';
import { isJsonObject, MAX_DEPTH, nestsDeeperThan } from '../json/parse.ts';
import { closest, unknownField } from '../text/suggest.ts';
import { describe, jsonPath } from '../text/format.ts';
import type { Kind } from './kind.ts';

export interface ValidPredicate {
  readonly kind: Kind;
  readonly predicate: Record<string, unknown>;
}

// Checks a parsed predicate against the kind table and the kind's schema.
// Every issue is reported, each with its JSON path under `root`, so that a
// capability validator can prefix its own path (gates[1].check.predicate).
export function validatePredicate(input: unknown, kinds: ReadonlyMap<string, Kind>, root = 'predicate'): Result<ValidPredicate> {
  if (!isJsonObject(input)) {
    return fail('invalid-predicate', 'invalid predicate', [{ path: root, message: `must be a JSON object, got ${describe(input)}` }]);
  }
  const fields = input;
  const known = [...kinds.keys()].join(', ');
  if (!Object.hasOwn(fields, 'kind')) {
    return fail('invalid-predicate', 'invalid predicate', [{ path: jsonPath(root, ['kind']), message: `is required (one of: ${known})` }]);
  }
  const name = fields.kind;
  if (typeof name !== 'string') {
    return fail('invalid-predicate', 'invalid predicate', [
      { path: jsonPath(root, ['kind']), message: `must be a string (one of: ${known}), got ${describe(name)}` },
    ]);
  }
  const kind = kinds.get(name);
  if (kind === undefined) {
    const hint = closest(name, [...kinds.keys()]);
    return fail('unknown-kind', `unknown predicate kind ${describe(name)}${hint === undefined ? '' : ` (did you mean "${hint}"?)`}; known kinds: ${known}`);
  }

  const allowed = Object.keys(kind.schema.entries);
  const issues: Issue[] = [];
  for (const key of Object.keys(fields)) {
    if (!Object.hasOwn(kind.schema.entries, key)) issues.push({ path: jsonPath(root, [key]), message: unknownField(key, allowed) });
  }
  for (const [key, value] of Object.entries(fields)) {
    if (nestsDeeperThan(value, MAX_DEPTH)) {
      issues.push({ path: jsonPath(root, [key]), message: `nests deeper than ${MAX_DEPTH} levels` });
    }
  }
  // One issue per field: the first broken rule is the one to fix.
  const parsed = v.safeParse(kind.schema, fields, { abortPipeEarly: true });
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const keys = (issue.path ?? []).map((item) => item.key as string | number);
      // The object schema's own issue can only be a missing key here: the
      // input is known to be an object.
      const message = issue.type === 'object' ? 'is required' : issue.message;
      issues.push({ path: jsonPath(root, keys), message });
    }
  }
  if (issues.length > 0 || !parsed.success) return fail('invalid-predicate', 'invalid predicate', issues);
  return ok({ kind, predicate: parsed.output });
}
