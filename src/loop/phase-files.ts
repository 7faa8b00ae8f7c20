import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { extractFrontmatter, parseWithLibrary, parseWithoutLibrary, yaml } from '../artifact/frontmatter.ts';
import { entryKind } from '../fs/entry.ts';
import { readRegular } from '../fs/read.ts';
import { normalizePhaseNumber } from '../project/phase.ts';
import type { StatePosition } from '../project/state-document.ts';

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
  // The plans that count (`status: superseded` ones do not), each with
  // whether its SUMMARY.md counts (one that says `status: blocked` does not).
  readonly plans: readonly { readonly id: string; readonly summarized: boolean }[];
  // The plans' ids by wave, lowest first: the levels of their depends_on
  // graph within the phase, as GSD's phase-plan-index computes them (the
  // `wave:` field only draws a warning from it).
  readonly waves: readonly (readonly string[])[];
  // What STATE.md's `## Current Position` says of this phase: planned and
  // ready to execute, or executing; its words, for the envelope.
  readonly position: 'ready' | 'executing' | undefined;
  readonly positionText: string | undefined;
  // STATE.md's `Status: Phase N shipped — PR #M`, written by GSD's ship step.
  readonly shipped: boolean;
  // The phase's VERIFICATION.md says `status: passed`: GSD's test of a
  // complete phase (roadmap analyze's disk_status), and of one it may ship.
  readonly verificationPassed: boolean;
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

export function phaseFiles(phaseDir: string | undefined, phase: string, state: StatePosition | undefined): PhaseFiles {
  const names = phaseDir === undefined ? [] : listed(phaseDir);
  const named = (suffix: string): string | undefined => names.find((name) => name.endsWith(suffix));
  const text = (name: string | undefined): string | undefined => (name === undefined || phaseDir === undefined ? undefined : textOf(join(phaseDir, name)));
  const contextName = named('-CONTEXT.md');
  const contextText = text(contextName);
  const log = text(named('-DISCUSSION-LOG.md'));
  const notFromDiscuss = NOT_FROM_DISCUSS.some((marker) => marker.test(contextText ?? '')) || /\*\*Mode:\*\* assumptions/.test(log ?? '');
  const uatName = named('-UAT.md');
  const plans = phaseDir === undefined ? [] : plansOf(phaseDir, names);
  const verificationName = named('-VERIFICATION.md');
  const verification = verificationName === undefined ? {} : frontmatter(text(verificationName) ?? '', verificationName);
  const position = positionOf(state?.positionLine ?? null, phase);
  return {
    names,
    context: contextName === undefined ? undefined : { name: contextName, notFromDiscuss },
    uat: uatName === undefined ? undefined : uatOf(uatName, text(uatName) ?? ''),
    plans: plans.map(({ id, summarized }) => ({ id, summarized })),
    waves: waves(plans),
    position,
    positionText: position === undefined ? undefined : `Phase: ${state!.positionLine}`,
    shipped: shippedIn(state?.rawStatus ?? null, phase),
    verificationPassed: typeof verification.status === 'string' && verification.status.trim() === 'passed',
  };
}

// CONTEXT.md written by a path that renders no discuss hooks, as each marks it.
const NOT_FROM_DISCUSS = [/\*\*Mode:\*\* Auto-generated/, /\*\*Source:\*\* PRD Express Path/, /\*\*Source:\*\* ADR Ingest Express Path/];

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
  const recorded = [...text.matchAll(/^result:[ \t]*(.*)$/gm)].some((match) => match[1]!.trim() !== '[pending]');
  return {
    name,
    fromVerification: /VERIFICATION\.md/.test(source),
    verifyWorkRan: ['partial', 'complete', 'diagnosed'].includes(status) || recorded || /SUMMARY\.md/.test(source),
  };
}

interface Plan {
  readonly id: string;
  readonly dependsOn: readonly string[];
  readonly summarized: boolean;
}

function plansOf(dir: string, names: readonly string[]): Plan[] {
  return names.flatMap((name) => {
    if (!name.endsWith('-PLAN.md')) return [];
    const id = name.slice(0, -'-PLAN.md'.length);
    const fields = frontmatter(textOf(join(dir, name)) ?? '', name);
    if (fields.status === 'superseded') return [];
    const summary = names.includes(`${id}-SUMMARY.md`) ? frontmatter(textOf(join(dir, `${id}-SUMMARY.md`)) ?? '', `${id}-SUMMARY.md`) : undefined;
    const dependsOn = Array.isArray(fields.depends_on) ? fields.depends_on.filter((d): d is string => typeof d === 'string') : [];
    return [{ id, dependsOn, summarized: summary !== undefined && summary.status !== 'blocked' }];
  });
}

// A plan's wave is one more than the highest wave of the plans it depends
// on within the phase; a cycle leaves its plans in no wave.
function waves(plans: readonly Plan[]): string[][] {
  const byId = new Map(plans.map((plan) => [plan.id, plan]));
  const level = new Map<string, number>();
  const visiting = new Set<string>();
  const levelOf = (plan: Plan): number => {
    const known = level.get(plan.id);
    if (known !== undefined) return known;
    if (visiting.has(plan.id)) return Infinity;
    visiting.add(plan.id);
    const deps = plan.dependsOn.flatMap((id) => byId.get(id) ?? []);
    const own = deps.length === 0 ? 1 : Math.max(...deps.map(levelOf)) + 1;
    visiting.delete(plan.id);
    level.set(plan.id, own);
    return own;
  };
  const result: string[][] = [];
  for (const plan of plans) {
    const at = levelOf(plan);
    if (!Number.isFinite(at)) continue;
    (result[at - 1] ??= []).push(plan.id);
  }
  return result.filter((wave) => wave !== undefined);
}

// Two spellings of one phase id: `1` and `01`, `01.1` and `1.1`.
const samePhase = (a: string, b: string): boolean => normalizePhaseNumber(a).toUpperCase() === normalizePhaseNumber(b).toUpperCase();

// `Phase: 1 (Tasks) — READY TO EXECUTE` (planned-phase) or `… — EXECUTING`
// (begin-phase), for this phase.
function positionOf(line: string | null, phase: string): 'ready' | 'executing' | undefined {
  if (line === null) return undefined;
  const match = /^(\S+)\s.*\u2014\s*(READY TO EXECUTE|EXECUTING)\s*$/.exec(line.trim());
  if (match === null || !samePhase(match[1]!, phase)) return undefined;
  return match[2] === 'EXECUTING' ? 'executing' : 'ready';
}

function shippedIn(status: string | null, phase: string): boolean {
  const match = status === null ? null : /^Phase (\S+) shipped \u2014 PR #\d+\s*$/.exec(status.trim());
  return match !== null && samePhase(match[1]!, phase);
}
