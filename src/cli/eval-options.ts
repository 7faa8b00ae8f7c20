import { ok, usage, type Result } from '../failure.ts';
import { phaseIdProblem } from '../project/phase-id.ts';
import { workstreamNameProblem } from '../project/workstream.ts';
import { optional, seconds, valueOf, type Flags } from './flags.ts';
import { parsePickPath, type PickPath } from './pick-path.ts';

// The options every evaluating command shares (check predicate, gates run):
// the gate context's values and the output's.

export interface EvalOptions {
  // A phase directory and a phase number given; an empty one is none, as in
  // GSD, whose workflows pass `--phase-number "${PHASE_NUMBER}"` set or not.
  readonly phaseDir?: string;
  readonly phaseNumber?: string;
  // Read the phase number from .planning/STATE.md (project/current-phase.ts).
  readonly currentPhase: boolean;
  readonly phaseReqIds?: string;
  readonly cwd?: string;
  // The project root itself, with no search (GSD's --project-dir).
  readonly projectDir?: string;
  // A workstream name, trimmed, that the name rule holds.
  readonly ws?: string;
  readonly pick?: PickPath;
  readonly killAfter: number;
  readonly raw: boolean;
  readonly exitCode: boolean;
  readonly jsonErrors: boolean;
}

// Requirement ids are whatever text the roadmap holds, which GSD's
// plan-phase passes on verbatim (`REQ-01 (partial), AUTH/01`, `n/a`): one
// line of bounded length.
const MAX_REQUIREMENT_TEXT = 4096;
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

export function evalOptions(flags: Flags, jsonErrors: boolean): Result<EvalOptions> {
  const pickText = valueOf(flags, 'pick');
  const pick = pickText === undefined ? undefined : parsePickPath(pickText);
  if (pick !== undefined && !pick.ok) return pick;
  const killAfter = seconds(flags, 'kill-after', false);
  if (!killAfter.ok) return killAfter;
  const cwd = valueOf(flags, 'cwd');
  if (cwd === '') return usage('--cwd needs a directory');
  const phaseNumber = valueOf(flags, 'phase-number');
  const phaseProblem = phaseNumber === undefined || phaseNumber === '' ? undefined : phaseIdProblem(phaseNumber);
  if (phaseProblem !== undefined) return usage(`--phase-number ${JSON.stringify(phaseNumber)} ${phaseProblem}`);
  const currentPhase = flags.booleans.has('current-phase');
  if (currentPhase && phaseNumber !== undefined)
    return usage('--current-phase and --phase-number cannot be used together: --current-phase reads the phase number from .planning/STATE.md');
  const phaseReqIds = valueOf(flags, 'phase-req-ids');
  if (phaseReqIds !== undefined && CONTROL.test(phaseReqIds)) {
    return usage(`--phase-req-ids ${JSON.stringify(phaseReqIds)} holds a control character; requirement ids are one line of text`);
  }
  if (phaseReqIds !== undefined && phaseReqIds.length > MAX_REQUIREMENT_TEXT) {
    return usage(`--phase-req-ids is ${phaseReqIds.length} characters long; at most ${MAX_REQUIREMENT_TEXT}`);
  }
  const projectDir = valueOf(flags, 'project-dir');
  if (projectDir !== undefined && projectDir.trim() === '') return usage('--project-dir needs a directory');
  const ws = workstream(valueOf(flags, 'ws'));
  if (!ws.ok) return ws;
  const phaseDir = valueOf(flags, 'phase-dir');
  return ok({
    ...optional('phaseDir', phaseDir === '' ? undefined : phaseDir),
    ...optional('phaseNumber', phaseNumber === '' ? undefined : phaseNumber),
    currentPhase,
    ...optional('phaseReqIds', phaseReqIds),
    ...optional('cwd', cwd),
    ...optional('projectDir', projectDir),
    ...optional('ws', ws.value),
    ...optional('pick', pick?.value),
    killAfter: killAfter.value,
    raw: flags.booleans.has('raw'),
    exitCode: flags.booleans.has('exit-code'),
    jsonErrors,
  });
}

// GSD trims --ws in both forms.
function workstream(given: string | undefined): Result<string | undefined> {
  if (given === undefined) return ok(undefined);
  const name = given.trim();
  if (name === '') return usage('--ws needs a workstream name');
  const problem = workstreamNameProblem(name);
  return problem === undefined ? ok(name) : usage(`--ws ${JSON.stringify(given)}: ${problem}`);
}
