// A GitHub Actions job run the way the runner runs it, for the workflows the
// docs offer: each step in order on the project's checkout, `run:` steps in
// bash (`bash --noprofile --norc -eo pipefail`, the runner's default), the
// Action from its own action.yml (`node <runs.main>` with its INPUT_*
// variables), GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY, and `if:`.
// What a workflow may use is only what the docs need; anything else
// (another action, another expression) is an error, not a silent pass.
// Plain JavaScript: compat/ runs the workflows that install GSD.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parse } from 'yaml';
import { collect } from './ci-tools.mjs';

// Runs every job of `workflow` (its text) in `workspace`. `env` is the
// runner's environment (PATH with the Node the job's setup would give);
// `substitute(step)` may answer a step the test provides otherwise (GSD's
// install, where GSD is already on PATH), returning its log text. Returns
// the log (`▶ <name>` for each named step that ran, then what it printed)
// and the last line the docs show: `job: success` or `job: failure (<step>
// exited N)`.
export async function runWorkflow(workflow, { workspace, env, substitute = () => undefined, timeoutMs = 120_000 }) {
  const parsed = parse(workflow);
  const log = [];
  for (const [id, job] of Object.entries(parsed.jobs)) {
    const temp = mkdtempSync(join(tmpdir(), 'gsd-check-runner-'));
    try {
      log.push(...(await runJob(id, job, { workspace, env, temp, substitute, timeoutMs })));
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }
  return `${log.join('\n')}\n`;
}

async function runJob(id, job, { workspace, env, temp, substitute, timeoutMs }) {
  const log = [];
  const outputs = {};
  const paths = [];
  let failed;
  const summary = join(temp, 'step-summary.md');
  writeFileSync(summary, '');
  for (const [index, step] of job.steps.entries()) {
    const condition = step.if ?? 'success()';
    if (!['success()', 'always()'].includes(condition)) throw new Error(`job ${id}, step ${index}: if: ${condition} is not supported here`);
    if (condition === 'success()' && failed !== undefined) continue;
    if (step.name !== undefined) log.push(`▶ ${step.name}`);
    const output = join(temp, `output-${index}`);
    const githubPath = join(temp, `path-${index}`);
    writeFileSync(output, '');
    writeFileSync(githubPath, '');
    const stepEnv = {
      ...env,
      ...job.env,
      ...step.env,
      PATH: [...paths, env.PATH].join(delimiter),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_PATH: githubPath,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: temp,
    };
    const expand = (text) => expression(text, outputs, `job ${id}, step ${index}`);
    let result;
    const provided = substitute(step);
    if (provided !== undefined) result = { status: 0, text: provided };
    else if (step.run !== undefined) {
      const script = join(temp, `step-${index}.sh`);
      writeFileSync(script, expand(step.run));
      result = await collect('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env: stepEnv, timeoutMs });
    } else result = await uses(step, { workspace, env: stepEnv, expand, timeoutMs, where: `job ${id}, step ${index}` });
    if (result.text !== '') log.push(result.text.replace(/\n$/, ''));
    if (step.id !== undefined) outputs[step.id] = readOutputs(readFileSync(output, 'utf8'));
    paths.unshift(...readFileSync(githubPath, 'utf8').split('\n').filter((line) => line !== '').reverse());
    if (result.status !== 0 && failed === undefined) failed = `${step.name ?? step.uses ?? 'a step'} exited ${result.status}`;
  }
  log.push(failed === undefined ? 'job: success' : `job: failure (${failed})`);
  return log;
}

// The actions the docs' workflows use: the checkout and Node set-up the
// test has already done, the artifact upload (its file must exist), and
// gsd-check's Action from the copy in the project.
async function uses(step, { workspace, env, expand, timeoutMs, where }) {
  const name = step.uses;
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, expand(String(value))]));
  if (/^actions\/checkout@v\d+$/.test(name) || /^actions\/setup-node@v\d+$/.test(name)) return { status: 0, text: '' };
  if (/^actions\/upload-artifact@v\d+$/.test(name)) {
    const found = existsSync(join(workspace, inputs.path));
    return { status: 0, text: found ? '' : `::warning::No files were found with the provided path: ${inputs.path}. No artifacts will be uploaded.` };
  }
  if (name.startsWith('./')) {
    const dir = join(workspace, name);
    const metadata = parse(readFileSync(join(dir, 'action.yml'), 'utf8'));
    if (metadata.runs.using !== 'node24') throw new Error(`${where}: ${name} runs ${metadata.runs.using}`);
    const inputEnv = {};
    for (const [input, definition] of Object.entries(metadata.inputs ?? {})) {
      inputEnv[`INPUT_${input.replaceAll(' ', '_').toUpperCase()}`] = inputs[input] ?? definition.default ?? '';
    }
    for (const input of Object.keys(inputs)) if (!Object.hasOwn(metadata.inputs ?? {}, input)) throw new Error(`${where}: ${name} has no input ${input}`);
    return collect(process.execPath, [join(dir, metadata.runs.main)], { cwd: workspace, env: { ...env, ...inputEnv }, timeoutMs });
  }
  throw new Error(`${where}: uses: ${name} is not an action these tests run`);
}

// `${{ steps.<id>.outputs.<name> }}`, the one expression the docs use.
function expression(text, outputs, where) {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, inner) => {
    const match = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(inner);
    if (match === null) throw new Error(`${where}: the expression \${{ ${inner} }} is not supported here`);
    const value = outputs[match[1]]?.[match[2]];
    if (value === undefined) throw new Error(`${where}: steps.${match[1]}.outputs.${match[2]} was never set`);
    return value;
  });
}

// GITHUB_OUTPUT as the runner reads it: `name=value` lines and
// `name<<delimiter` blocks.
function readOutputs(text) {
  const outputs = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (block !== null) {
      const end = lines.indexOf(block[2], i + 1);
      if (end === -1) throw new Error(`GITHUB_OUTPUT: ${block[1]} is never closed`);
      outputs[block[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const line = /^([\w-]+)=(.*)$/.exec(lines[i]);
    if (line !== null) outputs[line[1]] = line[2];
  }
  return outputs;
}
