import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { entryKind } from '../fs/entry.ts';

// A phase's plans and their waves as GSD 1.14's phase-plan-index builds them
// (bin/lib/plan-scan.cjs, plan-document.cjs, phase.cjs): the plan files at
// the phase's top and in its nested `plans/`, less the superseded ones; a
// plan summarized by a SUMMARY that is not blocked; its wave one more than
// the highest of the plans its depends_on names.

export interface PhasePlans {
  readonly plans: readonly { readonly id: string; readonly file: string; readonly summarized: boolean }[];
  // The plans' ids by wave, lowest first.
  readonly waves: readonly (readonly string[])[];
}

// What the plans' reading needs of a file: its frontmatter's fields as GSD
// reads them (every value text, or a list of texts), none where it has none.
type Fields = (path: string) => Record<string, unknown>;

export function phasePlans(dir: string, rootNames: readonly string[], fields: Fields): Result<PhasePlans> {
  const nested = nestedNames(dir);
  const planFiles = [...rootNames.filter(isRootPlan), ...nested.filter(isNestedPlan).map((name) => `plans/${name}`)]
    .filter((file) => !isSuperseded(fields(join(dir, file))))
    .filter(isCanonicalPlan)
    .sort();
  const summaries = new Set(
    [
      ...rootNames.filter((name) => name.endsWith('-SUMMARY.md') || name === 'SUMMARY.md'),
      ...nested.filter(isNestedSummary).map((name) => `plans/${name}`),
    ].filter((file) => !isBlocked(fields(join(dir, file)).status)),
  );
  const plans = planFiles.map((file) => ({
    id: file.replace('-PLAN.md', '').replace('PLAN.md', ''),
    file,
    dependsOn: dependsOnOf(fields(join(dir, file))),
    summarized: summaryCandidates(file).some((candidate) => summaries.has(candidate)),
    waveZero: Number.parseInt(String(fields(join(dir, file)).wave), 10) === 0,
  }));
  const seen = new Map<string, string>();
  for (const plan of plans) {
    const other = seen.get(plan.id.toLowerCase());
    if (other !== undefined) return fail('ambiguous-phase', `plans ${other} and ${plan.id} of ${dir} are one id to GSD (phase-plan-index refuses the phase)`);
    seen.set(plan.id.toLowerCase(), plan.id);
  }
  const levels = dependencyLevels(plans);
  if (levels === undefined) return fail('ambiguous-phase', `the plans of ${dir} depend on each other in a cycle (phase-plan-index refuses the phase)`);
  const offset = plans.some((plan) => plan.waveZero) ? 0 : 1;
  const waves: string[][] = [];
  for (const plan of plans) (waves[levels.get(plan.id)! + offset] ??= []).push(plan.id);
  return ok({ plans: plans.map(({ id, file, summarized }) => ({ id, file, summarized })), waves: waves.filter((wave) => wave !== undefined) });
}

export function nestedNames(dir: string): string[] {
  if (entryKind(join(dir, 'plans')) !== 'dir') return [];
  try {
    return readdirSync(join(dir, 'plans'));
  } catch {
    return [];
  }
}

const NOT_A_PLAN = [/-OUTLINE\.md$/i, /\.pre-bounce\.md$/i];

function isRootPlan(name: string): boolean {
  if (NOT_A_PLAN.some((pattern) => pattern.test(name)) || /-PLAN-REVIEW\.md$/i.test(name)) return false;
  if (name.endsWith('-PLAN.md') || name === 'PLAN.md') return true;
  if (name.endsWith('-SUMMARY.md') || name === 'SUMMARY.md') return false;
  return /(^|-)PLAN(-\d+.*)?\.md$/i.test(name);
}

const isNestedPlan = (name: string): boolean => !NOT_A_PLAN.some((pattern) => pattern.test(name)) && /^PLAN-\d+.*\.md$|-PLAN-\d+.*\.md$/i.test(name);
export const isNestedSummary = (name: string): boolean => /^SUMMARY-\d+.*\.md$|-SUMMARY-\d+.*\.md$/i.test(name);
// phase-plan-index indexes only these of the plan files it found.
const isCanonicalPlan = (file: string): boolean =>
  file.startsWith('plans/') ? isNestedPlan(file.slice('plans/'.length)) : file.endsWith('-PLAN.md') || file === 'PLAN.md';

const isSuperseded = (fields: Record<string, unknown>): boolean => typeof fields.status === 'string' && fields.status.trim().toLowerCase() === 'superseded';
const isBlocked = (status: unknown): boolean =>
  typeof status === 'string' &&
  status
    .replace(/\s+#.*$/, '')
    .trim()
    .toLowerCase() === 'blocked';

// A list of ids, or one id written as a scalar.
function dependsOnOf(fields: Record<string, unknown>): string[] {
  const value = fields.depends_on;
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

// GSD's extractCanonicalPlanId: `04-01` of `04-01-auth-PLAN.md`.
function canonicalPlanId(file: string): string {
  const base = file
    .replace(/-PLAN\.md$/i, '')
    .replace(/-SUMMARY\.md$/i, '')
    .replace(/\.md$/i, '');
  const parts = base.split('-').filter(Boolean);
  const at = parts.findIndex((part) => /^(?:\d{2,}[A-Z]?|\d[A-Z])(?:\.\d+)*$/i.test(part));
  return at >= 0 && at + 1 < parts.length && /^(?:\d{2}(?!\d)[A-Z]?|\d[A-Z])(?:\.\d+)*$/i.test(parts[at + 1]!) ? `${parts[at]!}-${parts[at + 1]!}` : base;
}

// The SUMMARY names that summarize a plan file (core-utils' summaryCandidates).
function summaryCandidates(plan: string): string[] {
  const slash = plan.lastIndexOf('/');
  const dir = slash >= 0 ? plan.slice(0, slash + 1) : '';
  const base = plan.slice(dir.length).replace(/\.md$/i, '');
  const candidates = [`${dir}${base.replace(/PLAN/i, 'SUMMARY')}.md`, `${dir}${base}-SUMMARY.md`];
  const extended = /^(\d+)-PLAN-(\d+)/i.exec(base);
  if (extended !== null) candidates.push(`${dir}${extended[1]!}-${extended[2]!}-SUMMARY.md`);
  const canonical = canonicalPlanId(`${base}.md`);
  if (canonical !== base.replace(/-PLAN$/i, '')) candidates.push(`${dir}${canonical}-SUMMARY.md`);
  return candidates;
}

// Each plan's level in its depends_on graph (Kahn's order, as GSD computes
// it): a name that is no plan of the phase is an edge GSD drops; a cycle is
// undefined.
function dependencyLevels(
  plans: readonly { readonly id: string; readonly file: string; readonly dependsOn: readonly string[] }[],
): Map<string, number> | undefined {
  const byId = new Map(plans.map((plan) => [plan.id.toLowerCase(), plan.id]));
  const byCanonical = new Map(plans.map((plan) => [canonicalPlanId(plan.id).toLowerCase(), plan.id]));
  const byNumber = new Map<string, string>();
  for (const plan of plans) {
    const canonical = canonicalPlanId(plan.id);
    const number = canonical.slice(canonical.lastIndexOf('-') + 1).toLowerCase();
    if (canonical.lastIndexOf('-') > 0 && /^\d+$/.test(number) && !byNumber.has(number)) byNumber.set(number, plan.id);
  }
  const resolve = (dep: string): string | undefined => byId.get(dep.toLowerCase()) ?? byCanonical.get(dep.toLowerCase()) ?? byNumber.get(dep.toLowerCase());
  const after = new Map<string, string[]>(plans.map((plan) => [plan.id, []]));
  const waiting = new Map<string, number>(plans.map((plan) => [plan.id, 0]));
  for (const plan of plans) {
    for (const dep of plan.dependsOn) {
      const on = resolve(dep);
      if (on === undefined) continue;
      after.get(on)!.push(plan.id);
      waiting.set(plan.id, waiting.get(plan.id)! + 1);
    }
  }
  const level = new Map<string, number>();
  const queue = plans.filter((plan) => waiting.get(plan.id) === 0).map((plan) => plan.id);
  for (const id of queue) level.set(id, 0);
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head]!;
    for (const next of after.get(current)!) {
      level.set(next, Math.max(level.get(next) ?? -1, level.get(current)! + 1));
      waiting.set(next, waiting.get(next)! - 1);
      if (waiting.get(next) === 0) queue.push(next);
    }
  }
  return queue.length < plans.length ? undefined : level;
}
