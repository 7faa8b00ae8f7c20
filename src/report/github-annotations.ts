import type { SourceLocation } from '../failure.ts';
import { commandData, commandProperty } from '../text/github-log.ts';
import type { PointRows } from './gate-row.ts';

// GitHub Actions' annotations for a run's gates: an error per halted gate and
// per point that could not be evaluated, a warning per advisory, a notice
// per gate skipped because its check failed (a check that said nothing
// should not pass unseen). Inactive and passing gates make none, nor do
// points --reached left out. A gate whose check read a file (a frontmatter
// gate's artifact), or whose query's answer names one, is annotated at its
// line, `file` given by `where`: GitHub then shows it on that line of the
// pull request's diff.

// GitHub shows this many annotations of each level a step, and drops the
// rest unseen.
const SHOWN_PER_LEVEL = 10;

const LEVELS = ['error', 'warning', 'notice'] as const;
type Level = (typeof LEVELS)[number];

interface Annotations {
  // The workflow commands, at most SHOWN_PER_LEVEL of each level.
  readonly commands: string;
  // How many of each level were left out.
  readonly dropped: Readonly<Record<Level, number>>;
}

export function githubAnnotations(points: readonly PointRows[], where: (location: SourceLocation) => string): Annotations {
  const byLevel: Record<Level, string[]> = { error: [], warning: [], notice: [] };
  for (const point of points) {
    if (!point.reached) continue;
    if (!point.evaluated) {
      byLevel.error.push(`::error title=${commandProperty(`gsd-check ${point.point} not evaluated`)}::${commandData(point.message)}`);
      continue;
    }
    for (const row of point.rows) {
      const level = row.status === 'halt' ? 'error' : row.status === 'advisory' ? 'warning' : row.status === 'skipped' ? 'notice' : undefined;
      if (level === undefined) continue;
      const title = `gsd-check ${point.point} ${row.gate} [${row.check}] ${row.status}`;
      const at = row.location === undefined ? '' : `file=${commandProperty(where(row.location))},line=${row.location.line},`;
      byLevel[level].push(`::${level} ${at}title=${commandProperty(title)}::${commandData(row.reason === '' ? row.status : row.reason)}`);
    }
  }
  // The halts first: GitHub lists them before the rest.
  const shown = LEVELS.flatMap((level) => byLevel[level].slice(0, SHOWN_PER_LEVEL));
  const dropped = Object.fromEntries(LEVELS.map((level) => [level, Math.max(0, byLevel[level].length - SHOWN_PER_LEVEL)])) as Record<Level, number>;
  return { commands: shown.map((line) => `${line}\n`).join(''), dropped };
}

// What the log and the job summary say of the annotations GitHub would not
// show, one sentence a level; none when nothing was left out.
export function droppedAnnotations(dropped: Annotations['dropped']): string[] {
  const what = { error: 'halts', warning: 'advisories', notice: 'skipped gates' } as const;
  return LEVELS.flatMap((level) =>
    dropped[level] === 0
      ? []
      : [
          `${dropped[level]} more ${what[level]} than the ${SHOWN_PER_LEVEL} ${level} annotations GitHub shows a step were not annotated: every gate is in the envelope and the job summary`,
        ],
  );
}
