import { isJsonObject } from '../json/parse.ts';
import { describe, fewOf, jsonPath } from '../text/format.ts';
import { isReservedName, type ManifestIssues } from './manifest-fields.ts';

// The config keys a capability declares, as GSD 1.14 takes them in: the
// rules of capability-validator.cjs (validateFeatureBody's, and
// validateConfigSliceEntry's, which the registry build applies to every
// capability it adds: one slice that breaks them makes GSD drop every
// installed capability, so the loop runs on its own alone).

const TYPES = ['boolean', 'string', 'number', 'enum'];

// `feature`: a feature capability must declare a config (an object, maybe
// empty) and may not name a key "" or after a prototype member; another
// role may leave it out.
export function checkConfig(config: unknown, feature: boolean, issues: ManifestIssues): void {
  if (!isJsonObject(config)) {
    // The registry build reads any other value's keys as slices: a string's
    // characters, an array's items.
    if (feature || (config !== undefined && config !== null && Object.keys(config).length > 0)) {
      issues.expect('config', config, false, 'an object from config keys to {"type", "default", "description"}');
    }
    return;
  }
  for (const [key, slice] of Object.entries(config)) {
    const at = jsonPath('config', [key]);
    if (feature && key === '') issues.refuse(at, 'a config key must not be empty');
    else if (isReservedName(key)) {
      if (feature) issues.reserved(at, key);
      continue;
    }
    checkSlice(at, slice, issues);
  }
}

function checkSlice(at: string, slice: unknown, issues: ManifestIssues): void {
  if (!issues.expect(at, slice, isJsonObject(slice), 'an object {"type", "default", "description"}')) return;
  const { type, values, description } = slice as Record<string, unknown>;
  const typed = issues.oneOf(jsonPath(at, ['type']), type, TYPES);
  const defaultAt = jsonPath(at, ['default']);
  const given = Object.hasOwn(slice as object, 'default');
  if (!given)
    issues.refuse(defaultAt, `is required (${typed ? `${kindOf(type as string)}, as its type says` : 'the value the key has when no config sets it'})`);
  if (type === 'enum') {
    const listed = Array.isArray(values) && values.length > 0;
    if (!listed) issues.expect(jsonPath(at, ['values']), values, false, 'a non-empty array of strings (the values the key may take)');
    else (values as unknown[]).forEach((value, index) => issues.expect(jsonPath(at, ['values', index]), value, typeof value === 'string', 'a string'));
    const value = (slice as Record<string, unknown>).default;
    if (
      given &&
      issues.expect(defaultAt, value, typeof value === 'string', 'a string, as the type "enum" says') &&
      listed &&
      !(values as unknown[]).includes(value)
    ) {
      issues.refuse(defaultAt, `${describe(value)} is not one of its values (${fewOf((values as unknown[]).map((v) => String(v)))})`);
    }
  } else if (given && typed) {
    const value = (slice as Record<string, unknown>).default;
    const valid = type === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === type;
    issues.expect(defaultAt, value, valid, `${kindOf(type as string)}, as its type says`);
  }
  issues.text(jsonPath(at, ['description']), description);
}

const kindOf = (type: string): string =>
  type === 'boolean' ? 'true or false' : type === 'number' ? 'a finite number' : type === 'enum' ? 'a string (one of its values)' : 'a string';
