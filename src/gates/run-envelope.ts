import { failureLine } from '../failure.ts';
import type { DetailFields, Envelope } from '../predicate/kind.ts';
import { oneLine, visible } from '../text/format.ts';
import type { LoopPoint } from './activation.ts';
import type { GateReport, PointResult } from './run-point.ts';

// The envelope of a run of several points (--point repeated, --all-points):
// each point as its own envelope says it, in the order run, and one verdict.
// A point that could not be evaluated (its rendered hooks missing from the
// input) blocks: no gate of it ran, so nothing may read as passed.

// One point in the run's details: its verdict, message and gates, or why it
// has none (`reason`, as --json-errors names it).
export interface PointEntry {
  readonly point: LoopPoint;
  readonly block: boolean;
  readonly message: string;
  readonly reason?: string;
  readonly gates: readonly GateReport[];
}

type RunDetails = { readonly kind: 'points'; readonly points: readonly PointEntry[] };

type RunEnvelope = Envelope<RunDetails>;

export const RUN_DETAILS: DetailFields<RunDetails> = { kind: 'value', points: 'tree' };

export function pointEntry({ point, envelope }: PointResult): PointEntry {
  if (!envelope.ok) {
    const { failure } = envelope;
    return { point, block: true, message: visible(`${point}: not evaluated: ${failureLine(failure)}`), reason: failure.reason, gates: [] };
  }
  const { block, message, details } = envelope.value;
  return { point, block, message, gates: details.gates };
}

export function runEnvelope(points: readonly PointEntry[]): RunEnvelope {
  const blocked = points.filter((entry) => entry.block);
  return { block: blocked.length > 0, message: runMessage(points, blocked), details: { kind: 'points', points } };
}

// Each point that blocks, by its own message; else how the gates of all the
// points came out, counted.
function runMessage(points: readonly PointEntry[], blocked: readonly PointEntry[]): string {
  const of = `${points.length} point${points.length === 1 ? '' : 's'}`;
  if (blocked.length > 0) {
    return `${blocked.length} of ${of} halted: ${blocked.map((entry) => oneLine(entry.message, 300)).join('; ')}`;
  }
  const gates = points.flatMap((entry) => entry.gates);
  if (gates.length === 0) return `${of}: no gates`;
  const counts = (['pass', 'advisory', 'skipped', 'inactive'] as const)
    .map((status) => [status, gates.filter((gate) => gate.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return `${of}: passed (${counts.join(', ')})`;
}
