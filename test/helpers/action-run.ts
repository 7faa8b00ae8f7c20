// The GitHub Action's entry as the runner starts it: `node dist/action.js`
// with the runner's own Node and no other on PATH, the checkout as the
// current directory, every input of action.yml as INPUT_<NAME> (upper case,
// hyphens kept; its default, or empty, when the workflow gives none), and
// the GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_WORKSPACE the runner sets.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { TestContext } from './bounded.ts';
import { ROOT, tempDir } from './support.ts';

export const ENTRY = join(ROOT, 'dist', 'action.js');
export const METADATA = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  readonly summary: string;
}

// GITHUB_OUTPUT read as the runner reads it: `name<<delimiter` blocks.
function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (head === null) continue;
    const end = lines.indexOf(head[2]!, i + 1);
    assert.ok(end > i, `unterminated output ${head[1]}`);
    outputs[head[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

export function runAction(
  t: TestContext,
  workspace: string,
  inputs: Record<string, string>,
  onSpawn?: (child: ChildProcess) => void,
  entry = ENTRY,
  extra: Record<string, string> = {},
): Promise<Run> {
  const runner = tempDir(t, 'gsd-check-runner-');
  // A PATH with the tools a gate's command uses and no node: the entry must
  // use the Node it was started with.
  const bin = join(runner, 'bin');
  mkdirSync(bin);
  for (const tool of ['sh', 'sleep', 'cat']) symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
  const files = { output: join(runner, 'output'), summary: join(runner, 'summary.md') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  const env: Record<string, string> = {
    PATH: bin,
    HOME: runner,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    RUNNER_TEMP: runner,
    ...extra,
  };
  // No runner sets it: the mutation harness's coverage (mutate/coverage.mjs) must reach the Action's processes.
  if (process.env.NODE_V8_COVERAGE !== undefined) env.NODE_V8_COVERAGE = process.env.NODE_V8_COVERAGE;
  for (const [name, input] of Object.entries(METADATA.inputs)) env[`INPUT_${name.toUpperCase()}`] = inputs[name] ?? input.default ?? '';
  for (const name of Object.keys(inputs)) assert.ok(Object.hasOwn(METADATA.inputs, name), `action.yml has no input ${name}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    onSpawn?.(child);
    child.once('error', reject);
    child.once('close', (status) =>
      resolve({ status, stdout, stderr, outputs: readOutputs(readFileSync(files.output, 'utf8')), summary: readFileSync(files.summary, 'utf8') }),
    );
  });
}
