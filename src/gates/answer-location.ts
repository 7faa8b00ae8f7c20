import { relative, resolve } from 'node:path';
import type { SourceLocation } from '../failure.ts';
import { contains, entryKind, realPath } from '../fs/entry.ts';
import { readRegular } from '../fs/read.ts';
import type { GateContext } from '../predicate/kind.ts';
import { runPhaseDir } from '../project/phase.ts';
import { planningDirectory } from '../project/planning-scope.ts';

// Where GSD 1.14's answer to a query gate that blocks says the trouble is,
// for a report to point there as it points at an artifact gate's field (a
// GitHub annotation on that line of the pull request's diff). Each query
// names its files in fields of its own, relative to a directory of its own,
// as GSD's code writes them (gsd-tools check <query>). The others name none:
// ui.safety-gate says only that UI files changed; tdd.review-checkpoint
// names plans by id; gap-analysis.plan-post never blocks; and
// verify.codebase-drift's paths are git's, relative to the repository,
// which is not the project root when the project is a folder of it.

type Base = 'phase' | 'project' | 'planning';

interface Named {
  readonly base: Base;
  // The files, each relative to the base: the first that is a file of the
  // project is the one pointed at.
  readonly files: readonly string[];
  // The text of the line the verdict is about, where the answer gives one.
  readonly line?: string;
}

const texts = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

// By the query as GSD routes it: a dot is a hyphen (`ui.plan-gate` is `ui-plan-gate`).
const NAMED: Readonly<Record<string, (answer: Readonly<Record<string, unknown>>) => Named | undefined>> = {
  // The coverage matrix it found invalid, in the phase directory.
  'api-coverage-verify-pre': (answer) => ({ base: 'phase', files: texts(answer.matrix) }),
  // The schema files the phase's plans change, as the plans name them.
  'verify-schema-drift': (answer) => ({ base: 'project', files: texts(answer.schema_files) }),
  // The phase's files older than its CONTEXT.md.
  'verify-context-drift': (answer) => ({ base: 'phase', files: texts(answer.stale_artifacts) }),
  // The line of the phase's ROADMAP.md section that made it a frontend phase.
  'ui-plan-gate': (answer) => (typeof answer.matchedLine === 'string' ? { base: 'planning', files: ['ROADMAP.md'], line: answer.matchedLine } : undefined),
};

// ROADMAP.md is read no further than this for the line.
const ROADMAP_BYTES = 4 * 1024 * 1024;

// The file (relative to the project root) and line the answer names, or
// undefined. Only a regular file inside the project root, by its real path,
// is pointed at: the answer's paths are GSD's, and an annotation must never
// name a file outside the checkout. The line is the one whose text the
// answer gives when exactly one line of the file has it; otherwise, and
// where the answer names only the file, its first line.
export function answerLocation(query: string, answer: Readonly<Record<string, unknown>>, context: GateContext): SourceLocation | undefined {
  const named = NAMED[query.replaceAll('.', '-')]?.(answer);
  if (named === undefined) return undefined;
  const base = baseDirectory(named.base, context);
  const root = realPath(context.projectRoot);
  if (base === undefined || root === undefined) return undefined;
  for (const name of named.files) {
    const file = realPath(resolve(base, name));
    if (file === undefined || !contains(root, file) || entryKind(file) !== 'file') continue;
    return { file: relative(root, file), line: named.line === undefined ? 1 : (lineOf(file, named.line) ?? 1) };
  }
  return undefined;
}

function baseDirectory(base: Base, context: GateContext): string | undefined {
  switch (base) {
    case 'project':
      return context.projectRoot;
    case 'phase':
      return runPhaseDir(context.phaseDir, context.phaseDirLookup);
    case 'planning':
      return context.planning.ok ? planningDirectory(context.projectRoot, context.planning.value) : undefined;
  }
}

// The number of the one line whose text is `text` (GSD reads lines with a
// CRLF's CR dropped), or undefined when none or several are.
function lineOf(file: string, text: string): number | undefined {
  const read = readRegular(file, ROADMAP_BYTES);
  if (!read.ok || !read.value.complete) return undefined;
  const lines = read.value.bytes.toString('utf8').split('\n');
  const at = lines.flatMap((line, index) => (line.replace(/\r$/, '') === text ? [index + 1] : []));
  return at.length === 1 ? at[0] : undefined;
}
