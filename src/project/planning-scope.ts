import { join } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { resolveWorkstream } from './workstream.ts';

// Which planning directory a run reads, as GSD's environment selects it
// (planning-workspace.cts): `.planning/`, under GSD_PROJECT's directory, under
// the run's workstream. Resolved once, where the gate context is built; the
// phase lookup, STATE.md and the configs all read through it.
export interface PlanningScope {
  readonly project: string | undefined;
  readonly workstream: string | undefined;
}

interface ResolvedScope {
  // GSD_PROJECT is checked only where a planning directory is needed, as GSD
  // checks it: a command gate that never looks at one runs under any value.
  readonly planning: Result<PlanningScope>;
  // The workstream's name, which commands get as GSD_WORKSTREAM, as GSD exports it.
  readonly workstream: string | undefined;
  readonly warnings: readonly string[];
}

// `flag`: --ws as the command line gave it, a name the rule holds; `uid`: who
// we run as, for the owner rule of session pointers.
export function resolvePlanningScope(
  flag: string | undefined,
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>>,
  uid: number | undefined,
): Result<ResolvedScope> {
  const resolved = resolveWorkstream(flag, projectRoot, env, uid);
  if (!resolved.ok) return resolved;
  const workstream = resolved.value.workstream?.name;
  const project = env.GSD_PROJECT || undefined;
  // GSD_PROJECT names one directory; GSD refuses a value that could lead
  // elsewhere, and so does gsd-check.
  const planning =
    project !== undefined && /[/\\]|\.\./.test(project)
      ? fail('usage', `GSD_PROJECT must name one directory, got ${JSON.stringify(project)}`)
      : ok({ project, workstream });
  return ok({ planning, workstream, warnings: resolved.value.warnings });
}

// The planning directory GSD reads in this scope: its `phases/`, its
// `STATE.md`, and its `config.json` before the project's.
export function planningDirectory(projectRoot: string, scope: PlanningScope): string {
  let base = join(projectRoot, '.planning');
  if (scope.project !== undefined) base = join(base, scope.project);
  if (scope.workstream !== undefined) base = join(base, 'workstreams', scope.workstream);
  return base;
}
