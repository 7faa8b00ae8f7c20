import type { SourceLocation } from '../failure.ts';
import type { LoopPoint } from '../gates/activation.ts';
import { checkLabel } from '../gates/declaration.ts';
import type { PointEntry } from '../gates/run-envelope.ts';
import { gateLabel, type GateReport } from '../gates/run-point.ts';
import { describe } from '../text/format.ts';

// What a report (JUnit, GitHub, the terminal table) says of one gate, read
// once from the runner's report so that the three cannot disagree.
// `caseStatus` is the test report's word for the gate's test case: a halt by
// the check's own verdict is a failure, a halt because the check could not
// be evaluated (onError: halt, an invalid gate, no descriptors left) an error.
type CaseStatus = 'passed' | 'failure' | 'error' | 'skipped';

export interface GateRow {
  readonly status: GateReport['status'];
  readonly caseStatus: CaseStatus;
  readonly capability: string;
  // capability#index, as the envelope's message and the progress lines name it.
  readonly gate: string;
  readonly check: string;
  readonly durationMs: number;
  // Unescaped, possibly several lines: each format makes it safe its own way.
  readonly reason: string;
  // The file and line it is about, relative to the project root.
  readonly location?: SourceLocation;
}

// A point's part of a report: its message and its gates' rows, or, for a
// point that could not be evaluated, why (its message) and no rows; for a
// point --reached left out, why (its message), no rows and nothing run.
export interface PointRows {
  readonly point: LoopPoint;
  readonly message: string;
  readonly evaluated: boolean;
  readonly reached: boolean;
  readonly rows: readonly GateRow[];
}

export function pointRows(entry: PointEntry): PointRows {
  return {
    point: entry.point,
    message: entry.message,
    evaluated: entry.reason === undefined,
    reached: entry.reached !== false,
    rows: entry.gates.map(gateRow),
  };
}

export function gateRow(report: GateReport): GateRow {
  return {
    status: report.status,
    caseStatus: caseStatusOf(report),
    capability: report.capability,
    gate: gateLabel(report),
    check: checkLabel(report.check),
    durationMs: report.durationMs,
    reason: reasonOf(report),
    ...(report.location === undefined ? {} : { location: report.location }),
  };
}

// A point's verdict beside its gates, in the terminal's table and the job
// summary: with a halt, only the gates that halted, since the reason column
// says why, so a halt's reason is told once. (stderr's progress lines tell it
// too, as each gate finishes, before there is a table to read.)
export function pointHeadline(point: PointRows): string {
  const halted = point.rows.filter((row) => row.status === 'halt');
  if (halted.length === 0) return point.message;
  const advisory = point.rows.filter((row) => row.status === 'advisory').length;
  return `${point.point}: halted by ${halted.map((row) => row.gate).join(', ')}${advisory > 0 ? `; ${advisory} advisory` : ''}`;
}

// Several points' verdict: the run's message, or the points that halted.
export function runHeadline(points: readonly PointRows[], message: string): string {
  const halted = points.filter(halts);
  const reached = points.filter((point) => point.reached);
  const of = reached.length === points.length ? `${points.length} points` : `${reached.length} points reached (of ${points.length})`;
  return halted.length === 0 ? message : `${halted.length} of ${of} halted: ${halted.map((point) => point.point).join(', ')}`;
}

// A point that halts the run: one not evaluated, or one a gate of which halted.
export const halts = (point: PointRows): boolean => !point.evaluated || point.rows.some((row) => row.status === 'halt');

function caseStatusOf(report: GateReport): CaseStatus {
  switch (report.status) {
    case 'pass':
    case 'advisory':
      return 'passed';
    case 'halt':
      return report.envelope === undefined ? 'error' : 'failure';
    case 'skipped':
    case 'inactive':
      return 'skipped';
  }
}

function reasonOf(report: GateReport): string {
  if (report.status === 'inactive') {
    const a = report.activation;
    return a === undefined ? 'inactive' : `inactive: ${a.key} is ${describe(a.value)} (${SOURCE[a.source]})`;
  }
  if (report.error !== undefined) return report.status === 'skipped' ? `onError skip: ${report.error}` : report.error;
  return report.status === 'pass' ? '' : (report.envelope?.message ?? '');
}

const SOURCE = {
  workstream: "the workstream's config",
  config: "the project's config",
  default: "a capability's declared default",
  absent: 'set nowhere',
} as const;
