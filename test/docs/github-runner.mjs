// A GitHub Actions job run the way the runner runs it, for the workflows the
// docs offer: the workflow triggered by one event (its `on:` must list it),
// each job whose `if:` holds, each step in order on the project's checkout,
// `run:` steps in bash (`bash --noprofile --norc -eo pipefail`, the runner's
// default), the Action from its own action.yml (`node <runs.main>` with its
// INPUT_* variables), GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY, and
// `${{ }}` in `if:`, `with:`, `env:` and `run:`, evaluated by GitHub's own
// expression library (@actions/expressions) over the `github`, `steps` and
// `env` contexts. What a workflow may use is only what the docs need;
// anything else (another action, another context) is an error, not a silent
// pass. Plain JavaScript: compat/ runs the workflows that install GSD.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { data, Evaluator, Lexer, Parser } from '@actions/expressions';
import { truthy } from '@actions/expressions/result';
import { parse } from 'yaml';
import { collect } from './ci-tools.mjs';

// The event a run is triggered by, as a ci-run block names it: `pull_request`
// (the default) with `head_ref=<branch>` (default `topic`), `title=<the pull
// request's title>` (default `Add a feature`), `action=<its activity type>`
// (default `synchronize`: a push to it) and `labels=<a>,<b>`, or `push` with
// `ref=<branch>` (default `main`).
export function eventOf(words) {
  const [name = 'pull_request', ...pairs] = words;
  if (name !== 'pull_request' && name !== 'push') throw new Error(`a run by the event ${name}, which these tests do not make`);
  const given = Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`${pair}: an event's detail is <key>=<value>`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const known = name === 'pull_request' ? ['head_ref', 'title', 'action', 'labels'] : ['ref'];
  for (const key of Object.keys(given)) if (!known.includes(key)) throw new Error(`${name} has no detail ${key} here (${known.join(', ')})`);
  if (name === 'push') {
    const branch = given.ref ?? 'main';
    return {
      name,
      branch,
      github: { event_name: name, ref: `refs/heads/${branch}`, ref_name: branch, head_ref: '', base_ref: '', event: { ref: `refs/heads/${branch}` } },
    };
  }
  const head = given.head_ref ?? 'topic';
  const title = given.title ?? 'Add a feature';
  const action = given.action ?? 'synchronize';
  const labels = (given.labels ?? '')
    .split(',')
    .filter((label) => label !== '')
    .map((label) => ({ name: label }));
  return {
    name,
    action,
    branch: head,
    github: {
      event_name: name,
      ref: 'refs/pull/1/merge',
      ref_name: '1/merge',
      head_ref: head,
      base_ref: 'main',
      event: { action, number: 1, pull_request: { number: 1, title, head: { ref: head }, base: { ref: 'main' }, labels } },
    },
  };
}

// Runs every job of `workflow` (its text) in `workspace` for `event`
// (eventOf). `env` is the runner's environment (PATH with the Node the job's
// setup would give); `substitute(step, { workspace })` may answer a step the
// test provides otherwise (GSD's install), returning its log text. Returns
// the log (`▶ <name>` for each named step that ran, then what it printed)
// and the last line the docs show: `job: success`, `job: failure (<step>
// exited N)` or `job: skipped`.
export async function runWorkflow(workflow, { workspace, env, event = eventOf([]), substitute = () => undefined, timeoutMs = 120_000 }) {
  const parsed = parse(workflow);
  triggered(parsed.on, event);
  const log = [];
  for (const [id, job] of Object.entries(parsed.jobs)) {
    const context = { github: event.github, steps: {}, env: { ...parsed.env, ...job.env } };
    if (job.if !== undefined && !holds(job.if, context, { failed: false }, `job ${id}`)) {
      log.push('job: skipped');
      continue;
    }
    const temp = mkdtempSync(join(tmpdir(), 'gsd-check-runner-'));
    try {
      log.push(...(await runJob(id, job, { workspace, env, event, temp, context, substitute, timeoutMs })));
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }
  return `${log.join('\n')}\n`;
}

// The workflow must run for the event: a page that shows a run its `on:`
// never makes shows nothing true.
function triggered(on, event) {
  const events = typeof on === 'string' ? { [on]: null } : Array.isArray(on) ? Object.fromEntries(on.map((e) => [e, null])) : on;
  if (!Object.hasOwn(events, event.name)) throw new Error(`the workflow has no on: ${event.name}`);
  const filter = events[event.name] ?? {};
  for (const key of Object.keys(filter)) {
    if (key !== 'branches' && !(key === 'types' && event.name === 'pull_request')) throw new Error(`on.${event.name}.${key} is not supported here`);
  }
  if (filter.branches !== undefined) {
    const branch = event.name === 'push' ? event.branch : 'main';
    if (!filter.branches.includes(branch)) throw new Error(`on.${event.name}.branches does not take ${branch}: the workflow would not run`);
  }
  // A pull request's activity types, where `types` names none: GitHub's default.
  if (event.name === 'pull_request' && !(filter.types ?? ['opened', 'synchronize', 'reopened']).includes(event.action)) {
    throw new Error(`on.pull_request.types does not take ${event.action}: the workflow would not run`);
  }
}

async function runJob(id, job, { workspace, env, event, temp, context, substitute, timeoutMs }) {
  const log = [];
  const paths = [];
  let failed;
  const summary = join(temp, 'step-summary.md');
  writeFileSync(summary, '');
  for (const [index, step] of job.steps.entries()) {
    const where = `job ${id}, step ${index}`;
    if (!holds(step.if ?? 'success()', context, { failed: failed !== undefined }, where)) continue;
    if (step.name !== undefined) log.push(`▶ ${step.name}`);
    const output = join(temp, `output-${index}`);
    const githubPath = join(temp, `path-${index}`);
    writeFileSync(output, '');
    writeFileSync(githubPath, '');
    const expand = (text) => expanded(text, context, where);
    const stepEnv = {
      ...env,
      ...Object.fromEntries(Object.entries({ ...context.env, ...step.env }).map(([key, value]) => [key, expand(String(value))])),
      PATH: [...paths, env.PATH].join(delimiter),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: event.github.event_name,
      GITHUB_REF: event.github.ref,
      GITHUB_HEAD_REF: event.github.head_ref,
      GITHUB_BASE_REF: event.github.base_ref,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_PATH: githubPath,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: temp,
    };
    let result;
    const provided = substitute(step, { workspace });
    if (provided !== undefined) result = { status: 0, text: provided };
    else if (step.run !== undefined) {
      const script = join(temp, `step-${index}.sh`);
      writeFileSync(script, expand(step.run));
      result = await collect('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env: stepEnv, timeoutMs });
    } else result = await uses(step, { workspace, env: stepEnv, expand, timeoutMs, where });
    if (result.text !== '') log.push(result.text.replace(/\n$/, ''));
    if (step.id !== undefined) context.steps[step.id] = { outputs: readOutputs(readFileSync(output, 'utf8')) };
    paths.unshift(
      ...readFileSync(githubPath, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .reverse(),
    );
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

const CONTEXTS = ['github', 'steps', 'env'];

// One expression's value, by GitHub's library, with the job's status
// functions as the runner gives them.
function evaluate(text, context, status, where) {
  const lexed = new Lexer(text).lex();
  const statusFunctions = [
    ['success', () => !status.failed],
    ['failure', () => status.failed],
    ['always', () => true],
    ['cancelled', () => false],
  ];
  const expression = new Parser(
    lexed.tokens,
    CONTEXTS,
    statusFunctions.map(([name]) => ({ name, minArgs: 0, maxArgs: 0 })),
  ).parse();
  const functions = new Map(statusFunctions.map(([name, call]) => [name, { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(call()) }]));
  try {
    return new Evaluator(expression, JSON.parse(JSON.stringify(context), data.reviver), functions).evaluate();
  } catch (error) {
    throw new Error(`${where}: \${{ ${text} }}: ${error.message}`);
  }
}

// An `if:` as the runner reads it: `${{ }}` optional, and `success() &&`
// before one that calls no status function.
function holds(condition, context, status, where) {
  const text = String(condition)
    .trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, '$1')
    .trim();
  const own = /\b(?:success|failure|always|cancelled)\s*\(/.test(text) ? text : `success() && (${text})`;
  return truthy(evaluate(own, context, status, where));
}

// A value's `${{ }}` parts, each replaced by its value as text.
function expanded(text, context, where) {
  return text.replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_all, inner) => evaluate(inner, context, { failed: false }, where).coerceString());
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
