import type { SourceLocation } from '../failure.ts';
import type { GsdDetails } from '../gates/provenance.ts';
import { oneLine, visible } from '../text/format.ts';
import { halts, pointHeadline, runHeadline, type GateRow, type PointRows } from './gate-row.ts';

// The job summary's Markdown ($GITHUB_STEP_SUMMARY): a heading, the verdict
// as the terminal's table words it, which GSD decided, then the points that
// halted, each with a table of its gates (the halted ones first); the
// points that passed or have no gates folded away, and those --reached left
// out listed with why.

interface SummaryAbout {
  readonly gsd?: GsdDetails | undefined;
  // The address a located gate's line is shown at, when the run knows one.
  readonly link: (location: SourceLocation) => string | undefined;
  // What the annotations GitHub would not show were (github-annotations.ts).
  readonly dropped: readonly string[];
  // Which phase --reached gated, and why (provenance.ts's gatedPhase), and
  // the point its loop evaluates next.
  readonly phase?: string | undefined;
  readonly next?: { readonly point: string; readonly why: string } | null | undefined;
  // The capabilities the GSD that rendered does not load (gsd/capabilities.ts).
  readonly unloaded?: readonly string[] | undefined;
}

export function githubSummary(points: readonly PointRows[], message: string, about: SummaryAbout): string {
  const [only] = points;
  const single = points.length === 1 && only !== undefined;
  const of = about.phase === undefined ? '' : `${cell(about.phase)}, `;
  const head = single
    ? [`### gsd-check gates run: ${of}${cell(only.point)}`, '', cell(pointHeadline(only)), '']
    : [`### gsd-check gates run: ${of}${points.length} points`, '', cell(runHeadline(points, message)), ''];
  const next = about.next === undefined || about.next === null ? [] : [`Next in GSD's loop: ${cell(about.next.point)}, not reached: ${cell(about.next.why)}`];
  const unloaded = (about.unloaded ?? []).map((line) => `⚠️ ${cell(line)}`);
  const said = [...gsdLine(about.gsd), ...unloaded, ...next, ...about.dropped.map(cell)].flatMap((line) => [line, '']);
  if (single) return [...head, ...said, ...table(only.rows, about.link)].join('\n') + '\n';
  const reached = points.filter((point) => point.reached);
  const halted = reached.filter(halts);
  const rest = reached.filter((point) => !halts(point));
  const left = points.filter((point) => !point.reached);
  const parts = [
    ...halted.flatMap((point) => [`#### ${cell(point.point)}`, '', cell(pointHeadline(point)), '', ...table(point.rows, about.link)]),
    ...rest.flatMap((point) => folded(cell(pointHeadline(point)), table(point.rows, about.link))),
    ...(left.length === 0 ? [] : folded(`${left.length} not reached`, left.map((point) => `- ${cell(point.message)}`).concat(''))),
  ];
  return [...head, ...said, ...parts].join('\n') + '\n';
}

// Which GSD decided, as the envelope's details.gsd says it.
function gsdLine(gsd: GsdDetails | undefined): string[] {
  if (gsd === undefined) return [];
  const found =
    gsd.found === null
      ? 'no GSD found where gsd_run looks'
      : `GSD ${gsd.version ?? '(version not said)'} at ${gsd.found}${gsd.tested ? '' : ', not a version gsd-check is tested with'}`;
  return [cell(gsd.registry === undefined ? `Rendered by ${found}` : `GSD ${gsd.registry}'s built-in gates; ${found}`)];
}

// A point that needs no reading unfolded: its headline as the summary.
function folded(summary: string, body: readonly string[]): string[] {
  return ['<details>', `<summary>${summary}</summary>`, '', ...body, '</details>', ''];
}

function table(rows: readonly GateRow[], link: SummaryAbout['link']): string[] {
  if (rows.length === 0) return [];
  const located = rows.some((row) => row.location !== undefined);
  const ordered = [...rows.filter((row) => row.status === 'halt'), ...rows.filter((row) => row.status !== 'halt')];
  const body = ordered.map((row) => {
    const where = located ? ` ${place(row.location, link)} |` : '';
    return `| ${ICON[row.status]} ${row.status} | ${cell(row.gate)} | ${cell(row.check)} | ${row.durationMs} ms | ${cell(row.reason)} |${where}`;
  });
  return [`| Status | Gate | Check | Time | Reason |${located ? ' Where |' : ''}`, `| --- | --- | --- | ---: | --- |${located ? ' --- |' : ''}`, ...body, ''];
}

// A gate's file and line, linked to where GitHub shows that line of the commit.
function place(location: SourceLocation | undefined, link: SummaryAbout['link']): string {
  if (location === undefined) return '';
  const text = cell(`${location.file}:${location.line}`);
  const url = link(location);
  return url === undefined ? text : `[${text}](${url})`;
}

const ICON = { pass: '✅', advisory: '⚠️', halt: '❌', skipped: '⏭️', inactive: '➖' } as const;

// One line, every ASCII punctuation mark backslash-escaped (CommonMark
// allows it for any), so that text from a gate can neither end a cell nor
// make a link, an HTML tag or emphasis.
function cell(value: string): string {
  return visible(oneLine(value, 300)).replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`);
}
