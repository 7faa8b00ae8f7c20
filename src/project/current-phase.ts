import { join, relative } from 'node:path';
import { extractFrontmatter, parseWithLibrary, parseWithoutLibrary, yaml } from '../artifact/frontmatter.ts';
import { fail, ok, type Result } from '../failure.ts';
import { readRegular } from '../fs/read.ts';
import { phaseNumberProblem } from './phase.ts';
import { planningDirectory, type PlanningScope } from './planning-scope.ts';

// --current-phase: the phase GSD's own state names, `current_phase` in the
// frontmatter of STATE.md in the run's planning directory (the workstream's
// under GSD_WORKSTREAM), as `gsd-tools state-snapshot` reads it. A CI job or
// a hook then checks the phase the project is at, not one written into its
// config that goes stale. No STATE.md, no such field, or a value that is no
// phase id fails the call: a phase that cannot be named is no empty one.

// STATE.md is a page of prose; past this it is not one.
const STATE_BYTES = 256 * 1024;

export function currentPhase(projectRoot: string, planning: Result<PlanningScope>): Result<string> {
  if (!planning.ok) return planning;
  const path = join(planningDirectory(projectRoot, planning.value), 'STATE.md');
  const shown = relative(projectRoot, path);
  const read = readRegular(path, STATE_BYTES);
  if (!read.ok) return fail('unreadable-file', `--current-phase: cannot read ${shown}: ${read.failure === 'ENOENT' ? 'no such file' : read.failure}`);
  if (!read.value.complete) return fail('invalid-artifact', `--current-phase: ${shown} is larger than ${STATE_BYTES / 1024} KiB`);
  const frontmatter = extractFrontmatter(read.value.bytes);
  const missing = fail('invalid-artifact', `--current-phase: ${shown} names no current_phase in its frontmatter`);
  if (frontmatter.status !== 'present') return missing;
  const fields = parseWithoutLibrary(frontmatter.yaml, shown) ?? parseWithLibrary(frontmatter.yaml, shown, yaml());
  if (!fields.ok) return fields;
  const value = fields.value.mapping ? fields.value.fields.current_phase : undefined;
  if (typeof value !== 'string' || value.trim() === '') return missing;
  const phase = value.trim();
  const problem = phaseNumberProblem(phase);
  if (problem !== undefined) return fail('invalid-artifact', `--current-phase: ${shown}'s current_phase ${JSON.stringify(phase)} ${problem}`);
  return ok(phase);
}
