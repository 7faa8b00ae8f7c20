import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { canonicalPath, contains, realPath } from '../fs/entry.ts';
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
  let names: string[];
  try {
    names = readdirSync(searched, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    names = [];
  }
  const wanted = normalizePhaseNumber(phaseNumber);
  let matches = names.filter((name) => phaseTokens(name).some((token) => token.toUpperCase() === wanted.toUpperCase()));
  // GSD's fallback for a bare number: a directory whose leading digits, up to
  // a `-` or the end, are that number however padded (`4-ship` for 04; never
  // `04.1-hotfix` or `12A-split`, which are other phases).
  if (matches.length === 0 && /^\d+$/.test(wanted)) {
    matches = names.filter((name) => {
      const digits = /^(\d+)(?:-|$)/.exec(name.replace(DIRECTORY_CODE, ''))?.[1];
      return digits !== undefined && Number(digits) === Number(wanted);
    });
  }
  return { phaseNumber, searched, matches: matches.map((name) => join(searched, name)) };
}

const PROJECT_CODE = /^[A-Z][A-Z0-9_]*-(?=\d)/;
// A directory's project code is matched in any case, as GSD's
// phaseTokenMatches does; a phase number's only in capitals (`ck-1` is a
// custom id, which then matches `CK-01-…` through the directory's full token).
const DIRECTORY_CODE = /^[A-Z][A-Z0-9_]*-(?=\d)/i;

function stripProjectCode(name: string): string {
  return name.replace(PROJECT_CODE, '');
}

// GSD's normalizePhaseName: a project code dropped (`CK-01` → `01`); each
// number of a milestone-prefixed id padded (`1-2` → `01-02`); a plain number
// padded, its letter and decimals kept (`4` → `04`, `12a.1` → `12a.1`);
// anything else (a custom id) as it is.
export function normalizePhaseNumber(phase: string): string {
  const stripped = stripProjectCode(phase);
  const milestone = /^(\d+)((?:-\d+)+)([A-Z]?(?:\.\d+)*)$/i.exec(stripped);
  if (milestone !== null) {
    const parts = [milestone[1]!, ...milestone[2]!.slice(1).split('-')].map((part) => part.padStart(2, '0'));
    return parts.join('-') + milestone[3]!;
  }
  const plain = /^(\d+)([A-Z])?((?:\.\d+)*)/i.exec(stripped);
  if (plain !== null) return plain[1]!.padStart(2, '0') + (plain[2] ?? '') + plain[3]!;
  return phase;
}

// The phase ids a directory name starts with: its digits, hyphen-joined
// milestone numbers, letter and decimals, up to the `-` before the slug; and,
// under a project code, the same with the code (`CK-07-x`: `07` and `CK-07`).
function phaseTokens(name: string): string[] {
  const code = DIRECTORY_CODE.exec(name)?.[0] ?? '';
  const token = /^(\d+(?:-\d+)*[A-Z]?(?:\.\d+)*)(?:-(?!\d)|$)/i.exec(name.slice(code.length))?.[1];
  if (token === undefined) return [];
  return code === '' ? [token] : [token, code + token];
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

// Phase values reach commands as data, but a command may still put them where
// bash evaluates (an arithmetic `$(( PHASE_NUMBER + 1 ))` expands `a[$(id)]`).
// So a phase number must look like what GSD makes of one (letters, digits,
// dots, hyphens): what is wrong with `value` as one, or undefined.
const PHASE_NUMBER = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;

export function phaseNumberProblem(value: string): string | undefined {
  return PHASE_NUMBER.test(value) ? undefined : 'is not a phase number; GSD names phases like 04, 4.1, 12A, 1-2, CK-01 or PROJ-42';
}
