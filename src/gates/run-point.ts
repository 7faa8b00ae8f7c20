import { now } from '../clock.ts';
import type { Envelope } from '../envelope.ts';
import { fail, failureLine } from '../failure.ts';
import type { DetailFields, Evaluation, GateContext, Kind } from '../kinds/kind.ts';
import { MAX_DEPTH, validatePredicate } from '../predicate/validate.ts';
import { jsonPath } from '../text/json-path.ts';
import { nestsDeeperThan } from '../text/json-depth.ts';
import { oneLine } from '../text/one-line.ts';
import { visible } from '../text/visible.ts';
import type { Activation } from './activation.ts';
import type { PointGate } from './point-gate.ts';
import type { LoopPoint } from './points.ts';
import { mapPool } from './pool.ts';
import { evaluateQuery, type QueryCommand } from './query.ts';
import { validateGate } from './validate-capability.ts';

// What a point's envelope carries in its details (for --pick).
export const POINT_DETAILS: DetailFields = { kind: 'value', point: 'value', gates: 'tree' };

// A valid predicate's deepest value, counted from `check`.
const MAX_SHOWN_DEPTH = MAX_DEPTH + 2;

export type GateStatus = 'pass' | 'advisory' | 'halt' | 'skipped' | 'inactive';

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
  readonly kinds: ReadonlyMap<string, Kind>;
  // The gate context without the capability: GSD_CAP_DIR is added per gate.
  readonly context: GateContext;
  readonly query?: QueryCommand | undefined;
  readonly concurrency: number;
  readonly onReport?: ((report: GateReport) => void) | undefined;
}

export type PointResult =
  | { readonly status: 'envelope'; readonly envelope: Envelope }
  | { readonly status: 'interrupted'; readonly signal: NodeJS.Signals };

// Runs the active gates of `point` concurrently up to `concurrency`, applies
// the two-step gate contract to each, and reports every gate, inactive ones
// included, in the order given.
export async function runPoint(point: LoopPoint, gates: readonly PointGate[], deps: PointDeps): Promise<PointResult> {
  let interrupted: NodeJS.Signals | undefined;
  const reports = await mapPool(gates, deps.concurrency, async (gate) => {
    const started = now();
    const outcome = await runGate(gate, deps);
    if (outcome.status === 'interrupted') interrupted ??= outcome.signal;
    const { declaration } = gate;
    const report: GateReport = {
      capability: gate.capability,
      index: gate.index,
      // A check too deep to print is named, not copied: it must not take the
      // whole report down (it already failed validation).
      check: nestsDeeperThan(declaration.check, MAX_SHOWN_DEPTH) ? `(not shown: nests deeper than ${MAX_SHOWN_DEPTH} levels)` : declaration.check,
      when: declaration.when ?? null,
      blocking: declaration.blocking,
      onError: declaration.onError,
      ...(outcome.status === 'interrupted' ? { status: 'halt', error: `stopped by ${outcome.signal}` } : outcome),
      durationMs: Math.round(now() - started),
    };
    if (interrupted === undefined) deps.onReport?.(report);
    return report;
  });
  if (interrupted !== undefined) return { status: 'interrupted', signal: interrupted };

  const halted = reports.filter((r) => r.status === 'halt');
  return {
    status: 'envelope',
    envelope: { block: halted.length > 0, message: summary(point, reports), details: { kind: 'gates', point, gates: reports } },
  };
}

type GateOutcome =
  | { readonly status: 'inactive'; readonly activation: Activation }
  | { readonly status: 'pass' | 'advisory'; readonly envelope: Envelope }
  | { readonly status: 'halt'; readonly envelope?: Envelope; readonly error?: string }
  | { readonly status: 'skipped'; readonly error: string }
  | { readonly status: 'interrupted'; readonly signal: NodeJS.Signals };

async function runGate(gate: PointGate, deps: PointDeps): Promise<GateOutcome> {
  if (gate.activation !== undefined && !gate.activation.active) return { status: 'inactive', activation: gate.activation.activation };
  const { declaration } = gate;
  // A gate whose check, blocking or onError is broken cannot say how to fail:
  // it halts. Other declaration slips (an unknown field, an undeclared `when`)
  // do not change what runs; `gsd-check validate` reports them.
  const at = jsonPath('gates', [gate.index]);
  const structural = validateGate(declaration, at, undefined, deps.kinds).filter(
    (i) =>
      (i.path.startsWith(`${at}.check`) && !i.path.startsWith(`${at}.check.predicate`)) ||
      i.path === `${at}.blocking` ||
      i.path === `${at}.onError`,
  );
  if (structural.length > 0) {
    return { status: 'halt', error: `invalid gate: ${structural.map((i) => `${i.path}: ${i.message}`).join('; ')}` };
  }
  const evaluation = await evaluateCheck(declaration.check as Record<string, unknown>, at, gate, deps);
  if (evaluation.status === 'interrupted') return evaluation;
  if (evaluation.status === 'failure') {
    const error = failureLine(evaluation.failure);
    // A gate that could not start for want of descriptors or processes said
    // nothing about the project: skipping it would turn a block into a pass.
    if (evaluation.failure.reason === 'resource-limit') return { status: 'halt', error };
    return declaration.onError === 'skip' ? { status: 'skipped', error } : { status: 'halt', error };
  }
  const { envelope } = evaluation;
  if (!envelope.block) return { status: 'pass', envelope };
  return declaration.blocking === true ? { status: 'halt', envelope } : { status: 'advisory', envelope };
}

async function evaluateCheck(check: Record<string, unknown>, at: string, gate: PointGate, deps: PointDeps): Promise<Evaluation> {
  if (Object.hasOwn(check, 'query')) return evaluateQuery(check.query as string, gate.capDir, deps.query, deps.context);
  if (Object.hasOwn(check, 'agentVerdict')) {
    return failure('an agentVerdict check needs an agent to give the verdict; gsd-check cannot');
  }
  const valid = validatePredicate(check.predicate, deps.kinds, `${at}.check.predicate`);
  if (!valid.ok) return { status: 'failure', failure: valid.failure };
  const env = gate.capDir === undefined ? deps.context.env : { ...deps.context.env, GSD_CAP_DIR: gate.capDir };
  return valid.value.kind.evaluate(valid.value.predicate, { ...deps.context, env });
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

// How a gate's check reads in one word or two: `query ui.plan-gate`,
// `predicate command-exit-zero`, `agentVerdict`.
export function checkLabel(check: unknown): string {
  if (typeof check !== 'object' || check === null) return 'check';
  const fields = check as Record<string, unknown>;
  if (typeof fields.query === 'string') return `query ${fields.query}`;
  const predicate = fields.predicate as { kind?: unknown } | null | undefined;
  if (predicate !== undefined) return `predicate ${typeof predicate?.kind === 'string' ? predicate.kind : '?'}`;
  return Object.hasOwn(fields, 'agentVerdict') ? 'agentVerdict' : 'check';
}
