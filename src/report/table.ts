import { oneLine, visible } from '../text/format.ts';
import { pointHeadline, runHeadline, type GateRow, type PointRows } from './gate-row.ts';

export interface TableStyle {
  readonly colour: boolean;
  // The terminal's width, when known: the reason column is cut to fit it.
  readonly columns?: number | undefined;
}

// A point's gates for a person at a terminal: one row per gate (status, gate,
// check, time, reason), then its verdict.
export function gatesTable(point: PointRows, style: TableStyle): string {
  const { rows } = point;
  if (rows.length === 0) return `${visible(point.message)}\n`;
  const head = ['STATUS', 'GATE', 'CHECK', 'TIME', 'REASON'];
  const body = rows.map((row) => [row.status, visible(row.gate), visible(row.check), `${row.durationMs} ms`, visible(oneLine(row.reason, 1000))]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(head[i]!.length, ...body.map((cells) => cells[i]!.length)));
  const used = widths.reduce((sum, width) => sum + width + 2, 0);
  const room = style.columns === undefined ? Infinity : Math.max(style.columns - used, 20);
  const line = (cells: readonly string[], status?: GateRow['status']): string => {
    const padded = cells.slice(0, 4).map((cell, i) => (i === 3 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)));
    if (status !== undefined) padded[0] = paint(padded[0]!, COLOUR[status], style.colour);
    return `${padded.join('  ')}  ${cut(cells[4]!, room)}`.trimEnd();
  };
  return [paint(line(head), BOLD, style.colour), ...body.map((cells, i) => line(cells, rows[i]!.status)), visible(pointHeadline(point))].join('\n') + '\n';
}

// Several points: each point's name, then its table, then the run's verdict.
export function pointsTable(points: readonly PointRows[], message: string, style: TableStyle): string {
  const parts = points.map((point) => `${paint(point.point, BOLD, style.colour)}\n${gatesTable(point, style)}`);
  return `${parts.join('\n')}\n${visible(runHeadline(points, message))}\n`;
}

const cut = (text: string, room: number): string => (text.length > room ? `${text.slice(0, room - 3)}...` : text);

const BOLD = '1';
const COLOUR = { pass: '32', advisory: '33', halt: '1;31', skipped: '2', inactive: '2' } as const;

function paint(text: string, sgr: string, on: boolean): string {
  return on ? `\u001b[${sgr}m${text}\u001b[0m` : text;
}

// Whether the table is coloured, by the conventions other tools follow:
// FORCE_COLOR (as Node reads it: "0" or "false" turns colour off, any other
// value on) over NO_COLOR (any non-empty value turns it off, no-color.org)
// over TERM=dumb.
export function colourWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}
