import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { extractFrontmatter, parseWithLibrary, parseWithoutLibrary, yaml } from '../artifact/frontmatter.ts';
import { entryKind } from '../fs/entry.ts';
import { readRegular } from '../fs/read.ts';
import { ok, type Result } from '../failure.ts';
import { belongsToPhase, comparePhaseIds, phaseToken, samePhase } from '../project/phase-id.ts';
import type { StatePosition } from '../project/state-document.ts';
import { isNestedSummary, nestedNames, type PhasePlans, phasePlans } from './phase-plans.ts';
import { uatResults } from './uat-results.ts';

// What GSD's workflows have left of one phase, as reached.ts reads it: the
// files in its directory, the few of them whose words or frontmatter say
// which workflow wrote them, and what STATE.md records of the phase.

export interface PhaseFiles {
  readonly names: readonly string[];
  // The phase's CONTEXT.md, and whether it says another writer than
  // discuss-phase made it (an auto-generated one, the PRD or ADR express
  // paths, assumptions mode), which render no discuss hooks.
  readonly context: { readonly name: string; readonly notFromDiscuss: boolean } | undefined;
  readonly uat: Uat | undefined;
  // The phase's own VERIFICATION.md, as GSD picks it among several.
  readonly verification: string | undefined;
  // The plans that count, each with whether a SUMMARY counts for it, and
  // their waves, as phase-plans.ts reads them.
  readonly plans: PhasePlans['plans'];
  readonly waves: PhasePlans['waves'];
  // The plans `/gsd:import --from` wrote, which render no plan hooks: its
  // `type:` is one of import's five, where plan-phase's planner writes
  // `execute` or `tdd`.
  readonly imported: readonly string[];
  // What has taken the loop past this phase's ship since, in words: GSD's
  // ship note is on STATE.md's Status line, which begin-phase rewrites
  // (planned-phase keeps a note), as do phase complete and the milestone's
  // close. Another phase executing (`— EXECUTING`, whatever its number: this
  // phase's own begin-phase would name this one), a later phase's summaries
  // or report, the milestone's close (`Phase: Milestone v1.0 complete`), or,
  // once this phase has passed, STATE.md back at it as ready to plan (the
  // completion of a phase inserted before it moves STATE.md there).
  readonly pastShip: string | undefined;
  // STATE.md's `Status: Phase N shipped — PR #M`, written by GSD's ship step.
  readonly shipped: boolean;
  // The phase's VERIFICATION.md says `status: passed`: GSD's test of a
  // complete phase (roadmap analyze's disk_status), and of one it may ship.
  readonly verificationPassed: boolean;
  // Its frontmatter's `status`, trimmed; none where it has no text one.
  readonly verificationStatus: string | undefined;
  // The line that status is on, for a report to point at.
  readonly verificationLine: number | undefined;
}

interface Uat {
  readonly name: string;
  // execute-phase's own UAT: the verifier's items for a person, sourced from
  // its VERIFICATION.md.
  readonly fromVerification: boolean;
  // verify-work's marks: a status past `testing`, a result recorded, or a
  // source of SUMMARY files.
  readonly verifyWorkRan: boolean;
}

// Planning files are pages; past this they are not what GSD wrote.
const FILE_BYTES = 256 * 1024;

// `begun`: the ids of the project's phase directories whose execution has
// begun (executionBegun), in GSD's order.
export function phaseFiles(phaseDir: string | undefined, phase: string, state: StatePosition | undefined, begun: readonly string[]): Result<PhaseFiles> {
  const directory = phaseDir === undefined ? '' : basename(phaseDir);
  // GSD's workflows read only the phase's own files (`05-UAT.md` left in
  // 04's directory is not 04's); phase-plan-index takes every plan there.
  const all = phaseDir === undefined ? [] : listed(phaseDir);
  const names = all.filter((name) => belongsToPhase(name, directory));
  const named = (suffix: string): string | undefined => names.find((name) => name.endsWith(suffix) || name === suffix.slice(1));
  const text = (name: string | undefined): string | undefined => (name === undefined || phaseDir === undefined ? undefined : textOf(join(phaseDir, name)));
  const contextName = named('-CONTEXT.md');
  const contextText = text(contextName);
  const log = text(named('-DISCUSSION-LOG.md'));
  const notFromDiscuss =
    NOT_FROM_DISCUSS.some((marker) => marker.test(contextText ?? '')) ||
    /\*\*Mode(?::\*\*|\*\*:) assumptions/.test(log ?? '') ||
    named('-QUESTIONS.json') !== undefined;
  const uatName = pinned(names, 'UAT.md', directory, false);
  // Each plan's frontmatter read once: the plans' reading and the import
  // marks ask for it several times.
  const read = new Map<string, Record<string, unknown>>();
  const fields = (path: string): Record<string, unknown> => {
    if (!read.has(path)) read.set(path, frontmatter(textOf(path) ?? '', path));
    return read.get(path)!;
  };
  const plans = phaseDir === undefined ? ok({ plans: [], waves: [] }) : phasePlans(phaseDir, all, fields);
  if (!plans.ok) return plans;
  const imported =
    phaseDir === undefined
      ? []
      : plans.value.plans.map((plan) => plan.file).filter((file) => IMPORT_TYPES.has(String(fields(join(phaseDir, file)).type).trim()));
  const verificationName = pinned(names, 'VERIFICATION.md', directory, true);
  const verification = verificationName === undefined ? {} : frontmatter(text(verificationName) ?? '', verificationName);
  const status = typeof verification.status === 'string' && verification.status.trim() !== '' ? verification.status.trim() : undefined;
  return ok({
    names,
    context: contextName === undefined ? undefined : { name: contextName, notFromDiscuss },
    uat: uatName === undefined ? undefined : uatOf(uatName, text(uatName) ?? ''),
    verification: verificationName,
    plans: plans.value.plans,
    waves: plans.value.waves,
    imported,
    pastShip: pastShip(state, phase, begun, status === 'passed'),
    shipped: shippedIn(state?.rawStatus ?? null, phase),
    verificationPassed: status === 'passed',
    verificationStatus: status,
    verificationLine: status === undefined ? undefined : lineOf(text(verificationName) ?? '', /^status[ \t]*:/m),
  });
}

// GSD's resolvePhaseArtifactFile: the phase's own `<token>-VERIFICATION.md`
// (or -UAT.md) first, whatever else sorts before it (`04-CORRECTION-…`);
// then the first of the phase's dashed ones; then, for VERIFICATION.md, a
// bare one.
function pinned(names: readonly string[], bare: string, directory: string, allowBare: boolean): string | undefined {
  const candidates = names.filter((name) => name.endsWith(`-${bare}`));
  const own = `${phaseToken(directory)}-${bare}`;
  if (candidates.includes(own)) return own;
  return candidates[0] ?? (allowBare && names.includes(bare) ? bare : undefined);
}

// CONTEXT.md written by a path that renders no discuss hooks, as each marks
// it. Assumptions mode marks its CONTEXT.md too, which it writes before the
// DISCUSSION-LOG.md that says so.
const NOT_FROM_DISCUSS = [
  /\*\*Mode(?::\*\*|\*\*:) Auto-generated/,
  /\*\*Source:\*\* PRD Express Path/,
  /\*\*Source:\*\* ADR Ingest Express Path/,
  /^\*\*Gathered:\*\*[^\n]*\(assumptions mode\)/m,
];

const IMPORT_TYPES: ReadonlySet<string> = new Set(['feature', 'refactor', 'config', 'test', 'docs']);

// GSD lists a phase by name and reads through links, so a link to a regular
// file is one of the phase's files as GSD sees them.
function listed(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() || (entry.isSymbolicLink() && entryKind(join(dir, entry.name)) === 'file'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

// The 1-based line of a text the pattern first matches on.
function lineOf(text: string, pattern: RegExp): number | undefined {
  const at = pattern.exec(text)?.index;
  return at === undefined ? undefined : text.slice(0, at).split('\n').length;
}

function textOf(path: string): string | undefined {
  const read = readRegular(path, FILE_BYTES);
  return read.ok ? read.value.bytes.toString('utf8') : undefined;
}

// A file's frontmatter fields, or none where it has none GSD could read.
function frontmatter(text: string, file: string): Record<string, unknown> {
  const found = extractFrontmatter(Buffer.from(text));
  if (found.status !== 'present') return {};
  const fields = parseWithoutLibrary(found.yaml, file) ?? parseWithLibrary(found.yaml, file, yaml());
  return fields.ok && fields.value.mapping ? fields.value.fields : {};
}

function uatOf(name: string, text: string): Uat {
  const fields = frontmatter(text, name);
  const source = typeof fields.source === 'string' ? fields.source : Array.isArray(fields.source) ? fields.source.join(' ') : '';
  const status = typeof fields.status === 'string' ? fields.status.trim() : '';
  const recorded = uatResults(text).some((result) => result !== 'pending' && result !== 'missing');
  return {
    name,
    fromVerification: /VERIFICATION\.md/.test(source),
    verifyWorkRan: ['partial', 'complete', 'diagnosed'].includes(status) || recorded || /SUMMARY\.md/.test(source),
  };
}

function pastShip(state: StatePosition | undefined, phase: string, begun: readonly string[], passed: boolean): string | undefined {
  if (phase === '') return undefined;
  if (state !== undefined) {
    if (!samePhase(state.phase, phase) && executing(state.positionLine, state.phase)) return `phase ${state.phase} has begun since`;
    // Planned again after its begin-phase, a phase is `— READY TO EXECUTE`
    // once more, and only begin-phase's words in Last activity are left.
    const started = /\u2014 Phase (\S+) execution (?:started|resumed)\b/.exec(state.lastActivity ?? '');
    if (started !== null && !samePhase(started[1]!, phase)) return `phase ${started[1]} has begun since`;
    const closed = state.positionLine === null ? undefined : /^Milestone (\S+) complete$/.exec(state.positionLine.trim())?.[1];
    if (closed !== undefined) return `milestone ${closed} has closed since`;
    if (passed && samePhase(state.phase, phase) && state.status === 'planning') return 'STATE.md has come back to it as ready to plan since';
  }
  const later = begun.find((id) => comparePhaseIds(id, phase) > 0);
  return later === undefined ? undefined : `phase ${later} has begun since`;
}

// `Phase: 2 (Export) — EXECUTING`, as begin-phase writes it, for that phase.
function executing(line: string | null, phase: string): boolean {
  const match = line === null ? null : /^(\S+)\s.*\u2014\s*EXECUTING\s*$/.exec(line.trim());
  return match !== null && samePhase(match[1]!, phase);
}

// A phase's execution has begun once its directory holds a summary or a
// report (the verifier's, or a UAT of either workflow), which only come
// after begin-phase.
export function executionBegun(dir: string): boolean {
  const names = listed(dir);
  return names.some((name) => /(SUMMARY|VERIFICATION|UAT)\.md$/.test(name)) || nestedNames(dir).some(isNestedSummary);
}

function shippedIn(status: string | null, phase: string): boolean {
  const match = status === null ? null : /^Phase (\S+) shipped \u2014 PR #\d+\s*$/.exec(status.trim());
  return match !== null && samePhase(match[1]!, phase);
}
