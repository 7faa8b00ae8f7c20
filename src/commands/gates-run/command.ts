import { EXIT_WRITE_FAILED, ok, type Result } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import { checkPickPath } from '../../cli/pick-path.ts';
import { gatesWithin, mapPool } from '../../gates/pool.ts';
import { askedOfGsd, givenQueryCommand, queryCommand, type QueryGate } from '../../gates/query.ts';
import { gsdAsker, type GsdAsk, type GsdRequest } from '../../gsd/ask.ts';
import type { Gsd } from '../../gsd/installation.ts';
import { notReached, pointEntry, RUN_DETAILS, runEnvelope, type PointEntry } from '../../gates/run-envelope.ts';
import { gatedPhase } from '../../gates/provenance.ts';
import { POINT_DETAILS, runPoints, type PointGates, type PointResult } from '../../gates/run-point.ts';
import { pointRows } from '../../report/gate-row.ts';
import { gatesTable, pointsTable } from '../../report/table.ts';
import { now } from '../../run/time.ts';
import { visible } from '../../text/format.ts';
import type { GatesDeps } from '../deps.ts';
import { gateContext } from '../gate-context.ts';
import { workspacePaths } from '../../project/shown-path.ts';
import { failureReply, progressLine, verdictReply, type Reply } from '../reply.ts';
import { decider } from './gsd.ts';
import { argumentPath } from '../argument-path.ts';
import { findGsd } from '../../gsd/installation.ts';
import { phaseDirectoryFound, phaseForGates } from './phase-selected.ts';
import { loadPointGates, renderRequest } from './point-gates.ts';
import { junitTarget } from './junit-target.ts';
import { deliverReports } from './reports.ts';
import { selectPoints } from './selection.ts';
import { gsdPhaseReads } from '../../loop/gsd-reads.ts';
import { askedVerification, shipPreflight, verificationRequest, withPreflight } from '../../loop/ship-preflight.ts';
import { IDENTITY } from '../../gsd/identity.ts';
import { CAPABILITY_LIST, CAPABILITY_STATE, refusedCapabilities, unconsentedLine, unloadedCapabilities } from '../../gsd/capabilities.ts';
import { consentHome, projectConsent } from '../../gsd/consent.ts';

// gates run, stage by stage: the context; which points (selection.ts,
// --reached) and which GSD decides (gsd.ts); each point's gates
// (point-gates.ts); every gate of every point in one pool
// (gates/run-point.ts); the envelope; then the reports (reports.ts).
export async function gatesRun(options: GatesOptions, deps: GatesDeps): Promise<Reply> {
  const leftBehind: (() => void)[] = [];
  try {
    return await running(options, deps, leftBehind);
  } finally {
    for (const remove of leftBehind) remove();
  }
}

// `leftBehind`: what the run made that is removed once it ends, however it ends.
async function running(options: GatesOptions, deps: GatesDeps, leftBehind: (() => void)[]): Promise<Reply> {
  const failed = (failure: Parameters<typeof failureReply>[0]): Reply => failureReply(failure, options.jsonErrors);
  const pick = checkPickPath(options.pick, options.printed === 'point' ? POINT_DETAILS : RUN_DETAILS, 'gates run');
  if (!pick.ok) return failed(pick.failure);
  const built = gateContext(options, deps, (root) => workspacePaths(root, deps.github.workspace));
  if (!built.ok) return failed(built.failure);
  const root = built.value.projectRoot;
  const found = options.reached ? phaseDirectoryFound(built.value) : ok(undefined);
  if (!found.ok) return failed(found.failure);
  const junit = junitTarget(options, deps, root);
  if (!junit.ok) return failed(junit.failure);
  const named = options.gsd === undefined ? ok(undefined) : argumentPath(options.gsd, options.cwd, deps.cwd);
  if (!named.ok) return failed(named.failure);
  const gsdNamed = named.value === undefined ? undefined : { given: options.gsd!, path: named.value };
  // The project's capabilities the rendering GSD loads: those its user
  // consented to on this machine, and --consent's, in a home of the run's.
  const consent = options.render ? projectConsent(options.consent, root, built.value.env, deps.home) : ok(undefined);
  if (!consent.ok) return failed(consent.failure);
  const home = consent.value === undefined ? ok(undefined) : consentHome(consent.value, built.value.env, deps.home);
  if (!home.ok) return failed(home.failure);
  if (home.value !== undefined) leftBehind.push(home.value.remove);
  const gsdContext = home.value === undefined ? built.value : { ...built.value, env: { ...built.value.env, ...home.value.env } };
  // The GSD named or found, looked for once a run, and only when needed.
  let finding: Promise<Result<Gsd | undefined>> | undefined;
  const find = (): Promise<Result<Gsd | undefined>> => (finding ??= findGsd(built.value, gsdNamed));
  const concurrency = Math.min(options.concurrency ?? deps.cpus, gatesWithin(deps.fdLimit));
  // One asker a run for each GSD (gsd/ask.ts): its requests go to one GSD
  // process. With --render, which GSD it is and every point's hooks are
  // asked with the first requests, the phase's reads where --reached has them.
  const askers = new Map<Gsd, GsdAsk>();
  const consented = consent.value?.given.map((g) => g.id) ?? [];
  const ahead = options.render ? [IDENTITY, CAPABILITY_LIST, ...(consented.length > 0 ? [CAPABILITY_STATE] : []), ...options.points.map(renderRequest)] : [];
  // At the ship, the preflight's question too, once the phase is known.
  const shipAhead: GsdRequest[] = [];
  const asking = (gsd: Gsd): GsdAsk =>
    askers.get(gsd) ??
    askers
      .set(
        gsd,
        gsdAsker(gsd, gsdContext, deps.warn, (items, work) => mapPool(items, concurrency, work), [...ahead, ...shipAhead]),
      )
      .get(gsd)!;
  // --render's GSD reads the phase too (loop/gsd-reads.ts), where its
  // requests go to one process; --builtin runs none of GSD's code.
  const reader = options.reached && options.render ? await find() : ok(undefined);
  if (!reader.ok) return failed(reader.failure);
  const readerAsk = reader.value === undefined ? undefined : asking(reader.value);
  const reads = readerAsk?.batches === true ? gsdPhaseReads(readerAsk) : undefined;
  const selection = options.reached
    ? await selectPoints(options, built.value, reads)
    : ok({ points: options.points, loop: undefined, context: built.value, phase: undefined });
  if (!selection.ok) return failed(selection.failure);
  const context = selection.value.context;
  const shipDir = options.ship ? selection.value.phase?.dir : undefined;
  if (shipDir !== undefined) shipAhead.push(verificationRequest(shipDir));
  const decided = await decider(options, find, asking);
  if (!decided.ok) return failed(decided.failure);
  for (const warning of decided.value.warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);
  const decides = decided.value.gsd === undefined ? undefined : { found: decided.value.gsd, ask: asking(decided.value.gsd) };
  // What the GSD that renders leaves out of the run, said before it runs.
  const unconsented = consent.value?.missing ?? [];
  const unloaded = [
    ...unconsented.map((id) => unconsentedLine(id, consent.value?.cannot[id])),
    ...(options.render && decides !== undefined ? await unloadedCapabilities(decides.ask, unconsented) : []),
    ...(options.render && decides !== undefined ? await refusedCapabilities(decides.ask, consented) : []),
  ];
  for (const line of unloaded) deps.warn(`gsd-check: warning: ${visible(line)}`);
  const loaded = await loadPointGates(options, selection.value.points, context, decides, deps);
  if (!loaded.ok) return failed(loaded.failure);
  for (const warning of loaded.value.warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);
  const needed = phaseForGates(loaded.value.points, context);
  if (!needed.ok) return failed(needed.failure);

  const given = givenQueryCommand(options.queryCommand, deps.env);
  // Query gates are answered by the GSD that decided, else by the one
  // gsd_run finds, looked for only when one is to be answered.
  const located = decided.value.gsd !== undefined || given !== undefined || queryGates(loaded.value.points).length === 0 ? ok(decided.value.gsd) : await find();
  if (!located.ok) return failed(located.failure);
  const gsd = decides ?? (located.value === undefined ? undefined : { found: located.value, ask: asking(located.value) });
  const started = now();
  const how = queryCommand(given, options.queryTimeout, gsd?.found);
  // GSD's own form asks GSD every query of the run at once.
  const query = how !== undefined && given === undefined && gsd !== undefined ? await askedOfGsd(queryGates(loaded.value.points), how, gsd.ask, context) : how;
  // The ship is GSD's preflight before ship:pre's gates (loop/ship-preflight.ts),
  // answered by GSD itself where one decides or answers the queries: no GSD
  // is looked for, and none run, for it alone.
  const phase = selection.value.phase;
  const preflight =
    options.ship && phase !== undefined
      ? shipPreflight(
          phase.files,
          phase.dir,
          context.paths.artifact,
          gsd === undefined || phase.dir === undefined ? undefined : await askedVerification(gsd.ask, phase.dir),
        )
      : undefined;
  const gates = preflight === undefined ? loaded.value.points : withPreflight(loaded.value.points, preflight);
  const ran = await runPoints(gates, {
    context,
    query,
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
  const unevaluated = ran.value.flatMap(({ point, envelope: own }) =>
    own.ok ? [] : [failed({ ...own.failure, message: `${point}: ${own.failure.message}` })],
  );
  const reported =
    options.reports.length === 0
      ? NOTHING_REPORTED
      : deliverReports(
          {
            options,
            points,
            message: envelope.message,
            elapsedMs: now() - started,
            root,
            gsd: about.gsd,
            phase: about.loop === undefined ? undefined : gatedPhase(about.loop),
            next: about.loop?.next,
            // GSD's own warnings of what it failed to load (from its rendered
            // hooks, here or given), beside what it does not load.
            unloaded: options.render || options.hooks !== undefined ? [...unloaded, ...loaded.value.warnings] : unloaded,
          },
          junit.value,
          deps,
        );
  const exitCode = unevaluated[0]?.exitCode ?? (reported.errors.length > 0 ? EXIT_WRITE_FAILED : verdict.value.exitCode);
  return {
    exitCode,
    stdout,
    stderr: reported.notes.join('') + unevaluated.map((u) => u.stderr).join('') + reported.errors.join(''),
    workflowCommands: reported.annotations,
  };
}

const NOTHING_REPORTED = { annotations: '', notes: [], errors: [] } as const;

// The active query gates of these points.
function queryGates(points: readonly PointGates[]): QueryGate[] {
  return points.flatMap(({ gates }) =>
    gates.ok
      ? gates.value.flatMap((gate) => {
          const parsed = gate.declaration.gate;
          return gate.activation?.active === false || !parsed.ok || parsed.value.check.shape !== 'query'
            ? []
            : [{ query: parsed.value.check.query, capDir: gate.capDir }];
        })
      : [],
  );
}

// The run's points in loop order: those that ran, and those --reached left out.
function inLoopOrder(
  options: GatesOptions,
  ran: readonly PointResult[],
  considered: readonly { point: string; reached: boolean; why: string }[],
): PointEntry[] {
  return options.points.flatMap((point) => {
    const result = ran.find((r) => r.point === point);
    if (result !== undefined) return [pointEntry(result)];
    const left = considered.find((c) => c.point === point);
    return left === undefined ? [] : [notReached(point, left.why)];
  });
}
