import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { actionYaml } from '../../src/action/metadata.ts';
import { ACTION_INPUTS } from '../../src/action/inputs.ts';
import { ACTION_OUTPUTS } from '../../src/action/outputs.ts';
import { ROOT } from '../helpers/support.ts';

test('action.yml is the one build.mjs writes from the input and output lists', () => {
  assert.equal(readFileSync(join(ROOT, 'action.yml'), 'utf8'), actionYaml(), 'action.yml is stale: run npm run build and commit it');
});

test('action.yml reads as the runner reads it: node24, the committed entry, every input and output described', () => {
  const metadata = parse(actionYaml()) as { name: string; runs: { using: string; main: string }; inputs: Record<string, { description: string; required: boolean; default?: string }>; outputs: Record<string, { description: string }> };
  assert.deepEqual(metadata.runs, { using: 'node24', main: 'dist/action.js' });
  assert.deepEqual(Object.keys(metadata.inputs), ACTION_INPUTS.map((input) => input.name));
  assert.deepEqual(Object.keys(metadata.outputs), ACTION_OUTPUTS.map((output) => output.name));
  assert.equal(metadata.inputs['phase-number']!.description, ACTION_INPUTS.find((input) => input.name === 'phase-number')!.description);
  assert.equal(metadata.inputs['exit-code']!.default, 'true');
  assert.ok(Object.values(metadata.inputs).every((input) => input.required === false));
});
