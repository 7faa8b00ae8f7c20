import { checkLabel } from '../gates/declaration.ts';
import type { GateReport } from '../gates/run-point.ts';
import { oneLine, visible } from '../text/format.ts';

// The line gates run writes to stderr for a finished gate.
export function progressLine(point: string, report: GateReport): string {
  const reason = report.error ?? (report.status === 'pass' || report.status === 'inactive' ? '' : report.envelope?.message ?? '');
  const text = visible(oneLine(reason, 200));
  const label = visible(`${report.capability}#${report.index} [${checkLabel(report.check)}]`);
  return `gsd-check: ${point} ${label} ${report.status} (${report.durationMs} ms)${text === '' ? '' : `: ${text}`}`;
}
