import { resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { canonicalPath, contains, realPath } from '../fs/entry.ts';
import { lookUpPhaseDir, type PhaseDirLookup, type PlanningScope } from './phase-dir.ts';

export interface PhaseLocation {
  // --phase-dir made absolute against the project root and canonical (links
  // resolved), as GSD 1.14 gives it as ${PHASE_DIR}.
  readonly phaseDir?: string | undefined;
  // Without --phase-dir, the phase directory looked up from --phase-number.
  readonly phaseDirLookup?: PhaseDirLookup | undefined;
}

export function locatePhase(
  projectRoot: string,
  given: { readonly phaseDir?: string | undefined; readonly phaseNumber?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
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
  const scope = planningScope(env);
  if (!scope.ok) return scope;
  return ok({ phaseDirLookup: lookUpPhaseDir(projectRoot, given.phaseNumber, scope.value) });
}

// GSD_PROJECT names one directory; GSD refuses a value that could lead
// elsewhere, and so does gsd-check. GSD_WORKSTREAM is the workstream the run
// resolved (context.ts), already a name; blank is none.
export function planningScope(env: Readonly<Record<string, string | undefined>>): Result<PlanningScope> {
  const project = env.GSD_PROJECT;
  if (/[/\\]|\.\./.test(project ?? '')) return fail('usage', `GSD_PROJECT must name one directory, got ${JSON.stringify(project)}`);
  return ok({ project, workstream: env.GSD_WORKSTREAM?.trim() || undefined });
}
