import { resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { realPath } from '../fs/entry.ts';
import { contains } from '../fs/entry.ts';
import { lookUpPhaseDir, type PhaseDirLookup, type PlanningScope } from './phase-dir.ts';

export interface PhaseLocation {
  // --phase-dir made absolute against the project root, as GSD 1.14 does
  // before it fills ${PHASE_DIR}.
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
    const phaseDir = resolve(projectRoot, given.phaseDir);
    // Like GSD: a phase directory outside the project is refused, by its
    // real path where it exists, so a link cannot lead out either.
    const root = realPath(projectRoot) ?? projectRoot;
    if (!contains(root, realPath(phaseDir) ?? phaseDir)) {
      return fail('usage', `--phase-dir ${given.phaseDir} is outside the project root ${projectRoot}`);
    }
    return ok({ phaseDir });
  }
  if (given.phaseNumber === undefined || given.phaseNumber === '') return ok({});
  const scope = planningScope(env);
  if (!scope.ok) return scope;
  return ok({ phaseDirLookup: lookUpPhaseDir(projectRoot, given.phaseNumber, scope.value) });
}

// GSD_PROJECT and GSD_WORKSTREAM name one directory each; GSD refuses a value
// that could lead elsewhere, and so does gsd-check.
export function planningScope(env: Readonly<Record<string, string | undefined>>): Result<PlanningScope> {
  for (const name of ['GSD_PROJECT', 'GSD_WORKSTREAM'] as const) {
    const value = env[name];
    if (/[/\\]|\.\./.test(value ?? '')) {
      return fail('usage', `${name} must name one directory, got ${JSON.stringify(value)}`);
    }
  }
  return ok({ project: env.GSD_PROJECT, workstream: env.GSD_WORKSTREAM });
}
