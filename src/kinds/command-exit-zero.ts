import * as v from 'valibot';
import { type Envelope, defineKind, type GateContext } from '../predicate/kind.ts';
import { fail, ok, stopped, type Result } from '../failure.ts';
import { phaseEnv } from '../predicate/phase-env.ts';
import { phaseVariables, singleQuotedPlaceholders } from '../predicate/placeholders.ts';
import { endingText, startFailure, type RunResult } from '../run/runner.ts';
import { describe, printable } from '../text/format.ts';
import { tailOf } from '../text/tail.ts';

const MAX_COMMAND = 4096;
const DEFAULT_TIMEOUT = 30;

const seconds = (issue: { input: unknown }): string => `must be a positive finite number of seconds, got ${describe(issue.input)}`;

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

type CommandExitZeroDetails = {
  readonly kind: 'command-exit-zero';
  readonly command: string;
  // The project root the command ran in.
  readonly cwd: string;
  readonly timeout: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  readonly tailTruncated: boolean;
};

export const commandExitZero = defineKind<typeof schema, CommandExitZeroDetails>({
  summary: ['runs "command" with sh in the project root; exit 0 passes', `("timeout": seconds, default ${DEFAULT_TIMEOUT})`],
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
  phaseUse(predicate: Predicate) {
    const named = phaseVariables(predicate.command);
    return named.length === 0 ? undefined : `runs a command that reads ${named.join(' and ')}`;
  },
  lint(predicate: Predicate) {
    return [...new Set(singleQuotedPlaceholders(predicate.command))].map((placeholder) => ({
      field: 'command',
      message: `${placeholder} inside single quotes stays literal: phase values reach the command as environment variables; use double quotes ("${placeholder}")`,
    }));
  },
  async evaluate(predicate: Predicate, context: GateContext): Promise<Result<Envelope<CommandExitZeroDetails>>> {
    const result = await context.run({
      command: predicate.command,
      cwd: context.projectRoot,
      env: { ...context.env, ...phaseEnv(context) },
      timeoutMs: predicate.timeout * 1000,
      killAfterMs: context.killAfterMs,
      signal: context.signal,
      force: context.force,
    });
    if (result.status === 'stopped') return stopped(result.stop);
    if (result.status === 'ended') return ok(envelopeOf(predicate, context, result, result));
    const started = startFailure(result.error, context.projectRoot, 'sh');
    if (!started.ok) return started;
    const shellError = SHELL_ERRORS.get(started.value);
    if (shellError === undefined) return fail('spawn-failed', `could not start sh: ${started.value}`);
    // sh itself missing or not runnable reads as a shell's own answer.
    return ok(envelopeOf(predicate, context, result, { exitCode: shellError.exitCode, signal: null, timedOut: false, tail: shellError.text }));
  },
});

// What a shell prints when it cannot run a program, so callers see the same
// message whether sh is missing or the command inside it is.
const SHELL_ERRORS = new Map([
  ['ENOENT', { exitCode: 127, text: 'sh: not found' }],
  ['EACCES', { exitCode: 126, text: 'sh: permission denied' }],
]);

interface Ending {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  // What a shell would have printed, standing in for the output's tail.
  readonly tail?: string;
}

function envelopeOf(predicate: Predicate, context: GateContext, result: RunResult, ending: Ending): Envelope<CommandExitZeroDetails> {
  const { exitCode } = ending;
  const tail = ending.tail === undefined ? tailOf(result.output.text) : { text: ending.tail, cut: false };
  const withTail = (head: string): string => (tail.text === '' ? head : `${head}: ${printable(tail.text)}`);

  const text = endingText('command', ending, predicate.timeout, 'headline');
  const message = !ending.timedOut && exitCode === 0 ? text : withTail(text);

  return {
    block: ending.timedOut || exitCode !== 0,
    message,
    details: {
      kind: predicate.kind,
      command: predicate.command,
      cwd: context.projectRoot,
      timeout: predicate.timeout,
      exitCode,
      signal: ending.signal,
      timedOut: ending.timedOut,
      durationMs: Math.round(result.durationMs),
      stdoutBytes: result.output.stdoutBytes,
      stderrBytes: result.output.stderrBytes,
      tailTruncated: result.output.truncated || tail.cut,
    },
  };
}
