import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { parse } from 'yaml';
import { NoOperationTraceWriter } from '@actions/workflow-parser';
import { parseAction } from '@actions/workflow-parser/actions/index';
import { actionYaml } from '../../src/action/metadata.ts';
import { ACTION_INPUTS } from '../../src/action/inputs.ts';
import { ACTION_OUTPUTS } from '../../src/action/outputs.ts';
import { ROOT } from '../helpers/support.ts';

test('action.yml is the one build.mjs writes from the input and output lists', () => {
  assert.equal(readFileSync(join(ROOT, 'action.yml'), 'utf8'), actionYaml(), 'action.yml is stale: run npm run build and commit it');
});

test('action.yml reads as the runner reads it: node24, the committed entry, every input and output described', () => {
  const metadata = parse(actionYaml()) as {
    name: string;
    runs: { using: string; main: string };
    inputs: Record<string, { description: string; required: boolean; default?: string }>;
    outputs: Record<string, { description: string }>;
  };
  assert.deepEqual(metadata.runs, { using: 'node24', main: 'dist/action.js' });
  assert.deepEqual(
    Object.keys(metadata.inputs),
    ACTION_INPUTS.map((input) => input.name),
  );
  assert.deepEqual(
    Object.keys(metadata.outputs),
    ACTION_OUTPUTS.map((output) => output.name),
  );
  assert.equal(metadata.inputs['phase-number']!.description, ACTION_INPUTS.find((input) => input.name === 'phase-number')!.description);
  assert.equal(metadata.inputs['exit-code']!.default, 'true');
  assert.ok(Object.values(metadata.inputs).every((input) => input.required === false));
});

// docs/reference/action.md's tables are rendered here from the lists. After
// changing an input or an output, regenerate them with
//   node build.mjs --tests && GSD_CHECK_WRITE_DOCS=1 node --test .test-out/action/metadata.test.mjs
const ACTION_MD = join(ROOT, 'docs', 'reference', 'action.md');
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function renderedPage(markdown: string): string {
  const inputs = [
    '| Input | Takes | Default | Sets |',
    '|---|---|---|---|',
    ...ACTION_INPUTS.map(
      (input) =>
        `| \`${input.name}\` | ${{ switch: 'true or false', list: 'one value a line', value: 'a value' }[input.shape]} | ${input.default === undefined ? '—' : `\`${cell(input.default)}\``} | ${cell(input.description)} |`,
    ),
  ];
  const outputs = ['| Output | What it holds |', '|---|---|', ...ACTION_OUTPUTS.map((output) => `| \`${output.name}\` | ${cell(output.description)} |`)];
  return markdown
    .replace(
      /(<!-- action inputs \(generated[^\n]*-->\n)[\s\S]*?(<!-- end action inputs -->)/,
      (_all, open: string, close: string) => `${open}${inputs.join('\n')}\n${close}`,
    )
    .replace(
      /(<!-- action outputs \(generated[^\n]*-->\n)[\s\S]*?(<!-- end action outputs -->)/,
      (_all, open: string, close: string) => `${open}${outputs.join('\n')}\n${close}`,
    );
}

test("docs/reference/action.md's tables are the Action's inputs and outputs", () => {
  const page = readFileSync(ACTION_MD, 'utf8');
  const wanted = renderedPage(page);
  if (process.env.GSD_CHECK_WRITE_DOCS === '1') writeFileSync(ACTION_MD, wanted);
  assert.equal(page, wanted, 'regenerate: see the comment above this test');
  assert.match(wanted, /\| `phase-number` \| a value \| — \|/);
});

test("action.yml is valid by GitHub's own action schema (the workflow parser's strict one)", () => {
  const parsed = parseAction({ name: 'action.yml', content: readFileSync(join(ROOT, 'action.yml'), 'utf8') }, new NoOperationTraceWriter());
  assert.deepEqual(
    parsed.context.errors.getErrors().map((error) => error.message),
    [],
  );
  const broken = parseAction({ name: 'action.yml', content: actionYaml().replace('using: "node24"', 'using: "node99"') }, new NoOperationTraceWriter());
  assert.equal(broken.context.errors.getErrors().length, 1);
});
