import { join, relative } from 'node:path';
import { fail, type Result } from '../failure.ts';
import { readRegular } from '../fs/read.ts';
import { planningDirectory, type PlanningScope } from './planning-scope.ts';
import { readStateDocument, type StatePosition } from './state-document.ts';

// --current-phase: the phase GSD's own state names, STATE.md in the run's
// planning directory (the workstream's in a workstream), read as
// `gsd-tools state-snapshot` reads it (state-document.ts). A CI job or a hook
// then checks the phase GSD's workflows route to, not one written into its
// config that goes stale. No STATE.md, or one that names no phase, fails the
// call: a phase that cannot be named is no empty one.

// STATE.md is a page of prose; past this it is not one.
const STATE_BYTES = 256 * 1024;

export function currentPhase(projectRoot: string, planning: Result<PlanningScope>): Result<StatePosition> {
  const state = readState(projectRoot, planning);
  return state.ok ? state : { ok: false, failure: { ...state.failure, message: `--current-phase: ${state.failure.message}` } };
}

// STATE.md of the run's planning directory, read as GSD reads it; or why not.
export function readState(projectRoot: string, planning: Result<PlanningScope>): Result<StatePosition> {
  if (!planning.ok) return planning;
  const path = join(planningDirectory(projectRoot, planning.value), 'STATE.md');
  const shown = relative(projectRoot, path);
  const read = readRegular(path, STATE_BYTES);
  if (!read.ok) return fail('unreadable-file', `cannot read ${shown}: ${read.failure === 'ENOENT' ? 'no such file' : read.failure}`);
  if (!read.value.complete) return fail('invalid-artifact', `${shown} is larger than ${STATE_BYTES / 1024} KiB`);
  // Decoded as GSD's readFileSync(…, 'utf-8') decodes it: a BOM is kept, and
  // changes what GSD finds at the start of the file.
  const state = readStateDocument(read.value.bytes.toString('utf8'), shown);
  return state.ok ? state : fail('invalid-artifact', state.failure.message);
}
