import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { ACTION_INPUTS } from '../../src/action/inputs.ts';
import { ACTION_OUTPUTS } from '../../src/action/outputs.ts';
import { runAction } from '../helpers/action-run.ts';
import { project } from '../helpers/project.ts';
import { ROOT } from '../helpers/support.ts';
import { workflowCommands } from '../helpers/workflow-commands.ts';

// README.md's Action section, for a reader who wants the `uses:` line, the
// inputs, the outputs and the permissions without following a link: its
// tables come from the Action's lists, and its picture of a halt (the
// annotation, the job summary) from a run of the Action as the runner
// starts it. After changing an input, an output or the reports, regenerate
// it with
//   npm run build && node build.mjs --tests && GSD_CHECK_WRITE_DOCS=1 node --test .test-out/action/readme.test.mjs
const README = join(ROOT, 'README.md');
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

// The inputs by what they are for; every input is in exactly one group
// (the test holds it), so a new flag of gates run cannot go unlisted.
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['which points', ['point', 'all-points', 'reached', 'ship']],
  ['whose gates', ['builtin', 'render', 'gsd', 'consent', 'require-tested-gsd', 'capability', 'hooks', 'config']],
  ['the phase', ['current-phase', 'phase-number', 'phase-dir', 'phase-req-ids']],
  ['the project', ['cwd', 'project-dir', 'ws']],
  ['how they run', ['query-command', 'query-timeout', 'concurrency', 'kill-after', 'exit-contract']],
  ['the step', ['exit-code', 'report']],
];

function tables(): string {
  const named = (name: string): string => {
    const input = ACTION_INPUTS.find((i) => i.name === name);
    assert.ok(input !== undefined, `README groups an input the Action does not have: ${name}`);
    return `\`${name}\`${input.default === undefined ? '' : ` (\`${input.default}\`)`}`;
  };
  const inputs = ['| Inputs, for | |', '|---|---|', ...GROUPS.map(([group, names]) => `| ${group} | ${names.map(named).join(', ')} |`)];
  const outputs = ['| Output | What it holds |', '|---|---|', ...ACTION_OUTPUTS.map((output) => `| \`${output.name}\` | ${cell(output.description)} |`)];
  return `${inputs.join('\n')}\n\n${outputs.join('\n')}\n`;
}

test("every input of the Action is in one group of the README's table", () => {
  const grouped = GROUPS.flatMap(([, names]) => names);
  assert.deepEqual([...grouped].sort(), ACTION_INPUTS.map((input) => input.name).sort());
  assert.equal(new Set(grouped).size, grouped.length);
});

// A ship whose SECURITY.md has two threats open, as the Action reports it:
// the error annotation as a pull request shows it, and the job summary as
// Markdown (which README.md renders as GitHub renders the summary), its
// times made fixed so the page holds still.
async function halt(t: Parameters<typeof project>[0]): Promise<string> {
  const workspace = project(t, {
    '.planning/STATE.md': '---\ncurrent_phase: 04\n---\n',
    '.planning/phases/04-ship/04-SECURITY.md': '---\nphase: 04\nthreats_open: 2\n---\n',
    '.planning/phases/04-ship/04-VERIFICATION.md': '---\nphase: 04\nstatus: passed\n---\n',
  });
  const run = await runAction(t, workspace, { point: 'ship:pre', reached: 'true', ship: 'true', builtin: 'true', 'current-phase': 'true' });
  assert.equal(run.status, 1, run.stderr);
  const [annotation] = workflowCommands(run.stderr).filter((c) => c.command === 'error');
  assert.ok(annotation !== undefined, run.stderr);
  const shown = [
    `On line ${annotation.properties.line} of \`${annotation.properties.file}\`, in the pull request's files:`,
    '',
    `> **${annotation.properties.title}**<br>`,
    `> ${annotation.data}`,
    '',
    'And in the job summary:',
    '',
    run.summary.replace(/\| \d+ ms \|/g, '| 3 ms |').trimEnd(),
    '',
  ];
  return shown.join('\n');
}

const between = (text: string, name: string, body: string): string =>
  text.replace(
    new RegExp(`(<!-- ${name} \\(generated[^\\n]*-->\\n)[\\s\\S]*?(<!-- end ${name} -->)`),
    (_all, open: string, close: string) => `${open}${body}${close}`,
  );

test("README.md's Action section: the inputs and outputs are the Action's, and its halt is what the Action prints", { timeout: 60_000 }, async (t) => {
  const page = readFileSync(README, 'utf8');
  const wanted = between(between(page, 'action tables', tables()), 'action halt', await halt(t));
  if (process.env.GSD_CHECK_WRITE_DOCS === '1') writeFileSync(README, wanted);
  assert.equal(page, wanted, 'regenerate: see the comment at the top of test/action/readme.test.ts');
  assert.match(wanted, /\| which points \| `point`, `all-points`, `reached`, `ship` \|/);
});
