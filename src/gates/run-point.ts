import { setMaxListeners } from 'node:events';
import { now } from '../run/time.ts';
import type { Envelope, DetailFields, Evaluation, GateContext } from '../predicate/kind.ts';
import { fail, failureLine, ok, REASONS, type Failure, type Result, type SourceLocation, Stop } from '../failure.ts';
import { MAX_DEPTH, nestsDeeperThan } from '../json/parse.ts';
import { oneLine, visible } from '../text/format.ts';
import type { Activation, Resolved, LoopPoint } from './activation.ts';
import type { GsdDetails } from './provenance.ts';
import type { Check, GateDeclaration } from './declaration.ts';
import { mapPool } from './pool.ts';
import { evaluateQuery, type QueryCommand } from './query.ts';
import { answerLocation } from './answer-location.ts';

// One gate of a loop point, from a capability file or from GSD's rendered
// hooks, as the point runner takes it.
export interface PointGate {
  // The capability's id (its file path when it has none).
  readonly capability: string;
  // The capability file's directory: GSD_CAP_DIR for the gate's command.
  readonly capDir?: string | undefined;
  // Its position among the capability's gates (declared, or rendered).
  readonly index: number;
  readonly declaration: GateDeclaration;
  // How its `when` resolved; undefined when it came active from GSD.
  readonly activation?: Resolved | undefined;
}

// What a point's envelope carries in its details (for --pick); `gsd` when
// a GSD decided (provenance.ts).
type PointDetails = { readonly kind: 'gates'; readonly point: LoopPoint; readonly gates: readonly GateReport[]; readonly gsd?: GsdDetails };

export const POINT_DETAILS: DetailFields<PointDetails> = { kind: 'value', point: 'value', gates: 'tree', gsd: 'tree' };

// A valid predicate's deepest value, counted from `check`.
const MAX_SHOWN_DEPTH = MAX_DEPTH + 2;

type GateStatus = 'pass' | 'advisory' | 'halt' | 'skipped' | 'inactive';

export interface GateReport {
  readonly capability: string;
  readonly index: number;
  // The gate as declared, so a report says what ran without the file.
  readonly check: unknown;
  readonly when: unknown;
  readonly blocking: unknown;
  readonly onError: unknown;
  readonly status: GateStatus;
  // Why an inactive gate is: its `when` key, the value and where it came from.
  readonly activation?: Activation;
  readonly envelope?: Envelope;
  readonly error?: string;
  // The file and line its verdict or its failure is about, when its check
  // read one (a frontmatter gate's artifact) or its answer names one (a
  // query gate's: gates/answer-location.ts).
  readonly location?: SourceLocation;
  readonly durationMs: number;
}

// How every output names a gate: its capability and its place in the list.
export const gateLabel = (report: Pick<GateReport, 'capability' | 'index'>): string => `${report.capability}#${report.index}`;

export interface PointDeps {
  // The gate context without the capability: GSD_CAP_DIR is added per gate.
  readonly context: GateContext;
  readonly query?: QueryCommand | undefined;
  readonly concurrency: number;
  readonly onReport?: (point: LoopPoint, report: GateReport) => void;
}

// A point and its gates, or why it has none (its rendered hooks missing
// from the input): what the gates' loading hands the run.
export interface PointGates {
  readonly point: LoopPoint;
  readonly gates: Result<readonly PointGate[]>;
}

export type PointEnvelope = Envelope<PointDetails>;

// A point as the run leaves it: its envelope, or why it has none (the
// failure its gates' loading gave).
export interface PointResult {
  readonly point: LoopPoint;
  readonly envelope: Result<PointEnvelope>;
}

// Runs the active gates of every point concurrently up to `concurrency`, in
// one pool (a slow query gate of one point does not hold up the next point's
// gates), applies the two-step gate contract to each, and reports every
// gate, inactive ones included, point by point in the order given. The run
// fails as a whole only when it was stopped.
export async function runPoints(points: readonly PointGates[], deps: PointDeps): Promise<Result<PointResult[]>> {
  let stoppedBy: Failure | undefined;
  // A bug in one gate ends the others' commands as a stop signal would, and
  // starts no more gates: nothing may run on after gsd-check has exited.
  // (AbortSignal.any would do, but only from Node 20.3.)
  const stop = new AbortController();
  const outer = deps.context.signal;
  const onOuter = (): void => stop.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  // Every running command listens on it: many gates at once are no leak.
  setMaxListeners(0, stop.signal);
  const context = { ...deps.context, signal: stop.signal };
  const within: PointDeps = { ...deps, context };
  const onThrow = (): void => stop.abort(new Stop('SIGTERM'));
  const all = points.flatMap(({ point, gates }) => (gates.ok ? gates.value.map((gate) => ({ point, gate })) : []));
  const reports = await mapPool(
    all,
    deps.concurrency,
    async ({ point, gate }) => {
      const started = now();
      const { verdict, failure, location } = await runGate(gate, within);
      if (failure?.reason === 'stopped') stoppedBy ??= failure;
      const { declared } = gate.declaration;
      const report: GateReport = {
        capability: gate.capability,
        index: gate.index,
        check: shown(declared.check),
        when: shown(declared.when ?? null),
        blocking: shown(declared.blocking),
        onError: shown(declared.onError),
        ...verdict,
        ...(location === undefined ? {} : { location }),
        durationMs: Math.round(now() - started),
      };
      if (stoppedBy === undefined) deps.onReport?.(point, report);
      return report;
    },
    onThrow,
  );
  outer?.removeEventListener('abort', onOuter);
  if (stoppedBy !== undefined) return { ok: false, failure: stoppedBy };

  let at = 0;
  return ok(
    points.map(({ point, gates }): PointResult => {
      if (!gates.ok) return { point, envelope: gates };
      const own = reports.slice(at, (at += gates.value.length));
      return {
        point,
        envelope: ok({ block: own.some((r) => r.status === 'halt'), message: summary(point, own), details: { kind: 'gates', point, gates: own } }),
      };
    }),
  );
}

// A declared value too deep to print is named, not copied: it must not take
// the whole report down (it already failed validation).
function shown(value: unknown): unknown {
  return nestsDeeperThan(value, MAX_SHOWN_DEPTH) ? `(not shown: nests deeper than ${MAX_SHOWN_DEPTH} levels)` : value;
}

// A gate's status and what made it: the envelope its check gave, or the
// error that stood in for one. Not a Result: a halt is a verdict of the run,
// and an error routed by onError is part of one, never the run's failure.
type GateVerdict =
  | { readonly status: 'inactive'; readonly activation: Activation }
  | { readonly status: 'pass' | 'advisory'; readonly envelope: Envelope }
  | { readonly status: 'halt'; readonly envelope?: Envelope; readonly error?: string }
  | { readonly status: 'skipped'; readonly error: string };

// A gate's verdict, the failure that made it, if one did, and where in a
// file it is, if its check says.
async function runGate(gate: PointGate, deps: PointDeps): Promise<{ verdict: GateVerdict; failure?: Failure; location?: SourceLocation | undefined }> {
  if (gate.activation !== undefined && !gate.activation.active) return { verdict: { status: 'inactive', activation: gate.activation.activation } };
  // A gate whose check, blocking or onError is broken cannot say how to fail:
  // it halts. Its other slips do not change what runs; `validate` reports them.
  const parsed = gate.declaration.gate;
  if (!parsed.ok) return { verdict: { status: 'halt', error: parsed.failure.message } };
  const { check, blocking, onError } = parsed.value;
  const { evaluation, location } = await evaluateCheck(check, gate, deps);
  if (!evaluation.ok) {
    const { failure } = evaluation;
    const error = failureLine(failure);
    // Whether onError may skip it is a property of the reason (failure.ts).
    return { verdict: onError === 'skip' && REASONS[failure.reason].onError ? { status: 'skipped', error } : { status: 'halt', error }, failure, location };
  }
  const envelope = evaluation.value;
  if (!envelope.block) return { verdict: { status: 'pass', envelope }, location };
  return { verdict: blocking ? { status: 'halt', envelope } : { status: 'advisory', envelope }, location };
}

async function evaluateCheck(check: Check, gate: PointGate, deps: PointDeps): Promise<{ evaluation: Evaluation; location?: SourceLocation | undefined }> {
  switch (check.shape) {
    case 'query': {
      const evaluation = await evaluateQuery(check.query, gate.capDir, deps.query, deps.context);
      return {
        evaluation,
        location: evaluation.ok && evaluation.value.block ? answerLocation(check.query, evaluation.value.details.answer, deps.context) : undefined,
      };
    }
    case 'agentVerdict':
      return { evaluation: fail('needs-agent', 'an agentVerdict check needs an agent to give the verdict; gsd-check cannot') };
    case 'predicate': {
      if (!check.predicate.ok) return { evaluation: check.predicate };
      const { kind, predicate } = check.predicate.value;
      const env = gate.capDir === undefined ? deps.context.env : { ...deps.context.env, GSD_CAP_DIR: gate.capDir };
      const evaluation = await kind.evaluate(predicate, { ...deps.context, env });
      if (evaluation.ok) return { evaluation, location: kind.locate?.(evaluation.value.details) };
      return { evaluation, location: evaluation.failure.reason === 'stopped' ? undefined : evaluation.failure.at };
    }
  }
}

// Names every halted gate with its reason, and counts the advisories.
function summary(point: LoopPoint, reports: readonly GateReport[]): string {
  if (reports.length === 0) return `${point}: no gates`;
  const count = (status: GateStatus): number => reports.filter((r) => r.status === status).length;
  const halted = reports.filter((r) => r.status === 'halt');
  if (halted.length > 0) {
    const reasons = halted.map((r) => `${gateLabel(r)}: ${oneLine(r.error ?? r.envelope?.message ?? '', 200)}`);
    const advisory = count('advisory');
    const line = `${point}: halted by ${halted.map(gateLabel).join(', ')} (${reasons.join('; ')})${advisory > 0 ? `; ${advisory} advisory` : ''}`;
    return visible(line);
  }
  const counts = (['pass', 'advisory', 'skipped', 'inactive'] as const)
    .map((status) => [status, count(status)] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return `${point}: passed (${counts.join(', ')})`;
}
