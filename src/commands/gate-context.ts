import { isAbsolute, resolve } from 'node:path';
import type { EvalOptions } from '../cli/eval-options.ts';
import { type Result, fail, ok } from '../failure.ts';
import { entryKind } from '../fs/entry.ts';
import type { GateContext } from '../predicate/kind.ts';
import { currentPhase } from '../project/current-phase.ts';
import { locatePhase } from '../project/phase.ts';
import { explicitProjectRoot, findProjectRoot } from '../project/root.ts';
import { resolvePlanningScope } from '../project/planning-scope.ts';
import type { PathShower } from '../project/shown-path.ts';
import { visible } from '../text/format.ts';
import type { CliDeps } from './deps.ts';

// The gate context every evaluating command builds the same way: the project
// root (--project-dir, or found from --cwd), its workstream, the phase values
// and where the phase's files are, the runner and the stop signals.
// `paths`: how the command's messages name files (project/shown-path.ts).
export function gateContext(options: EvalOptions, deps: CliDeps, paths: (root: string) => PathShower): Result<GateContext> {
  const located = projectRootOf(options, deps);
  if (!located.ok) return located;
  const projectRoot = located.value;
  // The workstream reaches the command as GSD_WORKSTREAM, as GSD exports it,
  // and scopes the phase lookup, STATE.md and the configs.
  const resolved = resolvePlanningScope(options.ws, projectRoot, deps.env, deps.uid);
  if (!resolved.ok) return resolved;
  const { planning, workstream, warnings } = resolved.value;
  for (const warning of warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);
  const env = workstream === undefined ? deps.env : { ...deps.env, GSD_WORKSTREAM: workstream };
  const state = options.currentPhase ? currentPhase(projectRoot, planning) : undefined;
  if (state !== undefined && !state.ok) return state;
  const phaseNumber = state === undefined ? options.phaseNumber : state.value.phase;
  const phase = locatePhase(projectRoot, { phaseDir: options.phaseDir, phaseNumber }, planning);
  if (!phase.ok) return phase;
  return ok({
    projectRoot,
    phaseNumber,
    phaseDir: phase.value.phaseDir,
    phaseDirLookup: phase.value.phaseDirLookup,
    phaseReqIds: options.phaseReqIds,
    planning,
    paths: paths(projectRoot),
    ...(state === undefined ? {} : { state: state.value }),
    env,
    killAfterMs: options.killAfter * 1000,
    signal: deps.signal,
    force: deps.force,
    run: deps.run,
  });
}

function projectRootOf(options: EvalOptions, deps: CliDeps): Result<string> {
  if (options.projectDir !== undefined) {
    // GSD checks --cwd first, even where --project-dir then names the root;
    // and --cwd still bases the other paths of the line.
    const start = options.cwd === undefined ? ok(undefined) : startDirectory(options.cwd, deps.cwd);
    if (!start.ok) return start;
    const root = explicitProjectRoot(options.projectDir, deps.cwd);
    if (root.ok && !deps.canEnter(root.value)) return fail('bad-cwd', `--project-dir ${root.value}: permission denied (cannot list or enter it)`);
    return root;
  }
  const start = startDirectory(options.cwd, deps.cwd);
  if (!start.ok) return start;
  const projectRoot = findProjectRoot(start.value, deps.home, deps.uid);
  const denied = !deps.canEnter(start.value)
    ? options.cwd === undefined
      ? 'the current directory'
      : `--cwd ${options.cwd}`
    : !deps.canEnter(projectRoot)
      ? `project root ${projectRoot}`
      : undefined;
  if (denied !== undefined) return fail('bad-cwd', `${denied}: permission denied (cannot list or enter it)`);
  return ok(projectRoot);
}

function startDirectory(cwd: string | undefined, current: () => string): Result<string> {
  let start: string;
  try {
    // An absolute --cwd needs no current directory, which may be deleted.
    start = cwd !== undefined && isAbsolute(cwd) ? resolve(cwd) : resolve(current(), cwd ?? '.');
  } catch {
    return fail('bad-cwd', 'the current directory no longer exists');
  }
  const kind = entryKind(start);
  if (kind === 'dir') return ok(start);
  const label = cwd === undefined ? 'the current directory' : `--cwd ${cwd}`;
  return fail('bad-cwd', `${label}: ${kind === undefined ? 'no such directory' : 'not a directory'}`);
}
