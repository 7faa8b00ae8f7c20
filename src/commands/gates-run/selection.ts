import { basename, join } from 'node:path';
import { fail, ok, type Result } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import type { LoopPoint } from '../../gates/activation.ts';
import type { PhaseReads } from '../../loop/gsd-reads.ts';
import { executionBegun, phaseFiles, type PhaseFiles } from '../../loop/phase-files.ts';
import { nextPoint, reachedPoints } from '../../loop/reached.ts';
import type { GateContext } from '../../predicate/kind.ts';
import { readState } from '../../project/current-phase.ts';
import { lookUpPhaseDir, phaseDirectoryNames, type PhaseDirLookup } from '../../project/phase.ts';
import { comparePhaseIds, hasPhaseToken, phaseToken } from '../../project/phase-id.ts';
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
  // That phase's directory and files, as read.
  readonly phase: { readonly dir: string | undefined; readonly files: PhaseFiles };
}

// For a run with --reached (command.ts runs the points given otherwise).
// `reads`: where a GSD is at hand, its own reading of a phase's plans and
// verification (loop/gsd-reads.ts).
export async function selectPoints(options: GatesOptions, context: GateContext, reads?: PhaseReads): Promise<Result<Selection>> {
  const state = context.state ?? stateOrNone(context);
  const phases = projectPhases(context);
  const at = await reachOf(context, state, options, reads, phases);
  if (!at.ok) return at;
  // STATE.md names the next phase as soon as `phase complete` ran: while that
  // one holds nothing yet, the loop stands at the end of the one before,
  // whose ship is next, and that is the phase a pull request carries. What
  // the phase's own files and STATE.md show decides: --ship says the run is
  // a ship, not which phase's, so it reaches ship:pre only once that is known.
  // A phase with files that reach no point (a CONTEXT.md of skip_discuss,
  // imported plans) is where the loop is: its next point is what to report.
  if (options.currentPhase && untouched(at.value.phase.files)) {
    const previous = await previousCompletePhase(context, reads, phases);
    if (!previous.ok) return previous;
    if (previous.value !== undefined) {
      const moved = { ...context, phaseNumber: previous.value.phase, phaseDirLookup: previous.value.lookup };
      const before = await reachOf(moved, state, options, reads, phases);
      if (!before.ok) return before;
      const from = `STATE.md names ${context.phaseNumber}, which has reached no point; ${previous.value.phase} is complete`;
      const loop = shipped({ ...before.value.report, from }, options, before.value.phase.files);
      return ok({ points: reachedIn(loop), loop, context: moved, phase: before.value.phase });
    }
  }
  const here = shipped(at.value.report, options, at.value.phase.files);
  return ok({ points: reachedIn(here), loop: here, context, phase: at.value.phase });
}

const frontier = (points: LoopReport['points'], files: PhaseFiles): LoopReport['next'] => {
  const next = nextPoint(points, files);
  return next === undefined ? null : { point: next.point, why: next.why };
};

const reachedIn = (report: LoopReport): LoopPoint[] => report.points.filter((p) => p.reached).map((p) => p.point);

async function reachOf(
  context: GateContext,
  state: StatePosition | undefined,
  options: GatesOptions,
  reads: PhaseReads | undefined,
  phases: ProjectPhases,
): Promise<Result<{ report: LoopReport; phase: Selection['phase'] }>> {
  const phase = context.phaseNumber ?? null;
  const dir = phaseDirectory(context);
  if (!dir.ok) return dir;
  const files = await readPhase(phases, dir.value, phase, phase === null ? undefined : state, reads);
  if (!files.ok) return files;
  const points = reachedPoints(files.value, options.points);
  const from = options.currentPhase ? 'STATE.md' : context.phaseDir !== undefined ? '--phase-dir' : '--phase-number';
  return ok({
    report: { phase, from, status: state?.status ?? null, rawStatus: state?.rawStatus ?? null, points, next: frontier(points, files.value) },
    phase: { dir: dir.value, files: files.value },
  });
}

// With --ship, the run is the phase's ship: ship:pre is reached.
function shipped(report: LoopReport, options: GatesOptions, files: PhaseFiles): LoopReport {
  if (!options.ship) return report;
  const points = report.points.map((reach) =>
    reach.point === 'ship:pre' && !reach.reached ? { point: reach.point, reached: true, why: "--ship: this run is the phase's ship" } : reach,
  );
  return { ...report, points, next: frontier(points, files) };
}

// STATE.md for what it records of the loop; a project without one, or with
// one GSD could not read, records nothing.
function stateOrNone(context: GateContext): StatePosition | undefined {
  const state = readState(context.projectRoot, context.planning);
  return state.ok ? state.value : undefined;
}

// The phase's directory; none where the phase has none yet. Two directories
// for one phase are GSD's ambiguity (find-phase refuses to choose): what the
// loop reached cannot be read, so nothing may pass for it.
function phaseDirectory(context: GateContext): Result<string | undefined> {
  if (context.phaseDir !== undefined) return ok(context.phaseDir);
  const lookup = context.phaseDirLookup;
  if (lookup === undefined || lookup.matches.length <= 1) return ok(lookup?.matches[0]);
  const names = lookup.matches.map((dir) => basename(dir)).join(', ');
  return fail(
    'ambiguous-phase',
    `phase ${lookup.phaseNumber} matches ${lookup.matches.length} directories of ${context.paths.artifact(lookup.searched)} (${names}), as GSD's find-phase reads them: give --phase-dir`,
  );
}

// The nearest phase before the current one in GSD's order of phase ids
// that holds files of its own, when its verification passed: one between
// that holds none (`phase insert` made it after the completion) is passed
// over, as the loop has not been there.
async function previousCompletePhase(
  context: GateContext,
  reads: PhaseReads | undefined,
  phases: ProjectPhases,
): Promise<Result<{ phase: string; lookup: PhaseDirLookup } | undefined>> {
  const current = context.phaseNumber;
  if (current === undefined || !context.planning.ok) return ok(undefined);
  const planning = context.planning.value;
  const before = phases.ids().filter((id) => comparePhaseIds(id, current) < 0);
  for (const phase of before.reverse()) {
    const lookup = lookUpPhaseDir(context.projectRoot, phase, planning);
    const dir = phaseDirectory({ ...context, phaseNumber: phase, phaseDirLookup: lookup });
    if (!dir.ok) return dir;
    if (dir.value === undefined) return ok(undefined);
    const files = await readPhase(phases, dir.value, phase, undefined, reads);
    if (!files.ok) return files;
    if (!untouched(files.value)) return ok(files.value.verificationPassed ? { phase, lookup } : undefined);
  }
  return ok(undefined);
}

// A phase's files as phase-files.ts reads them, its plans and verification
// as GSD answers them where one is at hand.
async function readPhase(
  phases: ProjectPhases,
  dir: string | undefined,
  phase: string | null,
  state: StatePosition | undefined,
  reads: PhaseReads | undefined,
): Promise<Result<PhaseFiles>> {
  const files = phaseFiles(dir, phase ?? '', state, phase === null ? [] : phases.begunAfter(phase));
  if (!files.ok || reads === undefined || dir === undefined || phase === null) return files;
  return reads(phase, dir, files.value);
}

// A phase none of GSD's workflows has written a file of yet: `phase insert`
// leaves a `.gitkeep`.
const untouched = (files: PhaseFiles): boolean => files.names.every((name) => name.startsWith('.')) && files.plans.length === 0;

// The project's phase directories for one selection, which may read several
// phases (a walk back over inserted ones): listed once, and each looked into
// for a begun execution once.
interface ProjectPhases {
  // Their ids, in GSD's order.
  ids(): string[];
  // Those after this phase whose execution has begun.
  begunAfter(phase: string): string[];
}

function projectPhases(context: GateContext): ProjectPhases {
  let directories: [string, string][] | undefined;
  const listed = (): [string, string][] => (directories ??= phaseDirectories(context));
  const begun = new Map<string, boolean>();
  const hasBegun = (dir: string): boolean => {
    if (!begun.has(dir)) begun.set(dir, executionBegun(dir));
    return begun.get(dir)!;
  };
  return {
    ids: () => listed().map(([id]) => id),
    begunAfter: (phase) =>
      listed()
        .filter(([id, dir]) => comparePhaseIds(id, phase) > 0 && hasBegun(dir))
        .map(([id]) => id),
  };
}

function phaseDirectories(context: GateContext): [string, string][] {
  if (!context.planning.ok) return [];
  const phases = join(planningDirectory(context.projectRoot, context.planning.value), 'phases');
  return phaseDirectoryNames(phases)
    .filter(hasPhaseToken)
    .map((name) => [phaseToken(name), join(phases, name)]);
}
