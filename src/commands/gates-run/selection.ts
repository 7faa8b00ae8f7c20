import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ok, type Result } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import type { LoopPoint } from '../../gates/activation.ts';
import { phaseFiles } from '../../loop/phase-files.ts';
import { reachedPoints } from '../../loop/reached.ts';
import type { GateContext } from '../../predicate/kind.ts';
import { readState } from '../../project/current-phase.ts';
import { lookUpPhaseDir, normalizePhaseNumber } from '../../project/phase.ts';
import { planningDirectory } from '../../project/planning-scope.ts';
import type { StatePosition } from '../../project/state-document.ts';
import type { LoopDetails as LoopReport } from '../../gates/provenance.ts';

// Which points a run evaluates: the ones the command line names, or with
// --reached those of them GSD's loop has reached for the phase (loop/).

interface Selection {
  readonly points: readonly LoopPoint[];
  readonly loop: LoopReport | undefined;
  // The context the gates run in: the phase --reached settled on.
  readonly context: GateContext;
}

// For a run with --reached (command.ts runs the points given otherwise).
export function selectPoints(options: GatesOptions, context: GateContext): Result<Selection> {
  const state = context.state ?? stateOrNone(context);
  const at = reachOf(context, state, options);
  // STATE.md names the next phase as soon as `phase complete` ran: while that
  // one has reached no point, the loop stands at the end of the one before,
  // whose ship is next, and that is the phase a pull request carries. What
  // the phase's own files and STATE.md show decides: --ship says the run is
  // a ship, not which phase's, so it reaches ship:pre only once that is known.
  if (options.currentPhase && !at.points.some((p) => p.reached)) {
    const previous = previousCompletePhase(context);
    if (previous !== undefined) {
      const moved = { ...context, phaseNumber: previous.phase, phaseDirLookup: previous.lookup };
      const before = shipped(reachOf(moved, state, options), options);
      const from = `STATE.md names ${context.phaseNumber}, which has reached no point; ${previous.phase}, the phase before it, is complete`;
      return ok({ points: reachedIn(before), loop: { ...before, from }, context: moved });
    }
  }
  const here = shipped(at, options);
  return ok({ points: reachedIn(here), loop: here, context });
}

const reachedIn = (report: LoopReport): LoopPoint[] => report.points.filter((p) => p.reached).map((p) => p.point);

function reachOf(context: GateContext, state: StatePosition | undefined, options: GatesOptions): LoopReport {
  const phase = context.phaseNumber ?? null;
  const dir = phaseDirectory(context);
  const files = phaseFiles(dir, phase ?? '', phase === null ? undefined : state);
  const points = reachedPoints(files, options.points);
  const from = options.currentPhase ? 'STATE.md' : context.phaseDir !== undefined ? '--phase-dir' : '--phase-number';
  return { phase, from, status: state?.status ?? null, rawStatus: state?.rawStatus ?? null, points };
}

// With --ship, the run is the phase's ship: ship:pre is reached.
function shipped(report: LoopReport, options: GatesOptions): LoopReport {
  if (!options.ship) return report;
  const points = report.points.map((reach) => (reach.point === 'ship:pre' && !reach.reached ? { point: reach.point, reached: true, why: "--ship: this run is the phase's ship" } : reach));
  return { ...report, points };
}

// STATE.md for what it records of the loop; a project without one, or with
// one GSD could not read, records nothing.
function stateOrNone(context: GateContext): StatePosition | undefined {
  const state = readState(context.projectRoot, context.planning);
  return state.ok ? state.value : undefined;
}

function phaseDirectory(context: GateContext): string | undefined {
  if (context.phaseDir !== undefined) return context.phaseDir;
  const matches = context.phaseDirLookup?.matches ?? [];
  return matches.length === 1 ? matches[0] : undefined;
}

// The phase directory just before the current phase's, in GSD's order of
// phase numbers, when its verification passed.
function previousCompletePhase(context: GateContext): { phase: string; lookup: GateContext['phaseDirLookup'] } | undefined {
  const current = context.phaseNumber;
  if (current === undefined || !context.planning.ok) return undefined;
  const phases = join(planningDirectory(context.projectRoot, context.planning.value), 'phases');
  const ids = directoryPhases(phases).filter((id) => comparePhases(id, current) < 0);
  const previous = ids.sort(comparePhases).at(-1);
  if (previous === undefined) return undefined;
  const lookup = lookUpPhaseDir(context.projectRoot, previous, context.planning.value);
  if (lookup.matches.length !== 1 || !verificationPassed(lookup.matches[0]!)) return undefined;
  return { phase: previous, lookup };
}

function directoryPhases(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const id = entry.isDirectory() ? /^(\d+(?:\.\d+)*[A-Z]?)(?:-|$)/i.exec(entry.name)?.[1] : undefined;
      return id === undefined ? [] : [id];
    });
  } catch {
    return [];
  }
}

// Numbers part by part, then a letter: 1 < 1.1 < 1.2 < 2 < 2A < 10.
function comparePhases(a: string, b: string): number {
  const parts = (id: string): (number | string)[] => normalizePhaseNumber(id).split(/[.]|(?=[A-Z])/i).map((part) => (/^\d+$/.test(part) ? Number(part) : part.toUpperCase()));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    if (typeof x[i] === typeof y[i]) return x[i]! < y[i]! ? -1 : 1;
    return typeof x[i] === 'number' ? -1 : 1;
  }
  return 0;
}

function verificationPassed(dir: string): boolean {
  const files = phaseFiles(dir, '', undefined);
  return files.verificationPassed;
}
