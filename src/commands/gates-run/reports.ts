import { isAbsolute, relative, resolve } from 'node:path';
import { ok, type Result, type SourceLocation } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import { canonicalPath, contains, realPath } from '../../fs/entry.ts';
import type { ReportTarget } from '../../io/report-file.ts';
import type { PointRows } from '../../report/gate-row.ts';
import { githubAnnotations, githubSummary } from '../../report/github.ts';
import { junitReport } from '../../report/junit.ts';
import { visible } from '../../text/format.ts';
import { argumentPath } from '../argument-path.ts';
import type { GatesDeps } from '../deps.ts';

// The last stage of gates run: --report's files and annotations, made from
// the rows every report reads (report/gate-row.ts).

// --report junit=<file>: the file as given, for messages, the path it is
// written to, resolved by the rule of every other file argument, and where
// it must stay once its links are followed when it is written there: the
// project root, and --cwd when given (both as found and as real paths).
// Resolved before anything runs: a path that cannot be resolved (its current
// directory deleted) fails the call before any gate's command.
export function junitTarget(options: GatesOptions, deps: Pick<GatesDeps, 'cwd'>, root: string): Result<ReportTarget | undefined> {
  const target = options.reports.find((report) => report.format === 'junit');
  if (target === undefined) return ok(undefined);
  const path = argumentPath(target.file, options.cwd, deps.cwd);
  if (!path.ok) return path;
  const cwd = options.cwd === undefined ? undefined : argumentPath('.', options.cwd, deps.cwd);
  const cwds = cwd?.ok ? [cwd.value, realPath(cwd.value) ?? cwd.value] : [];
  return ok({ path: path.value, shown: target.file, within: [...new Set([root, ...cwds])] });
}

interface Delivered {
  // The annotations: workflow commands, for stderr.
  readonly annotations: string;
  // One line for each report that could not be written.
  readonly errors: readonly string[];
}

// A report that cannot be written does not withhold the verdict: the
// envelope is still printed (a caller deciding on a halt needs it), and the
// exit status says that something was not delivered.
export function deliverReports(
  run: { readonly options: GatesOptions; readonly points: readonly PointRows[]; readonly message: string; readonly elapsedMs: number; readonly root: string },
  junit: ReportTarget | undefined,
  deps: Pick<GatesDeps, 'writeFile' | 'appendFile' | 'env'>,
): Delivered {
  const { options, points, message, elapsedMs, root } = run;
  const errors: string[] = [];
  let annotations = '';
  if (junit !== undefined) {
    const written = deps.writeFile(junit, junitReport(points, elapsedMs));
    if (!written.ok) errors.push(`gsd-check: cannot write the JUnit report ${visible(junit.shown)}: ${visible(written.failure)}\n`);
  }
  if (options.reports.some((target) => target.format === 'github')) {
    annotations = githubAnnotations(points, annotationPath(root, deps.env.GITHUB_WORKSPACE));
    const summary = deps.env.GITHUB_STEP_SUMMARY;
    if (summary !== undefined && summary !== '') {
      const appended = deps.appendFile(summary, githubSummary(points, message));
      if (!appended.ok) errors.push(`gsd-check: cannot append to GITHUB_STEP_SUMMARY ${visible(summary)}: ${appended.failure}\n`);
    }
  }
  return { annotations, errors };
}

// An annotation's file as GitHub reads it: relative to the repository's
// checkout (GITHUB_WORKSPACE) when the file is inside it, else relative to
// the project root. Both are compared as real paths: the project root is one.
function annotationPath(root: string, workspace: string | undefined): (location: SourceLocation) => string {
  const base = workspace === undefined || workspace === '' || !isAbsolute(workspace) ? undefined : (canonicalPath(workspace) ?? workspace);
  return (location) => {
    const file = resolve(root, location.file);
    return base !== undefined && contains(base, file) ? relative(base, file) : location.file;
  };
}
