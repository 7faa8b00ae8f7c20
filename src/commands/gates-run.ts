import { fail, ok, type Failure, type Result, EXIT_WRITE_FAILED } from '../failure.ts';
import { builtinCapabilities, gatesAt, type Capability, gatesFromHooks } from '../gates/sources.ts';
import { gatesWithin } from '../gates/pool.ts';
import type { PointGate } from '../gates/run-point.ts';
import { POINT_DETAILS, runPoint } from '../gates/run-point.ts';
import { parseJson } from '../json/parse.ts';
import { KINDS } from '../kinds/table.ts';
import { now } from '../run/time.ts';
import { gateRow } from '../report/gate-row.ts';
import { githubAnnotations, githubSummary } from '../report/github.ts';
import { junitReport } from '../report/junit.ts';
import { gatesTable } from '../report/table.ts';
import { visible } from '../text/format.ts';
import { type GatesOptions, argumentPath } from '../cli/args.ts';
import { loadLayers, gateContext, type CliDeps, loadCapability, queryCommand } from './context.ts';
import { failureOutcome, progressLine, verdictOutcome, type Outcome } from './outcome.ts';
import { checkPickPath } from '../cli/pick-path.ts';

export async function gatesRun(options: GatesOptions, deps: CliDeps): Promise<Outcome> {
  const failed = (result: { ok: false; failure: Failure }): Outcome => failureOutcome(result.failure, options.jsonErrors);
  const pick = checkPickPath(options.pick, POINT_DETAILS, 'gates run');
  if (!pick.ok) return failed(pick);
  const context = gateContext(options, deps);
  if (!context.ok) return failed(context);
  const root = context.value.projectRoot;
  // Resolved before anything runs: a path that cannot be resolved (its
  // current directory deleted) fails the call before any gate's command.
  const junit = junitReportFile(options, deps);
  if (!junit.ok) return failed(junit);

  // The configs are read in the run's workstream, as resolved for the context.
  const sources = await loadGates(options, root, { ...deps, env: context.value.env });
  if (!sources.ok) return failed(sources);
  for (const warning of sources.value.warnings) deps.warn?.(`gsd-check: warning: ${visible(warning)}`);

  const started = now();
  const result = await runPoint(options.point, sources.value.gates, {
    context: context.value,
    query: queryCommand(options, deps.env),
    concurrency: Math.min(options.concurrency ?? deps.cpus ?? 1, gatesWithin(deps.fdLimit)),
    onReport: (report) => {
      if (deps.progress !== undefined) deps.progress(progressLine(options.point, report));
      else if (report.error !== undefined) deps.warn?.(progressLine(options.point, report));
    },
  });
  if (!result.ok) return failed(result);
  // --pick of a field this envelope lacks: no verdict is printed, so no report either.
  const outcome = verdictOutcome(result.value, options);
  if (!outcome.ok) return failed(outcome);
  const rows = result.value.details.gates.map(gateRow);
  const { message } = result.value;
  let stdout = outcome.value.stdout;
  if (deps.terminal !== undefined && !options.raw && options.pick === undefined) stdout = gatesTable(rows, message, deps.terminal);
  // A report that cannot be written does not withhold the verdict: the
  // envelope is still printed (a caller deciding on a halt needs it), and
  // the exit status says that something was not delivered.
  const errors: string[] = [];
  let stderr = '';
  if (junit.value !== undefined) {
    const code = deps.writeFile?.(junit.value.path, junitReport(options.point, rows, now() - started));
    if (code !== undefined) errors.push(`gsd-check: cannot write the JUnit report ${visible(junit.value.file)}: ${code}\n`);
  }
  if (options.reports.some((target) => target.format === 'github')) {
    stderr += githubAnnotations(options.point, rows);
    const summary = deps.env.GITHUB_STEP_SUMMARY;
    if (summary !== undefined && summary !== '') {
      const code = deps.appendFile?.(summary, githubSummary(options.point, rows, message));
      if (code !== undefined) errors.push(`gsd-check: cannot append to GITHUB_STEP_SUMMARY ${visible(summary)}: ${code}\n`);
    }
  }
  return { exitCode: errors.length > 0 ? EXIT_WRITE_FAILED : outcome.value.exitCode, stdout, stderr: stderr + errors.join('') };
}

// --report junit=<file>: the file as given, for messages, and the path it is
// written to, resolved by the rule of every other file argument.
function junitReportFile(options: GatesOptions, deps: CliDeps): Result<{ readonly file: string; readonly path: string } | undefined> {
  const target = options.reports.find((report) => report.format === 'junit');
  if (target === undefined) return ok(undefined);
  const path = argumentPath(target.file, options.cwd, deps.cwd);
  return path.ok ? ok({ file: target.file, path: path.value }) : path;
}

function emptyHooks(hooks: string, point: string): string {
  const producer = `gsd_run loop render-hooks ${point} --raw`;
  return hooks === '-'
    ? `the hooks on standard input are empty: whatever was to print them (${producer}) printed nothing; did it fail?`
    : `--hooks ${hooks} is empty: it should hold the output of ${producer}`;
}

// The gates of the point: from GSD's rendered hooks, already resolved, or
// from capability files, resolved here against the configs.
async function loadGates(options: GatesOptions, root: string, deps: CliDeps): Promise<Result<{ gates: PointGate[]; warnings: string[] }>> {
  // Every file argument by the one rule (argumentPath); the parser saw that
  // at most one is "-".
  const path = (file: string): Result<string> => argumentPath(file, options.cwd, deps.cwd);
  if (options.hooks !== undefined) {
    const label = options.hooks === '-' ? 'the hooks on standard input' : `--hooks ${options.hooks}`;
    const hooks = path(options.hooks);
    if (!hooks.ok) return hooks;
    const text = await deps.readFile(hooks.value, label);
    if (!text.ok) return text;
    // Empty input is what a failed producer leaves in the pipe (gsd_run not
    // installed, or it exited before writing): say that, not "invalid JSON".
    if (text.value.trim() === '') return fail('invalid-json', emptyHooks(options.hooks, options.point));
    const json = parseJson(text.value, label);
    if (!json.ok) return json;
    const gates = gatesFromHooks(json.value, options.point, label, KINDS);
    return gates.ok ? ok({ gates: gates.value, warnings: [] }) : gates;
  }
  const capabilities: Capability[] = options.builtin ? builtinCapabilities() : [];
  for (const file of options.capabilities) {
    const resolved = path(file);
    if (!resolved.ok) return resolved;
    const capability = await loadCapability(resolved.value, file, deps);
    if (!capability.ok) return capability;
    capabilities.push(capability.value);
  }
  const layers = await loadLayers(options.config, options.cwd, root, deps);
  if (!layers.ok) return layers;
  const { gates, warnings } = gatesAt(options.point, capabilities, layers.value.layers);
  return ok({ gates, warnings: [...layers.value.warnings, ...warnings] });
}
