import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { canonicalPath, contains, realPath } from '../fs/entry.ts';
import { comparePhaseIds, hasPhaseToken, matchPhaseDirs } from './phase-id.ts';
import { planningDirectory, type PlanningScope } from './planning-scope.ts';

// Where GSD keeps a phase's files when only its number is known:
// `.planning/phases/<NN>-<slug>` (or the active workstream's `phases/`), the
// number zero-padded as GSD names phase directories (phase-id.cts).
export interface PhaseDirLookup {
  readonly phaseNumber: string;
  // The phases directory that was searched, absolute.
  readonly searched: string;
  // Every directory that matched: exactly one is the phase directory.
  readonly matches: readonly string[];
}

export function lookUpPhaseDir(projectRoot: string, phaseNumber: string, scope: PlanningScope): PhaseDirLookup {
  const searched = join(planningDirectory(projectRoot, scope), 'phases');
  // Only directories named by a phase id: `find-phase notes` gives
  // `phases/notes`, a directory that names no phase (D57).
  const matches = matchPhaseDirs(phaseDirectoryNames(searched).filter(hasPhaseToken), phaseNumber);
  return { phaseNumber, searched, matches: matches.map((name) => join(searched, name)) };
}

// The phase directory of a run: --phase-dir, else the one directory the
// phase number found; none when neither settles one.
export const runPhaseDir = (phaseDir: string | undefined, lookup: PhaseDirLookup | undefined): string | undefined =>
  phaseDir ?? (lookup?.matches.length === 1 ? lookup.matches[0] : undefined);

// The directories of a phases directory, in GSD's order of their phase ids
// (find-phase's and phase-plan-index's); none where it cannot be listed.
export function phaseDirectoryNames(phases: string): string[] {
  try {
    return (
      readdirSync(phases, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        // Names first, so that two directories of one id keep one order on
        // every file system; GSD's own sort leaves them as listed.
        .sort()
        .sort(comparePhaseIds)
    );
  } catch {
    return [];
  }
}

interface PhaseLocation {
  // --phase-dir made absolute against the project root and canonical (links
  // resolved), as GSD 1.14 gives it as ${PHASE_DIR}.
  readonly phaseDir?: string;
  // Without --phase-dir, the phase directory looked up from --phase-number.
  readonly phaseDirLookup?: PhaseDirLookup;
}

export function locatePhase(
  projectRoot: string,
  given: { readonly phaseDir?: string | undefined; readonly phaseNumber?: string | undefined },
  planning: Result<PlanningScope>,
): Result<PhaseLocation> {
  if (given.phaseDir !== undefined && given.phaseDir !== '') {
    // Like GSD: a phase directory outside the project is refused, by its
    // real path, so a link cannot lead out either; one that leads nowhere
    // cannot be placed at all.
    const phaseDir = canonicalPath(resolve(projectRoot, given.phaseDir));
    if (phaseDir === undefined) return fail('usage', `--phase-dir ${given.phaseDir} is a symbolic link to nothing`);
    const root = realPath(projectRoot) ?? projectRoot;
    if (!contains(root, phaseDir)) {
      return fail('usage', `--phase-dir ${given.phaseDir} is outside the project root ${projectRoot}`);
    }
    return ok({ phaseDir });
  }
  if (given.phaseNumber === undefined || given.phaseNumber === '') return ok({});
  if (!planning.ok) return planning;
  return ok({ phaseDirLookup: lookUpPhaseDir(projectRoot, given.phaseNumber, planning.value) });
}
