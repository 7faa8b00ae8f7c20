import { relative, resolve, sep } from 'node:path';
import type { SourceLocation } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import { canonicalPath, contains } from '../../fs/entry.ts';
import { workspaceRelative } from '../../project/shown-path.ts';
import type { ReportTarget } from '../../io/report-file.ts';
import type { GsdDetails } from '../../gates/provenance.ts';
import type { PointRows } from '../../report/gate-row.ts';
import { droppedAnnotations, githubAnnotations } from '../../report/github-annotations.ts';
import type { GithubEnvironment } from '../../report/github-environment.ts';
import { githubSummary } from '../../report/job-summary.ts';
import { junitReport } from '../../report/junit.ts';
import { visible } from '../../text/format.ts';
import type { GatesDeps } from '../deps.ts';

// The last stage of gates run: --report's files and annotations, made from
// the rows every report reads (report/gate-row.ts). Where the JUnit file
// goes is junit-target.ts's, settled before anything runs.

interface Delivered {
  // The annotations: workflow commands, for stderr.
  readonly annotations: string;
  // Lines for stderr: the annotations GitHub would not show, counted.
  readonly notes: readonly string[];
  // One line for each report that could not be written.
  readonly errors: readonly string[];
}

// A report that cannot be written does not withhold the verdict: the
// envelope is still printed (a caller deciding on a halt needs it), and the
// exit status says that something was not delivered.
export function deliverReports(
  run: {
    readonly options: GatesOptions;
    readonly points: readonly PointRows[];
    readonly message: string;
    readonly elapsedMs: number;
    readonly root: string;
    readonly gsd: GsdDetails | undefined;
    readonly phase: string | undefined;
    readonly next: { readonly point: string; readonly why: string } | null | undefined;
    readonly unloaded: readonly string[];
  },
  junit: ReportTarget | undefined,
  deps: Pick<GatesDeps, 'writeFile' | 'appendFile' | 'github'>,
): Delivered {
  const { options, points, message, elapsedMs, root, gsd, phase, next, unloaded } = run;
  const errors: string[] = [];
  let annotations = '';
  let notes: string[] = [];
  if (junit !== undefined) {
    const written = deps.writeFile(
      junit,
      junitReport(points, elapsedMs, [...(phase === undefined ? [] : [['phase', phase] as [string, string]]), ...gsdProperties(gsd)], phase),
    );
    if (!written.ok) errors.push(`gsd-check: cannot write the JUnit report ${visible(junit.shown)}: ${visible(written.failure)}\n`);
  }
  if (options.reports.some((target) => target.format === 'github')) {
    const where = annotationPath(root, deps.github.workspace);
    const annotated = githubAnnotations(points, where);
    annotations = annotated.commands;
    const dropped = droppedAnnotations(annotated.dropped);
    notes = dropped.map((line) => `gsd-check: ${line}\n`);
    const summary = deps.github.stepSummary;
    if (summary !== undefined) {
      const appended = deps.appendFile(
        summary,
        githubSummary(points, message, {
          gsd: gsd === undefined ? undefined : { ...gsd, found: shownGsd(gsd.found, deps.github) },
          dropped,
          link: lineLink(deps.github, root),
          phase,
          next,
          unloaded,
        }),
      );
      if (!appended.ok) errors.push(`gsd-check: cannot append to GITHUB_STEP_SUMMARY ${visible(summary)}: ${appended.failure}\n`);
    }
  }
  return { annotations, notes, errors };
}

// The JUnit report's properties: which GSD decided, as the envelope says.
function gsdProperties(gsd: GsdDetails | undefined): [string, string][] {
  if (gsd === undefined) return [];
  return [
    ...(gsd.registry === undefined ? [] : [['gsd.registry', gsd.registry] as [string, string]]),
    ['gsd.found', gsd.found ?? ''],
    ['gsd.version', gsd.version ?? ''],
    ['gsd.tested', String(gsd.tested)],
  ];
}

// Where GitHub shows a line of the commit the job runs on, when the runner
// says which and the file is in the checkout: `<server>/<owner>/<repo>/blob/
// <sha>/<path>#L<line>`. A file outside the checkout is in no commit of the
// repository: it has no link, whatever its path reads as.
function lineLink(github: GithubEnvironment, root: string): (location: SourceLocation) => string | undefined {
  const { commit, workspace } = github;
  if (commit === undefined || workspace === undefined) return () => undefined;
  const base = canonicalPath(workspace) ?? workspace;
  return (location) => {
    const file = resolve(root, location.file);
    if (!contains(base, file)) return undefined;
    const path = relative(base, file).split(sep).map(encodeURIComponent).join('/');
    return `${commit.server}/${commit.repository}/blob/${commit.sha}/${path}#L${location.line}`;
  };
}

// The GSD that decided, as the summary names it: relative to the checkout
// when it is inside it (the lockfile's GSD), never the runner's own path
// to the checkout; else as found.
function shownGsd(found: string | null, github: GithubEnvironment): string | null {
  if (found === null || github.workspace === undefined) return found;
  const base = canonicalPath(github.workspace) ?? github.workspace;
  const real = canonicalPath(found) ?? found;
  return contains(base, real) ? relative(base, real) : found;
}

// An annotation's file as GitHub reads it: relative to the repository's
// checkout when the file is inside it, as every path gates run shows.
function annotationPath(root: string, workspace: string | undefined): (location: SourceLocation) => string {
  const shown = workspaceRelative(root, workspace);
  return (location) => shown(resolve(root, location.file));
}
