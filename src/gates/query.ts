import type { Envelope, GateContext } from '../predicate/kind.ts';
import { fail, ok, stopped, type Failure, type Result } from '../failure.ts';
import { endingText, startFailure, type RunResult } from '../run/runner.ts';
import type { GsdAsk } from '../gsd/ask.ts';
import { gsdCommand, type Gsd } from '../gsd/installation.ts';
import { isJsonObject, MAX_DEPTH, nestsDeeperThan, parseJson } from '../json/parse.ts';
import { phaseEnv } from '../predicate/phase-env.ts';
import { tailOf } from '../text/tail.ts';
import { printable } from '../text/format.ts';

// How query gates are answered: a shell command that GSD's own query code
// answers through, e.g. GSD's workflow form
// `gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw`. The query and the
// phase values reach it as environment variables, never as its text.
export interface QueryCommand {
  readonly command: string;
  readonly timeoutMs: number;
  // With GSD's own form: GSD's answer to each query gate of the run, asked
  // for all at once before the gates run (askedOfGsd), by query and GSD_CAP_DIR.
  readonly answers?: ReadonlyMap<string, RunResult>;
}

// A query gate as GSD is asked it: the query, and the capability's folder.
export interface QueryGate {
  readonly query: string;
  readonly capDir: string | undefined;
}

const answerKey = (query: string, capDir: string | undefined): string => `${capDir ?? ''}\0${query}`;

// GSD's answers to the run's active query gates (`queries`, each once),
// each asked as the workflows ask it, `check <query> "$PHASE_NUMBER" --raw`,
// in one go.
export async function askedOfGsd(queries: readonly QueryGate[], how: QueryCommand, ask: GsdAsk, context: GateContext): Promise<QueryCommand> {
  const asked = new Map(queries.map((gate) => [answerKey(gate.query, gate.capDir), gate]));
  const phase = phaseEnv(context);
  const requests = [...asked.values()].map(({ query, capDir }) => ({
    args: ['check', query, phase.PHASE_NUMBER ?? '', '--raw'],
    env: { ...phase, GSD_QUERY: query, ...(capDir === undefined ? {} : { GSD_CAP_DIR: capDir }) },
    timeoutMs: how.timeoutMs,
    keepStdout: ANSWER_BYTES,
  }));
  const answers = await ask(requests);
  return { ...how, answers: new Map([...asked.keys()].map((key, index) => [key, answers[index]!])) };
}

type QueryDetails = {
  readonly kind: 'query';
  readonly query: string;
  readonly command: string;
  // Always 0: any other exit is a failure, routed by onError.
  readonly exitCode: 0;
  readonly answer: Readonly<Record<string, unknown>>;
};

// The query command given, --query-command or else GSD_CHECK_QUERY_COMMAND;
// undefined when neither is.
export function givenQueryCommand(given: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  return given ?? (env.GSD_CHECK_QUERY_COMMAND?.trim() ? env.GSD_CHECK_QUERY_COMMAND : undefined);
}

// The query command given, else GSD's own workflow form run by the GSD
// gsd_run would find (by its absolute path: sh would otherwise look it up
// again, through relative PATH entries from the project root, and could run
// another program); else none, and each query gate says so.
export function queryCommand(given: string | undefined, timeoutSeconds: number, gsd: Gsd | undefined): QueryCommand | undefined {
  const timeoutMs = timeoutSeconds * 1000;
  if (given !== undefined) return { command: given, timeoutMs };
  return gsd === undefined ? undefined : { command: gsdCommand(gsd, 'check "$GSD_QUERY" "$PHASE_NUMBER" --raw'), timeoutMs };
}

// An answer is a small JSON object; more than this is not one.
const ANSWER_BYTES = 1024 * 1024;

// The two-step contract's first step for a query gate: a non-zero exit, or
// stdout that is not a JSON object with a boolean `block`, is a failure
// (reason query-failed), routed by onError; otherwise the answer is the
// envelope. A start the system refused, or a project root that is gone,
// fails as a command-exit-zero gate's start does.
export async function evaluateQuery(
  query: string,
  capDir: string | undefined,
  how: QueryCommand | undefined,
  context: GateContext,
): Promise<Result<Envelope<QueryDetails>>> {
  const failed = (what: string): { ok: false; failure: Failure } => fail('query-failed', `query ${query}: ${what}`);
  if (how === undefined) {
    return failed('no query command: give --query-command (or GSD_CHECK_QUERY_COMMAND), or put gsd-tools on PATH');
  }
  const result =
    how.answers?.get(answerKey(query, capDir)) ??
    (await context.run({
      command: how.command,
      cwd: context.projectRoot,
      env: { ...context.env, ...phaseEnv(context), GSD_QUERY: query, ...(capDir === undefined ? {} : { GSD_CAP_DIR: capDir }) },
      timeoutMs: how.timeoutMs,
      killAfterMs: context.killAfterMs,
      signal: context.signal,
      force: context.force,
      keepStdout: ANSWER_BYTES,
    }));
  if (result.status === 'stopped') return stopped(result.stop);
  if (result.status === 'not-started') {
    const started = startFailure(result.error, context.projectRoot, `query ${query}'s command`);
    return started.ok ? failed(`the query command could not start: ${started.value}`) : started;
  }
  const tail = tailOf(result.output.text).text;
  const said = tail === '' ? '' : `: ${tail}`;
  if (result.timedOut || result.exitCode !== 0) return failed(`${endingText('the query command', result, how.timeoutMs / 1000, 'sentence')}${said}`);
  const stdout = result.stdout;
  if (stdout === undefined || !stdout.complete) return failed(`the answer is larger than ${ANSWER_BYTES} bytes`);
  if (stdout.text.trim() === '') return failed('the query command printed no answer');
  // A key given twice is refused here as everywhere (D15): `block` twice
  // would leave which verdict counts to the parser.
  const parsed = parseJson(stdout.text, 'the answer');
  if (!parsed.ok) return failed(parsed.failure.message);
  const answer = parsed.value;
  if (!isJsonObject(answer) || typeof answer.block !== 'boolean') {
    return failed('the answer is not a JSON object with a boolean "block"');
  }
  if (nestsDeeperThan(answer, MAX_DEPTH)) return failed(`the answer nests deeper than ${MAX_DEPTH} levels`);
  const own = typeof answer.message === 'string' && answer.message.trim() !== '' ? answer.message : undefined;
  const message = printable(own ?? `query ${query} answered block: ${answer.block}${answer.block ? reasonsOf(answer) : ''}`);
  return ok({ block: answer.block, message, details: { kind: 'query', query, command: how.command, exitCode: 0, answer } });
}

// GSD's answers say why in fields of their own (ui.plan-gate's `frontend`,
// `hasUiSpec`, `matchedToken`, `matchedLine`): where an answer that blocks
// has no message, its scalar fields are the reason, each shown short.
const REASON_FIELDS = 8;
const REASON_TEXT = 120;

function reasonsOf(answer: Readonly<Record<string, unknown>>): string {
  const fields = Object.entries(answer).filter(
    ([key, value]) => key !== 'block' && key !== 'message' && (value === null || ['string', 'number', 'boolean'].includes(typeof value)),
  );
  if (fields.length === 0) return '';
  const shown = fields
    .slice(0, REASON_FIELDS)
    .map(
      ([key, value]) =>
        `${key}: ${typeof value === 'string' ? JSON.stringify(value.length > REASON_TEXT ? `${value.slice(0, REASON_TEXT)}…` : value) : String(value)}`,
    );
  return ` (${shown.join(', ')}${fields.length > REASON_FIELDS ? `, and ${fields.length - REASON_FIELDS} more` : ''})`;
}
