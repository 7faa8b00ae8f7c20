import { ok, usage, type Result } from '../../failure.ts';
import { PHASE_CHOICE } from '../../cli/gates-options.ts';
import type { PointGate, PointGates } from '../../gates/run-point.ts';
import { gateLabel } from '../../gates/run-point.ts';
import type { GateContext } from '../../predicate/kind.ts';

// GSD's loop always evaluates a point for a phase; a run that selects none
// would check the project root in its place, and read as a missing file.
// Said before anything runs, naming the flags that select one.

const selected = (context: GateContext): boolean => context.phaseDir !== undefined || context.phaseNumber !== undefined;

// The first gate to run that reads the phase, when none is selected.
export function phaseForGates(points: readonly PointGates[], context: GateContext): Result<void> {
  if (selected(context)) return ok(undefined);
  const needing = points.flatMap(({ point, gates }) =>
    gates.ok ? gates.value.flatMap((gate) => {
      const use = phaseUse(gate);
      return use === undefined ? [] : [`${point}'s gate ${gateLabel({ capability: gate.capability, index: gate.index })} ${use}`];
    }) : [],
  );
  if (needing.length === 0) return ok(undefined);
  const more = needing.length > 1 ? ` (and ${needing.length - 1} more ${needing.length === 2 ? 'gate' : 'gates'})` : '';
  return usage(`no phase selected: ${needing[0]}${more}; ${PHASE_CHOICE}`);
}

// What an active gate reads of the phase; a query is GSD's question about
// the phase, which GSD's loop always asks with its number.
function phaseUse(gate: PointGate): string | undefined {
  if (gate.activation !== undefined && !gate.activation.active) return undefined;
  if (!gate.declaration.gate.ok) return undefined;
  const { check } = gate.declaration.gate.value;
  if (check.shape === 'query') return `asks GSD's query ${check.query} of the phase`;
  if (check.shape !== 'predicate' || !check.predicate.ok) return undefined;
  const { kind, predicate } = check.predicate.value;
  return kind.phaseUse(predicate);
}
