import * as v from 'valibot';
import type { Envelope } from '../envelope.ts';
import { fail } from '../failure.ts';
import { defineKind, type Evaluation, type GateContext } from './kind.ts';
import { phaseEnv, singleQuotedPlaceholders } from '../predicate/placeholders.ts';
import { isResourceLimit, RETRY_FOR_MS } from '../run/resource-retry.ts';
import type { RunResult } from '../run/runner.ts';
import { describe } from '../text/describe.ts';
import { tailOf } from '../text/tail.ts';
import { printable } from '../text/visible.ts';

const MAX_COMMAND = 4096;
const DEFAULT_TIMEOUT = 30;

const seconds = (issue: { input: unknown }): string =>
  `must be a positive finite number of seconds, got ${describe(issue.input)}`;

const schema = v.object({
  kind: v.literal('command-exit-zero'),
  command: v.pipe(
    v.string((issue) => `must be a string, got ${describe(issue.input)}`),
    v.nonEmpty('must not be empty'),
    v.check((command) => command.trim() !== '', 'must not be only whitespace'),
    v.metadata({ jsonSchema: { pattern: '\\S' } }),
    // sh takes its script as a C string: it could never run past a NUL.
    v.check((command) => !command.includes('\0'), 'must not contain a NUL character'),
    v.metadata({ jsonSchema: { pattern: '^[^\\u0000]*$' } }),
    v.maxLength(MAX_COMMAND, (issue) => `must be at most ${MAX_COMMAND} characters, got ${issue.input.length}`),
  ),
  timeout: v.optional(v.pipe(v.number(seconds), v.finite(seconds), v.metadata({ jsonSchema: {} }), v.gtValue(0, seconds)), DEFAULT_TIMEOUT),
});

type Predicate = v.InferOutput<typeof schema>;

export const commandExitZero = defineKind({
  schema,
  details: {
    kind: 'value',
    command: 'value',
    cwd: 'value',
    timeout: 'value',
    exitCode: 'value',
    signal: 'value',
    timedOut: 'value',
    durationMs: 'value',
    stdoutBytes: 'value',
    stderrBytes: 'value',
    tailTruncated: 'value',
  },
  lint(predicate: Predicate) {
    return [...new Set(singleQuotedPlaceholders(predicate.command))].map((placeholder) => ({
      field: 'command',
      message: `${placeholder} inside single quotes stays literal: phase values reach the command as environment variables; use double quotes ("${placeholder}")`,
    }));
  },
  async evaluate(predicate: Predicate, context: GateContext): Promise<Evaluation> {
    const result = await context.run({
      command: predicate.command,
      cwd: context.projectRoot,
      env: { ...context.env, ...phaseEnv(context) },
      timeoutMs: predicate.timeout * 1000,
      killAfterMs: context.killAfterMs,
      signal: context.signal,
      force: context.force,
    });
    if (result.interrupted !== null) return { status: 'interrupted', signal: result.interrupted };
    if (result.spawnError === 'cwd-missing') {
      return { status: 'failure', failure: fail('bad-cwd', `project root ${context.projectRoot} is gone`).failure };
    }
    if (result.spawnError === 'cwd-denied') {
      return { status: 'failure', failure: fail('bad-cwd', `project root ${context.projectRoot}: permission denied (cannot enter it)`).failure };
    }
    if (isResourceLimit(result.spawnError)) {
      const failure = fail('resource-limit', `could not start sh: ${result.spawnError}, still after ${RETRY_FOR_MS / 1000} s of retries`).failure;
      return { status: 'failure', failure };
    }
    if (result.spawnError !== null && !SHELL_ERRORS.has(result.spawnError)) {
      return { status: 'failure', failure: fail('spawn-failed', `could not start sh: ${result.spawnError}`).failure };
    }
    return { status: 'envelope', envelope: envelopeOf(predicate, context, result) };
  },
});

// What a shell prints when it cannot run a program, so callers see the same
// message whether sh is missing or the command inside it is.
const SHELL_ERRORS = new Map([
  ['ENOENT', { exitCode: 127, text: 'sh: not found' }],
  ['EACCES', { exitCode: 126, text: 'sh: permission denied' }],
]);

function envelopeOf(predicate: Predicate, context: GateContext, result: RunResult): Envelope {
  const shellError = result.spawnError === null ? undefined : SHELL_ERRORS.get(result.spawnError);
  const exitCode = shellError?.exitCode ?? result.exitCode;
  const tail = shellError === undefined ? tailOf(result.output.text) : { text: shellError.text, cut: false };
  const withTail = (head: string): string => (tail.text === '' ? head : `${head}: ${printable(tail.text)}`);

  let message: string;
  if (result.timedOut) message = withTail(`command timed out after ${predicate.timeout}s`);
  else if (exitCode === null) message = withTail(`command killed by ${result.signal ?? 'an unknown signal'}`);
  else if (exitCode === 0) message = 'command exited 0';
  else message = withTail(`command exited ${exitCode}`);

  return {
    block: result.timedOut || exitCode !== 0,
    message,
    details: {
      kind: predicate.kind,
      command: predicate.command,
      cwd: context.projectRoot,
      timeout: predicate.timeout,
      exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      durationMs: Math.round(result.durationMs),
      stdoutBytes: result.output.stdoutBytes,
      stderrBytes: result.output.stderrBytes,
      tailTruncated: result.output.truncated || tail.cut,
    },
  };
}
