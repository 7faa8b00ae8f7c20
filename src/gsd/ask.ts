import { basename, dirname, join } from 'node:path';
import { isJsonObject, parseJson } from '../json/parse.ts';
import { entryKind, realPath } from '../fs/entry.ts';
import { readSmallFile } from '../fs/read.ts';
import type { GateContext } from '../predicate/kind.ts';
import { TAIL_BYTES } from '../run/output.ts';
import type { RunResult } from '../run/runner.ts';
import { quoted } from '../text/shell.ts';
import { BATCH_SCRIPT } from './batch-script.ts';
import { gsdCommand, packageVersion, type Gsd } from './installation.ts';

// How gsd-check asks GSD: every request of a run (which GSD it is, a point's
// hooks, a query's answer) is a `gsd-tools <args>` call whose exit status,
// stdout and stderr are GSD's answer. The requests a run has at one time go
// to one GSD process (batch-script.ts), which answers each with GSD's own
// code, where that GSD is one compat/ holds the process to; anything else,
// and any failure of that process, asks once a request, as GSD's workflows
// do, with one warning line. Either way each request gets a RunResult, as a
// command's run gives it.

export interface GsdRequest {
  readonly args: readonly string[];
  // Beside the run's environment (context.env): what this request adds.
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  // The head of stdout kept: the answer to parse.
  readonly keepStdout: number;
}

export type GsdAsk = ((requests: readonly GsdRequest[]) => Promise<RunResult[]>) & {
  // Whether the requests go to one GSD process: a request costs next to
  // nothing then, and a GSD start each otherwise.
  readonly batches: boolean;
};

// The GSD lines whose gsd-tools.cjs the batch is held to, byte for byte, by
// compat/test/gsd-batch.test.mjs (compat/package.json pins both).
const BATCH_LINES = ['1.11.', '1.14.'];
// The requests and the program reach the process as environment variables,
// each of which Linux bounds (MAX_ARG_STRLEN, 128 KiB).
const ENV_VALUE_BYTES = 120 * 1024;

// How requests asked once each run at once: the run's own pool.
type Pool = <T, R>(items: readonly T[], work: (item: T) => Promise<R>) => Promise<R[]>;

// GSD_CHECK_GSD_BATCH=off asks once a request, as before the batch: for a
// GSD the batch misreads, and to measure what the batch saves (bench/).
// `ahead`: requests the run will make later (a --render run's point hooks,
// asked after which GSD it is): they go with the first batch, and are
// answered from it when they come; asked once a request, nothing is asked
// before it is needed. A request is asked once a run either way.
export function gsdAsker(gsd: Gsd, context: GateContext, warn: (line: string) => void, pool: Pool, ahead: readonly GsdRequest[] = []): GsdAsk {
  const tools = context.env.GSD_CHECK_GSD_BATCH === 'off' ? undefined : batchTarget(gsd);
  let warned = false;
  let pending = ahead;
  const answered = new Map<string, RunResult>();
  const perRequest = (requests: readonly GsdRequest[]): Promise<RunResult[]> => pool(requests, (request) => askOne(gsd, request, context));
  // The answers to `requests`, and to whatever is pending, kept by request.
  const asking = async (requests: readonly GsdRequest[]): Promise<void> => {
    const asked = [...requests, ...pending.filter((request) => !requests.some((r) => keyOf(r) === keyOf(request)) && !answered.has(keyOf(request)))];
    pending = [];
    const answers = tools === undefined || asked.length < 2 ? undefined : await askAll(tools, asked, context);
    if (answers === undefined || !Array.isArray(answers)) {
      if (answers !== undefined && answers.status === 'stopped') {
        for (const request of requests) answered.set(keyOf(request), answers.result);
        return;
      }
      if (answers !== undefined && !warned)
        warn(`gsd-check: warning: one GSD process could not answer the run's requests (${answers.why}); asking GSD once a request`);
      warned ||= answers !== undefined;
      const each = await perRequest(requests);
      each.forEach((answer, index) => answered.set(keyOf(requests[index]!), answer));
      return;
    }
    answers.forEach((answer, index) => answered.set(keyOf(asked[index]!), answer));
  };
  const ask = async (requests: readonly GsdRequest[]): Promise<RunResult[]> => {
    const missing = requests.filter((request, index) => !answered.has(keyOf(request)) && requests.findIndex((r) => keyOf(r) === keyOf(request)) === index);
    if (missing.length > 0) await asking(missing);
    return requests.map((request) => answered.get(keyOf(request))!);
  };
  return Object.assign(ask, { batches: tools !== undefined });
}

const keyOf = (request: GsdRequest): string => JSON.stringify([request.args, request.env, request.timeoutMs, request.keepStdout]);

// The gsd-tools.cjs a batch loads: the file found, through links (npm's bin
// link), or the one beside GSD's own gsd_run launcher, which runs it with the
// node on PATH as the batch does; of a GSD line the batch is held to. None
// for a launcher of another kind or a GSD of another version, which are
// asked once a request.
function batchTarget(gsd: Gsd): string | undefined {
  const real = realPath(gsd.path);
  if (real === undefined || !['gsd-tools.cjs', 'gsd_run'].includes(basename(real))) return undefined;
  const tools = join(dirname(real), 'gsd-tools.cjs');
  // The batch leans on lib/cli-exit.cjs's runMain, which gsd-tools.cjs calls.
  if (entryKind(tools) !== 'file' || entryKind(join(dirname(real), 'lib', 'cli-exit.cjs')) !== 'file') return undefined;
  const version = packageVersion(tools, readSmallFile);
  return version !== undefined && BATCH_LINES.some((line) => version.startsWith(line)) ? tools : undefined;
}

async function askOne(gsd: Gsd, request: GsdRequest, context: GateContext): Promise<RunResult> {
  return context.run({
    command: gsdCommand(gsd, request.args.map(quoted).join(' ')),
    cwd: context.projectRoot,
    env: { ...context.env, ...request.env },
    timeoutMs: request.timeoutMs,
    killAfterMs: context.killAfterMs,
    signal: context.signal,
    force: context.force,
    keepStdout: request.keepStdout,
  });
}

type Unanswered = { readonly status: 'failed'; readonly why: string } | { readonly status: 'stopped'; readonly result: RunResult };

async function askAll(tools: string, requests: readonly GsdRequest[], context: GateContext): Promise<RunResult[] | Unanswered> {
  const body = JSON.stringify({ env: context.env, requests: requests.map((r) => ({ cwd: context.projectRoot, args: r.args, env: r.env })) });
  if (Buffer.byteLength(body) > ENV_VALUE_BYTES) return { status: 'failed', why: 'the requests are too large to hand over' };
  const keep = requests.reduce((sum, r) => sum + r.keepStdout, 0);
  const result = await context.run({
    command: `node -e "$GSD_CHECK_BATCH" ${quoted(tools)}`,
    cwd: context.projectRoot,
    env: { ...context.env, GSD_CHECK_BATCH: BATCH_SCRIPT, GSD_CHECK_BATCH_REQUESTS: body },
    timeoutMs: requests.reduce((sum, r) => sum + r.timeoutMs, 0),
    killAfterMs: context.killAfterMs,
    signal: context.signal,
    force: context.force,
    // Base64 takes 4 bytes for 3, and each answer its frame.
    keepStdout: Math.ceil(keep / 3) * 8 + requests.length * 1024,
  });
  if (result.status === 'stopped') return { status: 'stopped', result };
  if (result.status === 'not-started') return { status: 'failed', why: 'it could not start' };
  if (result.timedOut || result.exitCode !== 0)
    return { status: 'failed', why: result.timedOut ? 'it timed out' : `it exited ${result.exitCode ?? result.signal}` };
  if (result.stdout === undefined || !result.stdout.complete) return { status: 'failed', why: 'its answers were larger than the requests allow' };
  const parsed = parseJson(result.stdout.text, 'the answers');
  if (!parsed.ok || !Array.isArray(parsed.value) || parsed.value.length !== requests.length)
    return { status: 'failed', why: 'its answers were not one for each request' };
  const answers: RunResult[] = [];
  for (const [index, raw] of parsed.value.entries()) {
    const answer = answerOf(raw, requests[index]!, result.durationMs / requests.length);
    if (answer === undefined) return { status: 'failed', why: `its answer ${index + 1} was not one` };
    answers.push(answer);
  }
  return answers;
}

// An answer as the run of that request alone would have given it: its exit
// status, the head of stdout kept as asked, and the tail of both streams in
// the order GSD wrote them.
function answerOf(raw: unknown, request: GsdRequest, durationMs: number): RunResult | undefined {
  if (!isJsonObject(raw) || !Number.isInteger(raw.code) || typeof raw.stdout !== 'string' || typeof raw.stderr !== 'string' || !Array.isArray(raw.order))
    return undefined;
  const stdout = Buffer.from(raw.stdout, 'base64');
  const stderr = Buffer.from(raw.stderr, 'base64');
  const at = { 1: 0, 2: 0 };
  const chunks: Buffer[] = [];
  for (const entry of raw.order) {
    if (!Array.isArray(entry) || (entry[0] !== 1 && entry[0] !== 2) || !Number.isInteger(entry[1])) return undefined;
    const [fd, length] = entry as [1 | 2, number];
    chunks.push((fd === 1 ? stdout : stderr).subarray(at[fd], (at[fd] += length)));
  }
  const all = Buffer.concat(chunks);
  const tail = all.subarray(Math.max(0, all.length - TAIL_BYTES));
  return {
    status: 'ended',
    exitCode: raw.code as number,
    signal: null,
    timedOut: false,
    durationMs,
    output: { text: tail.toString('utf8'), stdoutBytes: stdout.length, stderrBytes: stderr.length, truncated: tail.length < all.length },
    stdout: { text: stdout.subarray(0, request.keepStdout).toString('utf8'), complete: stdout.length <= request.keepStdout },
  };
}
