import { EXIT_WRITE_FAILED, ok } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import { checkPickPath } from '../../cli/pick-path.ts';
import { gatesWithin } from '../../gates/pool.ts';
import { givenQueryCommand, queryCommand } from '../../gates/query.ts';
import { notReached, pointEntry, RUN_DETAILS, runEnvelope, type PointEntry } from '../../gates/run-envelope.ts';
import { POINT_DETAILS, runPoints, type PointGates, type PointResult } from '../../gates/run-point.ts';
import { pointRows } from '../../report/gate-row.ts';
import { gatesTable, pointsTable } from '../../report/table.ts';
import { now } from '../../run/time.ts';
import { visible } from '../../text/format.ts';
import type { GatesDeps } from '../deps.ts';
import { gateContext } from '../gate-context.ts';
import { workspacePaths } from '../../project/shown-path.ts';
import { failureReply, progressLine, verdictReply, type Reply } from '../reply.ts';
import { decider, findGsd } from './gsd.ts';
import { phaseForGates } from './phase-selected.ts';
import { loadPointGates } from './point-gates.ts';
import { junitTarget } from './junit-target.ts';
import { deliverReports } from './reports.ts';
import { selectPoints } from './selection.ts';

// gates run, stage by stage: the context; which points (selection.ts,
// --reached) and which GSD decides (gsd.ts); each point's gates
// (point-gates.ts); every gate of every point in one pool
// (gates/run-point.ts); the envelope; then the reports (reports.ts).
export async function gatesRun(options: GatesOptions, deps: GatesDeps): Promise<Reply> {
  const failed = (failure: Parameters<typeof failureReply>[0]): Reply => failureReply(failure, options.jsonErrors);
  const pick = checkPickPath(options.pick, options.printed === 'point' ? POINT_DETAILS : RUN_DETAILS, 'gates run');
  if (!pick.ok) return failed(pick.failure);
  const built = gateContext(options, deps, (root) => workspacePaths(root, deps.env.GITHUB_WORKSPACE));
  if (!built.ok) return failed(built.failure);
  const root = built.value.projectRoot;
  const junit = junitTarget(options, deps, root);
  if (!junit.ok) return failed(junit.failure);
  // selection.ts is compiled only for a run that asks which points were reached.
  const selection = options.reached ? selectPoints(options, built.value) : ok({ points: options.points, loop: undefined, context: built.value });
  if (!selection.ok) return failed(selection.failure);
  const context = selection.value.context;
  const decided = await decider(options, context);
  if (!decided.ok) return failed(decided.failure);
  for (const warning of decided.value.warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);
  const concurrency = Math.min(options.concurrency ?? deps.cpus, gatesWithin(deps.fdLimit));
  const loaded = await loadPointGates(options, selection.value.points, context, decided.value.gsd, { ...deps, concurrency });
  if (!loaded.ok) return failed(loaded.failure);
  for (const warning of loaded.value.warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);
  const needed = phaseForGates(loaded.value.points, context);
  if (!needed.ok) return failed(needed.failure);

  const given = givenQueryCommand(options.queryCommand, deps.env);
  // Query gates are answered by the GSD that decided, else by the one
  // gsd_run finds, looked for only when one is to be answered.
  const gsd = decided.value.gsd ?? (given === undefined && asksQueries(loaded.value.points) ? await findGsd(context) : undefined);
  const started = now();
  const ran = await runPoints(loaded.value.points, {
    context,
    query: queryCommand(given, options.queryTimeout, gsd),
    concurrency,
    onReport: (point, report) => {
      if (deps.progress !== undefined) deps.progress(progressLine(point, report));
      else if (report.error !== undefined) deps.warn(progressLine(point, report));
    },
  });
  if (!ran.ok) return failed(ran.failure);
  const entries = inLoopOrder(options, ran.value, selection.value.loop?.points ?? []);
  const [first] = ran.value;
  const about = { loop: selection.value.loop, gsd: decided.value.report };
  // One --point prints its own envelope; its gates were had, or the call
  // failed while they were loaded.
  const envelope =
    options.printed === 'point' && first !== undefined && first.envelope.ok
      ? { ...first.envelope.value, details: { ...first.envelope.value.details, ...(about.gsd === undefined ? {} : { gsd: about.gsd }) } }
      : runEnvelope(entries, about);
  // --pick of a field this envelope lacks: no verdict is printed, so no report either.
  const verdict = verdictReply(envelope, options);
  if (!verdict.ok) return failed(verdict.failure);
  const points = entries.map(pointRows);
  let stdout = verdict.value.stdout;
  if (deps.terminal !== undefined && !options.raw && options.pick === undefined) {
    stdout = options.printed === 'point' ? gatesTable(points[0]!, deps.terminal) : pointsTable(points, envelope.message, deps.terminal);
  }
  // A point that could not be evaluated is said on stderr as any failure is,
  // and fails the call; the envelope still says what the other points gave.
  const unevaluated = ran.value.flatMap(({ point, envelope: own }) => (own.ok ? [] : [failed({ ...own.failure, message: `${point}: ${own.failure.message}` })]));
  // reports.ts is compiled only for a run that reports.
  const reported = options.reports.length === 0 ? NOTHING_REPORTED : deliverReports({ options, points, message: envelope.message, elapsedMs: now() - started, root, gsd: about.gsd }, junit.value, deps);
  const exitCode = unevaluated[0]?.exitCode ?? (reported.errors.length > 0 ? EXIT_WRITE_FAILED : verdict.value.exitCode);
  return { exitCode, stdout, stderr: reported.notes.join('') + unevaluated.map((u) => u.stderr).join('') + reported.errors.join(''), workflowCommands: reported.annotations };
}

const NOTHING_REPORTED = { annotations: '', notes: [], errors: [] } as const;

// Whether any active gate of these points is a query gate.
function asksQueries(points: readonly PointGates[]): boolean {
  return points.some(({ gates }) => gates.ok && gates.value.some((gate) => gate.declaration.gate.ok && gate.declaration.gate.value.check.shape === 'query' && gate.activation?.active !== false));
}

// The run's points in loop order: those that ran, and those --reached left out.
function inLoopOrder(options: GatesOptions, ran: readonly PointResult[], considered: readonly { point: string; reached: boolean; why: string }[]): PointEntry[] {
  return options.points.flatMap((point) => {
    const result = ran.find((r) => r.point === point);
    if (result !== undefined) return [pointEntry(result)];
    const left = considered.find((c) => c.point === point);
    return left === undefined ? [] : [notReached(point, left.why)];
  });
}
