import type { SourceLocation } from '../failure.ts';
import { oneLine, visible } from '../text/format.ts';
import { commandData, commandProperty } from '../text/github-log.ts';
import { pointHeadline, runHeadline, type GateRow, type PointRows } from './gate-row.ts';

// GitHub Actions' workflow commands for a run's gates: an error annotation
// per halted gate, a warning per advisory, a notice per gate skipped because
// its check failed (a check that said nothing should not pass unseen), and
// an error per point that could not be evaluated. Inactive and passing gates
// make none. A gate whose check read a file (a frontmatter gate's artifact)
// is annotated at its line, `file` given by `where`: GitHub then shows it on
// that line of the pull request's diff.
export function githubAnnotations(points: readonly PointRows[], where: (location: SourceLocation) => string): string {
  const lines = points.flatMap((point) => {
    if (!point.evaluated) return [`::error title=${commandProperty(`gsd-check ${point.point} not evaluated`)}::${commandData(point.message)}`];
    return point.rows.flatMap((row) => {
      const level = row.status === 'halt' ? 'error' : row.status === 'advisory' ? 'warning' : row.status === 'skipped' ? 'notice' : undefined;
      if (level === undefined) return [];
      const title = `gsd-check ${point.point} ${row.gate} [${row.check}] ${row.status}`;
      const at = row.location === undefined ? '' : `file=${commandProperty(where(row.location))},line=${row.location.line},`;
      return [`::${level} ${at}title=${commandProperty(title)}::${commandData(row.reason === '' ? row.status : row.reason)}`];
    });
  });
  return lines.map((line) => `${line}\n`).join('');
}

// The job summary's Markdown ($GITHUB_STEP_SUMMARY): a heading, the point's
// verdict as the terminal's table words it, and a table of every gate; for
// several points, the run's verdict, then each point under a heading of its own.
export function githubSummary(points: readonly PointRows[], message: string): string {
  const [only] = points;
  if (points.length === 1 && only !== undefined) {
    return [`### gsd-check gates run: ${cell(only.point)}`, '', cell(pointHeadline(only)), '', ...table(only.rows)].join('\n') + '\n';
  }
  const parts = points.flatMap((point) => [`#### ${cell(point.point)}`, '', cell(pointHeadline(point)), '', ...table(point.rows)]);
  return [`### gsd-check gates run: ${points.length} points`, '', cell(runHeadline(points, message)), '', ...parts].join('\n') + '\n';
}

function table(rows: readonly GateRow[]): string[] {
  if (rows.length === 0) return [];
  const body = rows.map((row) => `| ${ICON[row.status]} ${row.status} | ${cell(row.gate)} | ${cell(row.check)} | ${row.durationMs} ms | ${cell(row.reason)} |`);
  return ['| Status | Gate | Check | Time | Reason |', '| --- | --- | --- | ---: | --- |', ...body, ''];
}

const ICON = { pass: '✅', advisory: '⚠️', halt: '❌', skipped: '⏭️', inactive: '➖' } as const;

// One line, every ASCII punctuation mark backslash-escaped (CommonMark
// allows it for any), so that text from a gate can neither end a cell nor
// make a link, an HTML tag or emphasis.
function cell(value: string): string {
  return visible(oneLine(value, 300)).replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`);
}
