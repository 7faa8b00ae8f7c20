import { dirname } from 'node:path';
import { now } from '../clock.ts';
import type { Envelope } from '../envelope.ts';
import { fail, failureLine } from '../failure.ts';
import type { Evaluation, GateContext, Kind } from '../predicate/kind.ts';
import { validatePredicate } from '../predicate/validate.ts';
import { jsonPath } from '../text/json-path.ts';
import { oneLine } from '../text/one-line.ts';
import { isActive } from './activation.ts';
import type { LoopPoint } from './points.ts';
import { mapPool } from './pool.ts';
import { validateGate } from './validate-capability.ts';

export interface Capability {
  readonly file: string;
  // Its `id`, or its file path when it has none.
  readonly name: string;
  readonly data: Record<string, unknown>;
}

export type GateStatus = 'pass' | 'advisory' | 'halt' | 'skipped' | 'inactive';

export interface GateReport {
  readonly capability: string;
  readonly index: number;
  readonly status: GateStatus;
  readonly envelope?: Envelope;
  readonly error?: string;
  readonly durationMs: number;
}

export interface PointDeps {
  readonly kinds: ReadonlyMap<string, Kind>;
  // The gate context without the capability: GSD_CAP_DIR is added per gate.
  readonly context: GateContext;
  readonly config: unknown;
  readonly concurrency: number;
  readonly onReport?: ((report: GateReport) => void) | undefined;
}

export type PointResult =
  | { readonly status: 'envelope'; readonly envelope: Envelope }
  | { readonly status: 'interrupted'; readonly signal: NodeJS.Signals };

interface Gate {
  readonly capability: Capability;
  readonly index: number;
  readonly gate: Record<string, unknown>;
}

// Runs every gate of `point`, in the capabilities' order and each one's
// declaration order, concurrently up to `concurrency`, and applies the
// two-step gate contract to each.
export async function runPoint(point: LoopPoint, capabilities: readonly Capability[], deps: PointDeps): Promise<PointResult> {
  const gates: Gate[] = capabilities.flatMap((capability) => {
    const list = Array.isArray(capability.data.gates) ? (capability.data.gates as unknown[]) : [];
    return list.flatMap((gate, index) =>
      typeof gate === 'object' && gate !== null && (gate as { point?: unknown }).point === point
        ? [{ capability, index, gate: gate as Record<string, unknown> }]
        : [],
    );
  });

  let interrupted: NodeJS.Signals | undefined;
  const reports = await mapPool(gates, deps.concurrency, async (gate) => {
    const started = now();
    const outcome = await runGate(gate, deps);
    if (outcome.status === 'interrupted') interrupted ??= outcome.signal;
    const report: GateReport = {
      capability: gate.capability.name,
      index: gate.index,
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
  | { readonly status: Exclude<GateStatus, 'halt' | 'skipped'>; readonly envelope?: Envelope }
  | { readonly status: 'halt'; readonly envelope?: Envelope; readonly error?: string }
  | { readonly status: 'skipped'; readonly error: string }
  | { readonly status: 'interrupted'; readonly signal: NodeJS.Signals };

async function runGate({ capability, index, gate }: Gate, deps: PointDeps): Promise<GateOutcome> {
  if (!isActive(gate.when, deps.config, capability.data.config)) return { status: 'inactive' };
  // A gate whose check, blocking or onError is broken cannot say how to fail:
  // it halts. Other declaration slips (an unknown field, an undeclared `when`)
  // do not change what runs; `gsd-check validate` reports them.
  const at = jsonPath('gates', [index]);
  const structural = validateGate(gate, at, undefined, deps.kinds).filter(
    (i) =>
      (i.path.startsWith(`${at}.check`) && !i.path.startsWith(`${at}.check.predicate`)) ||
      i.path === `${at}.blocking` ||
      i.path === `${at}.onError`,
  );
  if (structural.length > 0) {
    return { status: 'halt', error: `invalid gate: ${structural.map((i) => `${i.path}: ${i.message}`).join('; ')}` };
  }
  const evaluation = await evaluateCheck(gate.check as Record<string, unknown>, at, capability, deps);
  if (evaluation.status === 'interrupted') return evaluation;
  if (evaluation.status === 'failure') {
    const error = failureLine(evaluation.failure);
    // A gate that could not start for want of descriptors or processes said
    // nothing about the project: skipping it would turn a block into a pass.
    if (evaluation.failure.reason === 'resource-limit') return { status: 'halt', error };
    return gate.onError === 'skip' ? { status: 'skipped', error } : { status: 'halt', error };
  }
  const { envelope } = evaluation;
  if (!envelope.block) return { status: 'pass', envelope };
  return gate.blocking === true ? { status: 'halt', envelope } : { status: 'advisory', envelope };
}

async function evaluateCheck(check: Record<string, unknown>, at: string, capability: Capability, deps: PointDeps): Promise<Evaluation> {
  if (Object.hasOwn(check, 'query')) {
    return failure('a query check is answered by gsd-tools, not by gsd-check');
  }
  if (Object.hasOwn(check, 'agentVerdict')) {
    return failure('an agentVerdict check needs an agent to give the verdict; gsd-check cannot');
  }
  const valid = validatePredicate(check.predicate, deps.kinds, `${at}.check.predicate`);
  if (!valid.ok) return { status: 'failure', failure: valid.failure };
  return valid.value.kind.evaluate(valid.value.predicate, {
    ...deps.context,
    env: { ...deps.context.env, GSD_CAP_DIR: dirname(capability.file) },
  });
}

function failure(message: string): Evaluation {
  return { status: 'failure', failure: fail('invalid-predicate', message).failure };
}

function summary(point: LoopPoint, reports: readonly GateReport[]): string {
  if (reports.length === 0) return `${point}: no gates`;
  const halted = reports.filter((r) => r.status === 'halt');
  const first = halted[0];
  if (first !== undefined) {
    const reason = oneLine(first.error ?? first.envelope?.message ?? '', 300);
    const more = halted.length > 1 ? ` (and ${halted.length - 1} more)` : '';
    return `${point}: halted by ${first.capability}#${first.index}: ${reason}${more}`;
  }
  const counts = (['pass', 'advisory', 'skipped', 'inactive'] as const)
    .map((status) => [status, reports.filter((r) => r.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`);
  return `${point}: passed (${counts.join(', ')})`;
}

