import { fail, ok, usage, type Result } from '../../failure.ts';
import { PHASE_CHOICE } from '../../cli/gates-options.ts';
import type { PointGate, PointGates } from '../../gates/run-point.ts';
import { gateLabel } from '../../gates/run-point.ts';
import type { GateContext } from '../../predicate/kind.ts';
import { phaseDirectoryNames } from '../../project/phase.ts';

// GSD's loop always evaluates a point for a phase, one it has a directory
// for past discuss:pre; a run that selects none, or a number with no
// directory, would check the project root in its place and read as a
// missing file. Said before anything runs, naming what to give instead.

const selected = (context: GateContext): boolean => context.phaseDir !== undefined || context.phaseNumber !== undefined;

// The first gate to run that reads the phase, when none is selected; and
// the directory of a phase given by its number, where GSD's loop has one.
export function phaseForGates(points: readonly PointGates[], context: GateContext): Result<void> {
  const needing = points.flatMap(({ point, gates }) =>
    gates.ok
      ? gates.value.flatMap((gate) => {
          const use = phaseUse(gate);
          return use === undefined ? [] : [{ point, says: `${point}'s gate ${gateLabel({ capability: gate.capability, index: gate.index })} ${use}` }];
        })
      : [],
  );
  const [first] = needing;
  if (first === undefined) return ok(undefined);
  if (selected(context)) {
    // discuss-phase renders discuss:pre before it makes the phase's directory
    // (write_context), so a gate there may read a phase that has none yet;
    // every later point's workflow finds or makes the directory first.
    return needing.every(({ point }) => point === 'discuss:pre') ? ok(undefined) : phaseDirectoryFound(context);
  }
  const more = needing.length > 1 ? ` (and ${needing.length - 1} more ${needing.length === 2 ? 'gate' : 'gates'})` : '';
  return usage(`no phase selected: ${first.says}${more}; ${PHASE_CHOICE}`);
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

// A phase given by its number is one GSD's loop has a directory for: a
// phase that is not there reaches nothing, which would pass, and its gates
// would report a missing file for a mistyped number. STATE.md's phase may
// have none yet (the next one, before its discussion).
export function phaseDirectoryFound(context: GateContext): Result<void> {
  const lookup = context.phaseDirLookup;
  if (context.state !== undefined || context.phaseDir !== undefined || lookup === undefined || lookup.matches.length > 0) return ok(undefined);
  const existing = phaseDirectoryNames(lookup.searched);
  const there = existing.length === 0 ? 'which has no phase directory' : `whose phase directories are ${existing.join(', ')}`;
  return fail(
    'usage',
    `--phase-number ${lookup.phaseNumber}: no directory of ${context.paths.artifact(lookup.searched)} is that phase's (${there}); give the number of one, or --phase-dir`,
  );
}
