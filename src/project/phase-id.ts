// A phase id as GSD 1.14 reads one (bin/lib/phase-id.cjs): its grammar, its
// order and its sameness, for every reader of a phase (the lookup of its
// directory, STATE.md, --reached's files and selection, the command line).
// Only the legacy convention is read: GSD's bracket one (`[CODE.MM]`) needs
// the project's config to tell from a lettered decimal, and GSD 1.14's own
// lookups (find-phase, phase-plan-index) do not pass it either.

// A project code (`CK-`, `PROJ_2-`) before a phase number. GSD drops it from
// an id given by a person only in capitals, from a directory's name in any
// case.
const CODE = /^[A-Z][A-Z0-9_]*-(?=\d)/;
const CODE_ANY_CASE = /^[A-Z][A-Z0-9_]*-(?=\d)/i;
const CODE_CAPTURE = /^([A-Z][A-Z0-9_]*)-(\d.*)/i;
// `1-2`, `01-02-03`: a milestone and its phases, with a letter and decimals.
const MILESTONE_ID = /^(\d+)((?:-\d+)+)([A-Z]?(?:\.\d+)*)$/i;
// `4`, `04`, `12A`, `12.1`, `3.2.1`.
const PLAIN_ID = /^(\d+)([A-Z])?((?:\.\d+)*)/i;

function stripProjectCode(id: string, anyCase = true): string {
  return id.replace(anyCase ? CODE_ANY_CASE : CODE, '');
}

// GSD's normalizePhaseName: a project code dropped (`CK-01` → `01`); each
// number of a milestone id padded (`1-2` → `01-02`); a plain number padded,
// its letter and decimals kept (`4` → `04`, `12a.1` → `12a.1`); anything else
// (a custom id, `PROJ-x`) as it is.
export function normalizePhaseId(phase: string): string {
  const stripped = stripProjectCode(phase, false);
  const milestone = MILESTONE_ID.exec(stripped);
  if (milestone !== null) {
    const parts = [milestone[1]!, ...milestone[2]!.slice(1).split('-')].map((part) => part.padStart(2, '0'));
    return parts.join('-') + milestone[3]!;
  }
  const plain = PLAIN_ID.exec(stripped);
  if (plain !== null) return plain[1]!.padStart(2, '0') + (plain[2] ?? '') + plain[3]!;
  return phase;
}

// GSD's comparePhaseNum: milestone ids number by number, plain ones by their
// number, then no letter before a letter, then no decimals before decimals,
// then decimal by decimal; what is neither compares as text.
export function comparePhaseIds(a: string, b: string): number {
  const [sa, sb] = [stripProjectCode(a), stripProjectCode(b)];
  const [ma, mb] = [MILESTONE_ID.exec(sa), MILESTONE_ID.exec(sb)];
  if (ma !== null && mb !== null) {
    const numbers = (m: RegExpExecArray): number[] => [m[1]!, ...m[2]!.slice(1).split('-')].map((part) => Number.parseInt(part, 10));
    const [na, nb] = [numbers(ma), numbers(mb)];
    for (let i = 0; i < Math.max(na.length, nb.length); i++) {
      const difference = (na[i] ?? 0) - (nb[i] ?? 0);
      if (difference !== 0) return difference;
    }
    return ma[3] === mb[3] ? 0 : ma[3]! < mb[3]! ? -1 : 1;
  }
  if (ma !== null || mb !== null) return a.localeCompare(b);
  const [pa, pb] = [PLAIN_ID.exec(sa), PLAIN_ID.exec(sb)];
  if (pa === null || pb === null) return a.localeCompare(b);
  const numbers = Number.parseInt(pa[1]!, 10) - Number.parseInt(pb[1]!, 10);
  if (numbers !== 0) return numbers;
  const [la, lb] = [(pa[2] ?? '').toUpperCase(), (pb[2] ?? '').toUpperCase()];
  if (la !== lb) return la === '' ? -1 : lb === '' ? 1 : la < lb ? -1 : 1;
  const decimals = (m: RegExpExecArray): number[] =>
    m[3] === ''
      ? []
      : m[3]!
          .slice(1)
          .split('.')
          .map((part) => Number.parseInt(part, 10));
  const [da, db] = [decimals(pa), decimals(pb)];
  if (da.length === 0 && db.length > 0) return -1;
  if (db.length === 0 && da.length > 0) return 1;
  for (let i = 0; i < Math.max(da.length, db.length); i++) {
    const difference = (da[i] ?? 0) - (db[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

// The dash-separated segments a name's phase token is made of, as GSD's
// derivePhaseTokenSegments reads them: a leading number (or up to three
// letters and a digit), then only two-digit segments (`14-2026-photos` is
// phase 14: a year is a slug's word), or any numbers after a lettered start.
function tokenSegments(name: string): { readonly code: string; readonly segments: string[]; readonly lettered: boolean } {
  const coded = CODE_CAPTURE.exec(name);
  const code = coded === null ? '' : `${coded[1]!}-`;
  const segments: string[] = [];
  let lettered = false;
  for (const [index, segment] of (coded === null ? name : coded[2]!).split('-').entries()) {
    if (index === 0) {
      if (/^\d/.test(segment)) segments.push(segment);
      else if (/^[A-Za-z]{1,3}\d/.test(segment)) {
        segments.push(segment);
        lettered = true;
      } else break;
    } else if (lettered ? /^\d/.test(segment) : /^\d{2}(?!\d)/.test(segment)) segments.push(segment);
    else break;
  }
  return { code, segments, lettered };
}

// GSD's extractPhaseToken: the phase id a directory's name starts with, its
// project code kept (`CK-04-ship` → `CK-04`, `04.1-hotfix` → `04.1`); the
// whole name where it starts with none.
export function phaseToken(name: string): string {
  const { code, segments, lettered } = tokenSegments(name);
  if (segments.length === 0) return name;
  // A generated slug is lower case: `10-25abc` is phase 10.
  if (!lettered && segments.length > 1 && /^\d{2}[a-z][a-z0-9]*$/.test(segments.at(-1)!)) segments.pop();
  return code + segments.join('-');
}

// Whether a name starts with a phase id at all.
export const hasPhaseToken = (name: string): boolean => tokenSegments(name).segments.length > 0;

// GSD's phaseTokenMatches: the directory's token, or its token without the
// project code, is the id (any case).
function tokenMatches(name: string, normalized: string): boolean {
  const wanted = normalized.toUpperCase();
  if (phaseToken(name).toUpperCase() === wanted) return true;
  const stripped = stripProjectCode(name);
  return stripped !== name && phaseToken(stripped).toUpperCase() === wanted;
}

const unpad = (digits: string): string => digits.replace(/^0+(?=\d)/, '');

// GSD's matchPhaseDirs, which find-phase and phase-plan-index use: the
// directories whose token is the id; where none is and the id is a bare
// number, those whose leading digits are that number however padded
// (`05-80-20-cleanup` for 5). More than one match is ambiguous to GSD.
export function matchPhaseDirs(names: readonly string[], phase: string): string[] {
  const normalized = normalizePhaseId(phase);
  const primary = names.filter((name) => tokenMatches(name, normalized));
  if (primary.length > 0 || !/^\d+$/.test(normalized)) return primary;
  return names.filter((name) => {
    const digits = /^(\d+)(?:-|$)/.exec(stripProjectCode(name))?.[1];
    return digits !== undefined && unpad(digits) === unpad(normalized);
  });
}

// GSD's isPhaseArtifact: whether a file in a phase's directory is that
// phase's own (`04-VERIFICATION.md` in `04-ship/`, not in `03-foo/`): it
// starts with one of the readings of the directory's id, padded or not, and
// `-`, `.` or `_`; or it carries no phase id at all (`VERIFICATION.md`).
export function belongsToPhase(file: string, directory: string): boolean {
  const { segments, lettered } = tokenSegments(directory);
  if (segments.length === 0) return true;
  const stripped = stripProjectCode(directory);
  const readings = [phaseToken(directory), stripped === directory ? phaseToken(directory) : phaseToken(stripped), /^(\d+)(?:-|$)/.exec(stripped)?.[1]];
  const candidates = new Set(
    readings
      .filter((reading): reading is string => reading !== undefined && reading !== '')
      .flatMap((reading) => [reading, normalizePhaseId(reading), /^\d+$/.test(reading) ? unpad(reading) : reading])
      .map((reading) => reading.toUpperCase()),
  );
  const upper = file.toUpperCase();
  for (const candidate of candidates) if (['-', '.', '_'].some((separator) => upper.startsWith(candidate + separator))) return true;
  return !hasPhaseToken(file) || lettered;
}

// GSD's phaseKeyFromToken: one key for every spelling of a phase (`4`, `04`,
// `004`, `CK-04`).
const phaseKey = (id: string): string =>
  normalizePhaseId(
    id
      .split('-')
      .map((segment) => unpad(segment))
      .join('-'),
  ).toUpperCase();

export const samePhase = (a: string, b: string): boolean => phaseKey(a) === phaseKey(b);

// The phase a STATE.md prose value starts with (`Phase: 3 of 4 (Delta)`,
// `CK-3A — Delta`), as GSD's parsePhaseFromProse reads it; none where the
// value does not start with one (`Milestone v0.5 complete`).
export function phaseIdInProse(value: string): string | undefined {
  return /^\s*(?:Phase\s+)?(?:[A-Z][A-Z0-9_]*-)?(\d+[A-Z]?(?:\.\d+)*)\b/i.exec(value)?.[1];
}

// Phase values reach commands as data, but a command may still put them where
// bash evaluates (an arithmetic `$(( PHASE_NUMBER + 1 ))` expands `a[$(id)]`).
// So a phase id given on the command line must look like what GSD makes of
// one (letters, digits, dots, hyphens): what is wrong with `value`, or
// undefined.
const PHASE_ID_SHAPE = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;

export function phaseIdProblem(value: string): string | undefined {
  return PHASE_ID_SHAPE.test(value) ? undefined : 'is not a phase number; GSD names phases like 04, 4.1, 12A, 1-2, CK-01 or PROJ-42';
}
