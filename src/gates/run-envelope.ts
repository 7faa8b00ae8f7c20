import { failureLine } from '../failure.ts';
import type { DetailFields, Envelope } from '../predicate/kind.ts';
import { oneLine, visible } from '../text/format.ts';
import type { LoopPoint } from './activation.ts';
import { gatedPhase, type GsdDetails, type LoopDetails } from './provenance.ts';
import type { GateReport, PointResult } from './run-point.ts';

// The envelope of a run of several points (--point repeated, --all-points):
// each point as its own envelope says it, in the order run, and one verdict.
// A point that could not be evaluated (its rendered hooks missing from the
// input) blocks: no gate of it ran, so nothing may read as passed.

// One point in the run's details: its verdict, message and gates, or why it
// has none (`reason`, as --json-errors names it); with --reached, a point
// the loop has not reached, which runs nothing and blocks nothing.
export interface PointEntry {
  readonly point: LoopPoint;
  readonly block: boolean;
  readonly message: string;
  readonly reason?: string;
  readonly reached?: false;
  readonly gates: readonly GateReport[];
}

type RunDetails = { readonly kind: 'points'; readonly points: readonly PointEntry[]; readonly loop?: LoopDetails; readonly gsd?: GsdDetails };

type RunEnvelope = Envelope<RunDetails>;

export const RUN_DETAILS: DetailFields<RunDetails> = { kind: 'value', points: 'tree', loop: 'tree', gsd: 'tree' };

// A point --reached left out, in the run's details.
export const notReached = (point: LoopPoint, why: string): PointEntry => ({
  point,
  block: false,
  message: visible(`${point}: not reached: ${why}`),
  reached: false,
  gates: [],
});

export function pointEntry({ point, envelope }: PointResult): PointEntry {
  if (!envelope.ok) {
    const { failure } = envelope;
    return { point, block: true, message: visible(`${point}: not evaluated: ${failureLine(failure)}`), reason: failure.reason, gates: [] };
  }
  const { block, message, details } = envelope.value;
  return { point, block, message, gates: details.gates };
}

export function runEnvelope(
  points: readonly PointEntry[],
  about: { readonly loop?: LoopDetails | undefined; readonly gsd?: GsdDetails | undefined } = {},
): RunEnvelope {
  const blocked = points.filter((entry) => entry.block);
  return {
    block: blocked.length > 0,
    message: about.loop === undefined ? runMessage(points, blocked) : `${gatedPhase(about.loop)}: ${runMessage(points, blocked)}`,
    details: { kind: 'points', points, ...(about.loop === undefined ? {} : { loop: about.loop }), ...(about.gsd === undefined ? {} : { gsd: about.gsd }) },
  };
}

// Each point that blocks, by its own message, cut: a point's message already
// cuts each halted gate's cause, so the one point that blocks keeps room for
// several of them, and a dozen points share a line; else how the gates of
// all the points came out, counted. Points --reached left out are counted
// apart.
function runMessage(entries: readonly PointEntry[], blocked: readonly PointEntry[]): string {
  const points = entries.filter((entry) => entry.reached !== false);
  const left = entries.length - points.length;
  const count = `${points.length} point${points.length === 1 ? '' : 's'}`;
  const of = left === 0 ? count : `${count} reached (of ${entries.length})`;
  if (points.length === 0 && left > 0) return `no point reached yet (of ${entries.length})`;
  if (blocked.length > 0) {
    const shown = (entry: PointEntry): string => oneLine(entry.message, blocked.length === 1 ? 1000 : 300);
    return `${blocked.length} of ${of} halted: ${blocked.map(shown).join('; ')}`;
  }
  const gates = points.flatMap((entry) => entry.gates);
  if (gates.length === 0) return `${of}: no gates`;
  const counts = (['pass', 'advisory', 'skipped', 'inactive'] as const)
    .map((status) => [status, gates.filter((gate) => gate.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return `${of}: passed (${counts.join(', ')})`;
}
