import { ok, type Result } from '../failure.ts';
import { usage } from './usage.ts';

// Where gates run also reports the point's gates: a JUnit XML file, or
// GitHub Actions' annotations and job summary.
export type ReportTarget = { readonly format: 'junit'; readonly file: string } | { readonly format: 'github' };

const REPORT_KINDS = ['junit=<file>', 'github'] as const;

// The --report values, each format at most once.
export function reportTargets(values: readonly string[]): Result<ReportTarget[]> {
  const targets: ReportTarget[] = [];
  for (const value of values) {
    const [format, ...rest] = value.split('=');
    let target: ReportTarget;
    if (format === 'junit') {
      const file = rest.join('=');
      if (rest.length === 0 || file === '') return usage('--report junit needs a file: --report junit=<file>');
      target = { format: 'junit', file };
    } else if (format === 'github' && rest.length === 0) {
      target = { format: 'github' };
    } else {
      return usage(`--report ${JSON.stringify(value)} is not a report; one of: ${REPORT_KINDS.join(', ')}`);
    }
    if (targets.some((t) => t.format === target.format)) return usage(`--report ${target.format} is given more than once`);
    targets.push(target);
  }
  return ok(targets);
}
