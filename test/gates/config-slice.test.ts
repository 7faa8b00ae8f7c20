import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { checkConfig } from '../../src/gates/config-slice.ts';
import { ManifestIssues } from '../../src/gates/manifest-fields.ts';
import { told } from '../helpers/manifest.ts';

const config = (value: unknown, feature = true): string[] => {
  const issues = new ManifestIssues();
  checkConfig(value, feature, issues);
  return told(issues.list);
};
const slice = (s: unknown) => config({ 'workflow.k': s });

test('slices GSD builds into its registry', () => {
  assert.deepEqual(config({}), []);
  assert.deepEqual(
    config({
      a: { type: 'boolean', default: false, description: 'd' },
      b: { type: 'string', default: '', description: 'd' },
      c: { type: 'number', default: -1.5, description: 'd' },
      d: { type: 'enum', values: ['x', 'y'], default: 'y', description: 'd', extra: 1 },
    }),
    [],
  );
});

test('every rule of a slice', () => {
  assert.deepEqual(slice(true), ['refused config["workflow.k"]: must be an object {"type", "default", "description"}, got true']);
  assert.deepEqual(slice({}), [
    'refused config["workflow.k"].type: is required (one of "boolean", "string", "number", "enum")',
    'refused config["workflow.k"].default: is required (the value the key has when no config sets it)',
    'refused config["workflow.k"].description: is required (a non-empty string)',
  ]);
  assert.deepEqual(slice({ type: 'bool', default: true, description: 'd' }), [
    'refused config["workflow.k"].type: must be one of "boolean", "string", "number", "enum", got "bool"',
  ]);
  assert.deepEqual(slice({ type: 'boolean', description: 'd' }), ['refused config["workflow.k"].default: is required (true or false, as its type says)']);
  assert.deepEqual(slice({ type: 'boolean', default: 'false', description: 'd' }), [
    'refused config["workflow.k"].default: must be true or false, as its type says, got "false"',
  ]);
  assert.deepEqual(slice({ type: 'string', default: null, description: 'd' }), [
    'refused config["workflow.k"].default: must be a string, as its type says, got null',
  ]);
  assert.deepEqual(slice({ type: 'number', default: Infinity, description: 'd' }), [
    'refused config["workflow.k"].default: must be a finite number, as its type says, got Infinity',
  ]);
  assert.deepEqual(slice({ type: 'enum', default: 'x', description: 'd' }), [
    'refused config["workflow.k"].values: is required (a non-empty array of strings (the values the key may take))',
  ]);
  assert.deepEqual(slice({ type: 'enum', values: ['x', 2], default: 'z', description: '' }), [
    'refused config["workflow.k"].values[1]: must be a string, got 2',
    'refused config["workflow.k"].default: "z" is not one of its values (x, 2)',
    'refused config["workflow.k"].description: must be a non-empty string, got ""',
  ]);
  assert.deepEqual(slice({ type: 'enum', values: [], default: 1, description: 'd' }), [
    'refused config["workflow.k"].values: must be a non-empty array of strings (the values the key may take), got []',
    'refused config["workflow.k"].default: must be a string, as the type "enum" says, got 1',
  ]);
});

test("a feature's config is required and its keys named; another role's may be absent", () => {
  assert.deepEqual(config(undefined), ['refused config: is required (an object from config keys to {"type", "default", "description"})']);
  assert.deepEqual(config([]), ['refused config: must be an object from config keys to {"type", "default", "description"}, got []']);
  const good = { type: 'boolean', default: true, description: 'd' };
  assert.deepEqual(config({ '': good, constructor: good }), [
    'refused config[""]: a config key must not be empty',
    'refused config.constructor: "constructor" is a name GSD refuses (__proto__, constructor and prototype are)',
  ]);
  for (const absent of [undefined, null, 3, true, '', []]) assert.deepEqual(config(absent, false), [], JSON.stringify(absent));
  // GSD's registry build reads a string's characters and an array's items as slices.
  assert.deepEqual(config('x', false), ['refused config: must be an object from config keys to {"type", "default", "description"}, got "x"']);
  assert.deepEqual(config({ '': good, constructor: 1 }, false), []);
  assert.deepEqual(config({ k: { type: 'boolean' } }, false).length, 2);
});
