import { setMaxListeners } from 'node:events';
import { now } from '../clock.ts';
import type { Envelope } from '../envelope.ts';
import { fail, failureLine } from '../failure.ts';
import type { DetailFields, Evaluation, GateContext } from '../kinds/kind.ts';
import { MAX_DEPTH } from '../predicate/validate.ts';
import { nestsDeeperThan } from '../text/json-depth.ts';
import { oneLine } from '../text/one-line.ts';
import { visible } from '../text/visible.ts';
import type { Activation } from './activation.ts';
import type { Check } from './declaration.ts';
import type { PointGate } from './point-gate.ts';
import type { LoopPoint } from './points.ts';
import { mapPool } from './pool.ts';
import { evaluateQuery, type QueryCommand } from './query.ts';

// What a point's envelope carries in its details (for --pick).
export const POINT_DETAILS: DetailFields = { kind: 'value', point: 'value', gates: 'tree' };

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
  readonly durationMs: number;
}

export interface PointDeps {
  // The gate context without the capability: GSD_CAP_DIR is added per gate.
  readonly context: GateContext;
  readonly query?: QueryCommand | undefined;
  readonly concurrency: number;
  readonly onReport?: ((report: GateReport) => void) | undefined;
}

type PointResult =
  | { readonly status: 'envelope'; readonly envelope: Envelope; readonly reports: readonly GateReport[] }
  | { readonly status: 'interrupted'; readonly signal: NodeJS.Signals };

// Runs the active gates of `point` concurrently up to `concurrency`, applies
// the two-step gate contract to each, and reports every gate, inactive ones
// included, in the order given.
export async function runPoint(point: LoopPoint, gates: readonly PointGate[], deps: PointDeps): Promise<PointResult> {
  let interrupted: NodeJS.Signals | undefined;
  // A bug in one gate ends the others' commands as a stop signal would, and
  // starts no more gates: nothing may run on after gsd-check has exited.
  // (AbortSignal.any would do, but only from Node 20.3.)
  const stop = new AbortController();
  const outer = deps.context.signal;
  if (outer?.aborted) stop.abort(outer.reason);
  else outer?.addEventListener('abort', () => stop.abort(outer.reason), { once: true });
  // Every running command listens on it: many gates at once are no leak.
  setMaxListeners(0, stop.signal);
  const context = { ...deps.context, signal: stop.signal };
  const within: PointDeps = { ...deps, context };
  const onThrow = (): void => stop.abort('SIGTERM');
  const reports = await mapPool(gates, deps.concurrency, async (gate) => {
    const started = now();
    const outcome = await runGate(gate, within);
    if (outcome.status === 'interrupted') interrupted ??= outcome.signal;
    const { declared } = gate.declaration;
    const report: GateReport = {
      capability: gate.capability,
      index: gate.index,
      check: shown(declared.check),
      when: shown(declared.when ?? null),
      blocking: shown(declared.blocking),
      onError: shown(declared.onError),
      ...(outcome.status === 'interrupted' ? { status: 'halt', error: `stopped by ${outcome.signal}` } : outcome),
      durationMs: Math.round(now() - started),
    };
    if (interrupted === undefined) deps.onReport?.(report);
    return report;
  }, onThrow);
  if (interrupted !== undefined) return { status: 'interrupted', signal: interrupted };

  const halted = reports.filter((r) => r.status === 'halt');
  return {
    status: 'envelope',
    envelope: { block: halted.length > 0, message: summary(point, reports), details: { kind: 'gates', point, gates: reports } },
    reports,
  };
}

// A declared value too deep to print is named, not copied: it must not take
// the whole report down (it already failed validation).
function shown(value: unknown): unknown {
  return nestsDeeperThan(value, MAX_SHOWN_DEPTH) ? `(not shown: nests deeper than ${MAX_SHOWN_DEPTH} levels)` : value;
}

type GateOutcome =
  | { readonly status: 'inactive'; readonly activation: Activation }
  | { readonly status: 'pass' | 'advisory'; readonly envelope: Envelope }
  | { readonly status: 'halt'; readonly envelope?: Envelope; readonly error?: string }
  | { readonly status: 'skipped'; readonly error: string }
  | { readonly status: 'interrupted'; readonly signal: NodeJS.Signals };

async function runGate(gate: PointGate, deps: PointDeps): Promise<GateOutcome> {
  if (gate.activation !== undefined && !gate.activation.active) return { status: 'inactive', activation: gate.activation.activation };
  // A gate whose check, blocking or onError is broken cannot say how to fail:
  // it halts. Its other slips do not change what runs; `validate` reports them.
  const parsed = gate.declaration.gate;
  if (!parsed.ok) return { status: 'halt', error: `invalid gate: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` };
  const { check, blocking, onError } = parsed.value;
  const evaluation = await evaluateCheck(check, gate, deps);
  if (evaluation.status === 'interrupted') return evaluation;
  if (evaluation.status === 'failure') {
    const error = failureLine(evaluation.failure);
    // A gate that could not start for want of descriptors or processes said
    // nothing about the project: skipping it would turn a block into a pass.
    if (evaluation.failure.reason === 'resource-limit') return { status: 'halt', error };
    return onError === 'skip' ? { status: 'skipped', error } : { status: 'halt', error };
  }
  const { envelope } = evaluation;
  if (!envelope.block) return { status: 'pass', envelope };
  return blocking ? { status: 'halt', envelope } : { status: 'advisory', envelope };
}

async function evaluateCheck(check: Check, gate: PointGate, deps: PointDeps): Promise<Evaluation> {
  switch (check.shape) {
    case 'query':
      return evaluateQuery(check.query, gate.capDir, deps.query, deps.context);
    case 'agentVerdict':
      return failure('an agentVerdict check needs an agent to give the verdict; gsd-check cannot');
    case 'predicate': {
      if (!check.predicate.ok) return { status: 'failure', failure: check.predicate.failure };
      const { kind, predicate } = check.predicate.value;
      const env = gate.capDir === undefined ? deps.context.env : { ...deps.context.env, GSD_CAP_DIR: gate.capDir };
      return kind.evaluate(predicate, { ...deps.context, env });
    }
  }
}

function failure(message: string): Evaluation {
  return { status: 'failure', failure: fail('invalid-predicate', message).failure };
}

// Names every halted gate with its reason, and counts the advisories.
function summary(point: LoopPoint, reports: readonly GateReport[]): string {
  if (reports.length === 0) return `${point}: no gates`;
  const count = (status: GateStatus): number => reports.filter((r) => r.status === status).length;
  const halted = reports.filter((r) => r.status === 'halt');
  if (halted.length > 0) {
    const reasons = halted.map((r) => `${r.capability}#${r.index}: ${oneLine(r.error ?? r.envelope?.message ?? '', 200)}`);
    const advisory = count('advisory');
    const line = `${point}: halted by ${halted.map((r) => `${r.capability}#${r.index}`).join(', ')} (${reasons.join('; ')})${advisory > 0 ? `; ${advisory} advisory` : ''}`;
    return visible(line);
  }
  const counts = (['pass', 'advisory', 'skipped', 'inactive'] as const)
    .map((status) => [status, count(status)] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return `${point}: passed (${counts.join(', ')})`;
}
