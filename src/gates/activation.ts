import { isJsonObject } from '../json-object.ts';

// Whether a gate runs: no `when` means always; a `when` key is looked up in
// the project config as a nested path ({"workflow":{"tdd_mode":true}}), then
// as a flat key ({"workflow.tdd_mode":true}), then falls back to the
// capability's declared `config[<key>].default`. Truthy means active. Only own
// properties are read, so "constructor" or "__proto__" find nothing.
export function isActive(when: unknown, config: unknown, declared: unknown): boolean {
  if (when === undefined) return true;
  if (typeof when !== 'string' || when.trim() === '') return false;
  let value = path(config, when.split('.'));
  if (value === undefined) value = own(config, when);
  if (value === undefined) value = own(own(declared, when), 'default');
  return Boolean(value);
}

function path(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) current = own(current, key);
  return current;
}

function own(value: unknown, key: string): unknown {
  return isJsonObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}
