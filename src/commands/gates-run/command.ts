import { EXIT_WRITE_FAILED } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import { checkPickPath } from '../../cli/pick-path.ts';
import { gatesWithin } from '../../gates/pool.ts';
import { queryCommand } from '../../gates/query.ts';
import { pointEntry, RUN_DETAILS, runEnvelope } from '../../gates/run-envelope.ts';
import { POINT_DETAILS, runPoints } from '../../gates/run-point.ts';
import { pointRows } from '../../report/gate-row.ts';
import { gatesTable, pointsTable } from '../../report/table.ts';
import { now } from '../../run/time.ts';
import { visible } from '../../text/format.ts';
import type { GatesDeps } from '../deps.ts';
import { gateContext } from '../gate-context.ts';
import { failureReply, progressLine, verdictReply, type Reply } from '../reply.ts';
import { loadPointGates } from './point-gates.ts';
import { deliverReports, junitTarget } from './reports.ts';

// gates run, stage by stage: the context, each point's gates
// (point-gates.ts), every gate of every point in one pool (gates/run-point.ts),
// the envelope, then the reports (reports.ts).
export async function gatesRun(options: GatesOptions, deps: GatesDeps): Promise<Reply> {
  const failed = (failure: Parameters<typeof failureReply>[0]): Reply => failureReply(failure, options.jsonErrors);
  const pick = checkPickPath(options.pick, options.envelope === 'point' ? POINT_DETAILS : RUN_DETAILS, 'gates run');
  if (!pick.ok) return failed(pick.failure);
  const context = gateContext(options, deps);
  if (!context.ok) return failed(context.failure);
  const root = context.value.projectRoot;
  const junit = junitTarget(options, deps, root);
  if (!junit.ok) return failed(junit.failure);
  const loaded = await loadPointGates(options, context.value, deps);
  if (!loaded.ok) return failed(loaded.failure);
  for (const warning of loaded.value.warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);

  const started = now();
  const ran = await runPoints(loaded.value.points, {
    context: context.value,
    query: queryCommand(options.queryCommand, options.queryTimeout, deps.env),
    concurrency: Math.min(options.concurrency ?? deps.cpus, gatesWithin(deps.fdLimit)),
    onReport: (point, report) => {
      if (deps.progress !== undefined) deps.progress(progressLine(point, report));
      else if (report.error !== undefined) deps.warn(progressLine(point, report));
    },
  });
  if (!ran.ok) return failed(ran.failure);
  const entries = ran.value.map(pointEntry);
  const [first] = ran.value;
  // One --point prints its own envelope; its gates were had, or the call
  // failed while they were loaded.
  const envelope = options.envelope === 'point' && first !== undefined && first.envelope.ok ? first.envelope.value : runEnvelope(entries);
  // --pick of a field this envelope lacks: no verdict is printed, so no report either.
  const verdict = verdictReply(envelope, options);
  if (!verdict.ok) return failed(verdict.failure);
  const points = entries.map(pointRows);
  let stdout = verdict.value.stdout;
  if (deps.terminal !== undefined && !options.raw && options.pick === undefined) {
    stdout = options.envelope === 'point' ? gatesTable(points[0]!, deps.terminal) : pointsTable(points, envelope.message, deps.terminal);
  }
  // A point that could not be evaluated is said on stderr as any failure is,
  // and fails the call; the envelope still says what the other points gave.
  const unevaluated = ran.value.flatMap(({ point, envelope: own }) => (own.ok ? [] : [failed({ ...own.failure, message: `${point}: ${own.failure.message}` })]));
  const reported = deliverReports({ options, points, message: envelope.message, elapsedMs: now() - started, root }, junit.value, deps);
  const exitCode = unevaluated[0]?.exitCode ?? (reported.errors.length > 0 ? EXIT_WRITE_FAILED : verdict.value.exitCode);
  return { exitCode, stdout, stderr: unevaluated.map((u) => u.stderr).join('') + reported.errors.join(''), workflowCommands: reported.annotations };
}
