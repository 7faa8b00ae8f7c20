import { EXIT_WRITE_FAILED, fail, ok, type Failure, type Result, type SourceLocation } from '../failure.ts';
import type { LoopPoint } from '../gates/activation.ts';
import { builtinCapabilities, gatesAt, type Capability, gatesFromHooks, gatesFromHooksOf } from '../gates/sources.ts';
import { gatesWithin } from '../gates/pool.ts';
import { POINT_DETAILS, runPoints, type PointEnvelope, type PointGate } from '../gates/run-point.ts';
import { pointEntry, RUN_DETAILS, runEnvelope, type PointOutcome } from '../gates/run-envelope.ts';
import { jsonDocuments, parseJson } from '../json/parse.ts';
import { KINDS } from '../kinds/table.ts';
import { now } from '../run/time.ts';
import { pointRows, type PointRows } from '../report/gate-row.ts';
import { githubAnnotations, githubSummary } from '../report/github.ts';
import { junitReport } from '../report/junit.ts';
import { gatesTable, pointsTable } from '../report/table.ts';
import { visible } from '../text/format.ts';
import type { GatesOptions } from '../cli/gates-options.ts';
import { argumentPath } from './argument-path.ts';
import { canonicalPath, contains, realPath } from '../fs/entry.ts';
import type { ReportTarget } from '../io/report-file.ts';
import { textInput } from '../io/input.ts';
import { isAbsolute, relative, resolve } from 'node:path';
import { loadCapability } from '../gates/capability-file.ts';
import { loadLayers } from '../gates/config-layers.ts';
import { queryCommand } from '../gates/query.ts';
import type { GatesDeps } from './deps.ts';
import type { GateContext } from '../predicate/kind.ts';
import { gateContext } from './gate-context.ts';
import { failureOutcome, progressLine, verdictOutcome, type Outcome } from './outcome.ts';
import { checkPickPath } from '../cli/pick-path.ts';

// Each point's gates, or why that point has none (its rendered hooks are
// missing from the input).
type PointSources = readonly { readonly point: LoopPoint; readonly gates: Result<PointGate[]> }[];

export async function gatesRun(options: GatesOptions, deps: GatesDeps): Promise<Outcome> {
  const failed = (result: { ok: false; failure: Failure }): Outcome => failureOutcome(result.failure, options.jsonErrors);
  const pick = checkPickPath(options.pick, options.envelope === 'point' ? POINT_DETAILS : RUN_DETAILS, 'gates run');
  if (!pick.ok) return failed(pick);
  const context = gateContext(options, deps);
  if (!context.ok) return failed(context);
  const root = context.value.projectRoot;
  // Resolved before anything runs: a path that cannot be resolved (its
  // current directory deleted) fails the call before any gate's command.
  const junit = junitReportFile(options, deps, root);
  if (!junit.ok) return failed(junit);

  const sources = await loadGates(options, root, context.value.planning, deps);
  if (!sources.ok) return failed(sources);
  for (const warning of sources.value.warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);
  const runnable = sources.value.points.flatMap(({ point, gates }) => (gates.ok ? [{ point, gates: gates.value }] : []));

  const started = now();
  const result = await runPoints(runnable, {
    context: context.value,
    query: queryCommand(options.queryCommand, options.queryTimeout, deps.env),
    concurrency: Math.min(options.concurrency ?? deps.cpus, gatesWithin(deps.fdLimit)),
    onReport: (point, report) => {
      if (deps.progress !== undefined) deps.progress(progressLine(point, report));
      else if (report.error !== undefined) deps.warn(progressLine(point, report));
    },
  });
  if (!result.ok) return failed(result);
  const envelopes = new Map(result.value.map((envelope): [LoopPoint, PointEnvelope] => [envelope.details.point, envelope]));
  const outcomes = sources.value.points.map(({ point, gates }): PointOutcome => (gates.ok ? { point, envelope: envelopes.get(point)! } : { point, failure: gates.failure }));
  const entries = outcomes.map(pointEntry);
  const envelope = options.envelope === 'point' ? envelopes.get(options.points[0])! : runEnvelope(entries);
  // --pick of a field this envelope lacks: no verdict is printed, so no report either.
  const outcome = verdictOutcome(envelope, options);
  if (!outcome.ok) return failed(outcome);
  const points = entries.map(pointRows);
  const { message } = envelope;
  let stdout = outcome.value.stdout;
  if (deps.terminal !== undefined && !options.raw && options.pick === undefined) {
    stdout = options.envelope === 'point' ? gatesTable(points[0]!, deps.terminal) : pointsTable(points, message, deps.terminal);
  }
  // A point that could not be evaluated is said on stderr as any failure is,
  // and fails the call; the envelope still says what the other points gave.
  const unevaluated = outcomes.flatMap((o) => ('failure' in o ? [failureOutcome({ ...o.failure, message: `${o.point}: ${o.failure.message}` }, options.jsonErrors)] : []));
  const reported = writeReports(options, deps, points, message, junit.value, now() - started, root);
  const exitCode = unevaluated[0]?.exitCode ?? (reported.errors.length > 0 ? EXIT_WRITE_FAILED : outcome.value.exitCode);
  return { exitCode, stdout, stderr: reported.stderr + unevaluated.map((u) => u.stderr).join('') + reported.errors.join('') };
}

// A report that cannot be written does not withhold the verdict: the
// envelope is still printed (a caller deciding on a halt needs it), and the
// exit status says that something was not delivered.
function writeReports(
  options: GatesOptions,
  deps: GatesDeps,
  points: readonly PointRows[],
  message: string,
  junit: ReportTarget | undefined,
  elapsedMs: number,
  root: string,
): { stderr: string; errors: string[] } {
  const errors: string[] = [];
  let stderr = '';
  if (junit !== undefined) {
    const written = deps.writeFile(junit, junitReport(points, elapsedMs));
    if (!written.ok) errors.push(`gsd-check: cannot write the JUnit report ${visible(junit.shown)}: ${visible(written.failure)}\n`);
  }
  if (options.reports.some((target) => target.format === 'github')) {
    stderr += githubAnnotations(points, annotationPath(root, deps.env.GITHUB_WORKSPACE));
    const summary = deps.env.GITHUB_STEP_SUMMARY;
    if (summary !== undefined && summary !== '') {
      const appended = deps.appendFile(summary, githubSummary(points, message));
      if (!appended.ok) errors.push(`gsd-check: cannot append to GITHUB_STEP_SUMMARY ${visible(summary)}: ${appended.failure}\n`);
    }
  }
  return { stderr, errors };
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

// --report junit=<file>: the file as given, for messages, the path it is
// written to, resolved by the rule of every other file argument, and where
// it must stay once its links are followed when it is written there: the
// project root, and --cwd when given (both as found and as real paths).
function junitReportFile(options: GatesOptions, deps: GatesDeps, root: string): Result<ReportTarget | undefined> {
  const target = options.reports.find((report) => report.format === 'junit');
  if (target === undefined) return ok(undefined);
  const path = argumentPath(target.file, options.cwd, deps.cwd);
  if (!path.ok) return path;
  const cwd = options.cwd === undefined ? undefined : argumentPath('.', options.cwd, deps.cwd);
  const cwds = cwd?.ok ? [cwd.value, realPath(cwd.value) ?? cwd.value] : [];
  return ok({ path: path.value, shown: target.file, within: [...new Set([root, ...cwds])] });
}

function emptyHooks(hooks: string, points: readonly LoopPoint[]): string {
  const producer = points.length === 1 ? `gsd_run loop render-hooks ${points[0]} --raw` : 'gsd_run loop render-hooks <point> --raw for each point';
  return hooks === '-'
    ? `the hooks on standard input are empty: whatever was to print them (${producer}) printed nothing; did it fail?`
    : `--hooks ${hooks} is empty: it should hold the output of ${producer}`;
}

// The gates of each point: from GSD's rendered hooks, already resolved, or
// from capability files, resolved here against the configs.
async function loadGates(options: GatesOptions, root: string, planning: GateContext['planning'], deps: GatesDeps): Promise<Result<{ points: PointSources; warnings: string[] }>> {
  // Every file argument by the one rule (argumentPath); the parser saw that
  // at most one is "-".
  const path = (file: string): Result<string> => argumentPath(file, options.cwd, deps.cwd);
  if (options.hooks !== undefined) {
    const label = options.hooks === '-' ? 'the hooks on standard input' : `--hooks ${options.hooks}`;
    const hooks = path(options.hooks);
    if (!hooks.ok) return hooks;
    const text = await textInput(deps.readInput, hooks.value, label);
    if (!text.ok) return text;
    // Empty input is what a failed producer leaves in the pipe (gsd_run not
    // installed, or it exited before writing): say that, not "invalid JSON".
    if (text.value.trim() === '') return fail('invalid-json', emptyHooks(options.hooks, options.points));
    // Several documents (a loop's output) are read as such even for one
    // point: the hooks of another point are then named, not a syntax error.
    if (options.envelope === 'run' || jsonDocuments(text.value).length > 1) {
      const byPoint = gatesFromHooksOf(text.value, label, options.points, KINDS);
      if (!byPoint.ok) return byPoint;
      // One point's hooks given several times, or beside another point's,
      // are refused there: so a single --point is never missing here.
      return ok({ points: options.points.map((point) => ({ point, gates: byPoint.value.get(point)! })), warnings: [] });
    }
    const json = parseJson(text.value, label);
    if (!json.ok) return json;
    const gates = gatesFromHooks(json.value, options.points[0], label, KINDS);
    return gates.ok ? ok({ points: [{ point: options.points[0], gates }], warnings: [] }) : gates;
  }
  const capabilities: Capability[] = options.builtin ? builtinCapabilities() : [];
  for (const file of options.capabilities) {
    const resolved = path(file);
    if (!resolved.ok) return resolved;
    const capability = await loadCapability(resolved.value, file, deps.readInput);
    if (!capability.ok) return capability;
    capabilities.push(capability.value);
  }
  let config: { path: string; shown: string } | undefined;
  if (options.config !== undefined) {
    const resolved = path(options.config);
    if (!resolved.ok) return resolved;
    config = { path: resolved.value, shown: options.config };
  }
  const layers = await loadLayers(config, root, { planning, readInput: deps.readInput });
  if (!layers.ok) return layers;
  const warnings = new Set(layers.value.warnings);
  const points = options.points.map((point) => {
    const at = gatesAt(point, capabilities, layers.value.layers);
    for (const warning of at.warnings) warnings.add(warning);
    return { point, gates: ok(at.gates) };
  });
  return ok({ points, warnings: [...warnings] });
}
