import { describe, jsonPath } from '../text/format.ts';
import { isJsonObject } from '../json/parse.ts';
import { BUILT_IN_VERSION } from '../gsd/identity.ts';
import type { ManifestIssues } from './manifest-fields.ts';

// A manifest's version envelope as GSD 1.14 checks it (capability-validator.cjs's
// validateVersionEnvelope): its own version, the GSD versions it runs on, and
// where it came from; and whether `engines.gsd` admits the GSD whose
// behaviour gsd-check has, as the loader re-checks it (semver-compare.cjs).

// SemVer 2.0.0 whole, as GSD writes it.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
// What a range may be made of; GSD checks no more of its shape than this.
const RANGE_CHARACTERS = /^[0-9A-Za-z.\-+ |<>=~^*()]+$/;
const SHA512_INTEGRITY = /^sha512-[A-Za-z0-9+/]{86}==$/;

const isPlausibleRange = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  if (trimmed === '' || !RANGE_CHARACTERS.test(value)) return false;
  return /\d/.test(trimmed) || trimmed === '*' || trimmed === 'x' || trimmed === 'X';
};

const SEMVER_RULE = 'a semantic version such as "1.2.3"';
const RANGE_RULE = 'a version range such as ">=1.6.0" (digits, letters and . - + | < > = ~ ^ * ( ) and spaces)';

export function checkVersionEnvelope(cap: Readonly<Record<string, unknown>>, issues: ManifestIssues): void {
  issues.expect('version', cap.version, typeof cap.version === 'string' && SEMVER.test(cap.version), SEMVER_RULE);
  const { engines, compatVersions, integrity, provenance } = cap;
  if (engines !== undefined && issues.expect('engines', engines, isJsonObject(engines), 'an object such as {"gsd": ">=1.6.0"}')) {
    const range = (engines as Record<string, unknown>).gsd;
    if (range !== undefined && issues.expect('engines.gsd', range, isPlausibleRange(range), RANGE_RULE) && !satisfies(BUILT_IN_VERSION, range as string)) {
      issues.refuse('engines.gsd', `${describe(range)} excludes GSD ${BUILT_IN_VERSION}, the GSD gsd-check checks against`);
    }
  }
  if (
    compatVersions !== undefined &&
    issues.expect('compatVersions', compatVersions, isJsonObject(compatVersions), 'an object from capability versions to GSD version ranges')
  ) {
    for (const [version, range] of Object.entries(compatVersions as Record<string, unknown>)) {
      const path = jsonPath('compatVersions', [version]);
      if (!SEMVER.test(version)) issues.refuse(path, `the key ${describe(version)} must be ${SEMVER_RULE}`);
      issues.expect(path, range, isPlausibleRange(range), RANGE_RULE);
    }
  }
  if (integrity !== undefined)
    issues.expect('integrity', integrity, typeof integrity === 'string' && SHA512_INTEGRITY.test(integrity), '"sha512-" and the base64 of a SHA-512 digest');
  if (provenance !== undefined && issues.expect('provenance', provenance, isJsonObject(provenance), 'an object {"sourceRepo", "commit"}')) {
    const { sourceRepo, commit } = provenance as Record<string, unknown>;
    issues.text('provenance.sourceRepo', sourceRepo);
    issues.text('provenance.commit', commit);
  }
}

// Whether `version` is in `range`, by GSD's own reading (semver-compare.cjs
// semverSatisfies): ranges joined by `||`, comparators by blanks, on
// major.minor.patch alone; what it cannot read admits nothing.
export function satisfies(version: string, range: string): boolean {
  const trimmed = range.trim();
  if (trimmed === '') return false;
  const v = numericTuple(version);
  const sets = trimmed
    .split('||')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return sets.some((set) => satisfiesSet(v, set));
}

type Tuple = readonly [number, number, number];
type Op = '>=' | '<=' | '>' | '<' | '=';
type Constraint = { readonly op: Op; readonly t: Tuple };

function numericTuple(input: string): Tuple {
  const base = input
    .trim()
    .replace(/^v/, '')
    .replace(/[-+].*$/, '');
  const parts = base.split('.');
  const at = (i: number): number => Number.parseInt(parts[i] ?? '', 10) || 0;
  return [at(0), at(1), at(2)];
}

function compare(a: Tuple, b: Tuple): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]! ? 1 : -1;
  return 0;
}

// A version with 0 to 3 of its parts given ("*" gives none), or null.
function versionToken(token: string): { tuple: Tuple; specified: number } | null {
  const clean = token
    .trim()
    .replace(/^v/, '')
    .replace(/[-+].*$/, '');
  if (clean === '' || clean === '*' || clean === 'x' || clean === 'X') return { tuple: [0, 0, 0], specified: 0 };
  const parts = clean.split('.');
  if (parts.length > 3) return null;
  const nums: number[] = [];
  let wildcard = false;
  for (const part of parts) {
    if (part === 'x' || part === 'X' || part === '*') {
      wildcard = true;
      continue;
    }
    if (wildcard || !/^\d+$/.test(part)) return null;
    nums.push(Number.parseInt(part, 10));
  }
  if (nums.length === 0) return { tuple: [0, 0, 0], specified: 0 };
  return { tuple: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0], specified: nums.length };
}

function constraints(comparator: string): Constraint[] | null {
  const trimmed = comparator.trim();
  if (trimmed === '' || trimmed === '*' || trimmed === 'x' || trimmed === 'X') return [{ op: '>=', t: [0, 0, 0] }];
  const m = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(trimmed);
  if (m === null) return null;
  const op = m[1] ?? '';
  const token = versionToken(m[2]!);
  if (token === null) return null;
  const { tuple, specified } = token;
  const [major, minor, patch] = tuple;
  if (op === '^') {
    const upper: Tuple = major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1];
    return [
      { op: '>=', t: tuple },
      { op: '<', t: upper },
    ];
  }
  if (op === '~')
    return [
      { op: '>=', t: tuple },
      { op: '<', t: specified >= 2 ? [major, minor + 1, 0] : [major + 1, 0, 0] },
    ];
  if (op === '' || op === '=') {
    if (specified === 0) return [{ op: '>=', t: [0, 0, 0] }];
    if (specified === 3) return [{ op: '=', t: tuple }];
    return [
      { op: '>=', t: tuple },
      { op: '<', t: specified === 1 ? [major + 1, 0, 0] : [major, minor + 1, 0] },
    ];
  }
  return specified === 0 ? null : [{ op: op as Op, t: tuple }];
}

function holds(v: Tuple, { op, t }: Constraint): boolean {
  const c = compare(v, t);
  return op === '>=' ? c >= 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : op === '<' ? c < 0 : c === 0;
}

function satisfiesSet(v: Tuple, set: string): boolean {
  const comparators = set.split(/\s+/).filter(Boolean);
  if (comparators.length === 0) return false;
  return comparators.every((comparator) => constraints(comparator)?.every((c) => holds(v, c)) ?? false);
}
