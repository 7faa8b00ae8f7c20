import { ok, usage, type Result } from '../failure.ts';
import { isLoopPoint, LOOP_POINTS, type LoopPoint } from '../gates/activation.ts';
import { CAPABILITY_ID, EVERY_CAPABILITY } from '../gsd/consent.ts';
import { closest } from '../text/suggest.ts';
import { REPORT_KINDS } from './flag.ts';
import { optional, seconds, stdinOnce, valueOf, type Flags } from './flags.ts';
import type { EvalOptions } from './eval-options.ts';

// gates run's options: which points, where their gates come from, how they
// run and what reports them.

// How a run selects its phase, as every message that misses one says it.
export const PHASE_CHOICE = 'give --current-phase (the one STATE.md names), --phase-number or --phase-dir';

export interface GatesOptions extends EvalOptions {
  // The points to run, in order, each once.
  readonly points: readonly [LoopPoint, ...LoopPoint[]];
  // One --point prints that point's envelope, as it always has; several, or
  // --all-points, print the run's envelope, which holds each point's.
  readonly printed: 'point' | 'run';
  // Where the gates come from: capability files and GSD's own (--builtin), or
  // GSD's rendered hooks (a file, or - for standard input), never both.
  readonly capabilities: readonly string[];
  // GSD 1.14's own gates (builtinCapabilities in gates/sources.ts), before any --capability.
  readonly builtin: boolean;
  readonly hooks?: string;
  // Each point's hooks rendered by the GSD gsd_run finds.
  readonly render: boolean;
  // Of the points, only those GSD's loop has reached for the phase; with
  // `ship`, the run is the phase's ship.
  readonly reached: boolean;
  readonly ship: boolean;
  // A GSD whose version gsd-check is not tested with fails the call.
  readonly requireTestedGsd: boolean;
  readonly config?: string;
  readonly concurrency?: number;
  readonly queryCommand?: string;
  // --gsd: the GSD that decides, named instead of found where gsd_run looks.
  readonly gsd?: string;
  // --consent: the project's capabilities the rendering GSD loads as if
  // their user had consented on this machine (gsd/consent.ts), `*` for all.
  readonly consent: readonly string[];
  readonly queryTimeout: number;
  readonly reports: readonly RequestedReport[];
}

// A --report value: a JUnit XML file, or GitHub Actions' annotations and job summary.
type RequestedReport = { readonly format: 'junit'; readonly file: string } | { readonly format: 'github' };

// `requireTestedGsd`: GSD_CHECK_REQUIRE_TESTED_GSD=1, as the flag.
export function gatesOptions(flags: Flags, shared: EvalOptions, requireTestedGsd: boolean): Result<GatesOptions> {
  const reached = flags.booleans.has('reached');
  const points = loopPoints(flags.values.get('point') ?? [], flags.booleans.has('all-points'), reached);
  if (!points.ok) return points;
  const capabilities = flags.values.get('capability') ?? [];
  const hooks = valueOf(flags, 'hooks');
  const builtin = flags.booleans.has('builtin');
  const render = flags.booleans.has('render');
  if (hooks !== undefined && (capabilities.length > 0 || builtin)) {
    return usage(`--hooks and ${builtin ? '--builtin' : '--capability'} cannot be used together: rendered hooks are already resolved by GSD`);
  }
  if (render && (hooks !== undefined || capabilities.length > 0 || builtin)) {
    return usage(
      `--render and ${hooks !== undefined ? '--hooks' : builtin ? '--builtin' : '--capability'} cannot be used together: --render has GSD render the hooks itself`,
    );
  }
  if (hooks === '') return usage('--hooks needs a file (or - for standard input)');
  if (hooks === undefined && capabilities.length === 0 && !builtin && !render) {
    return usage(
      "--builtin (GSD 1.14's own gates), --capability (once per capability file), --hooks (the output of gsd_run loop render-hooks) or --render (GSD renders them) is required",
    );
  }
  const ship = flags.booleans.has('ship');
  if (ship && !reached) return usage('--ship counts with --reached: it says the run is the ship of the phase whose reached points run');
  if (reached && !shared.currentPhase && shared.phaseNumber === undefined && shared.phaseDir === undefined) {
    return usage(`no phase selected: --reached reads the points GSD's loop has reached for it; ${PHASE_CHOICE}`);
  }
  const requireTested = flags.booleans.has('require-tested-gsd');
  if (requireTested && !render && !builtin)
    return usage('--require-tested-gsd counts with --render or --builtin, which ask the GSD gsd_run finds for its version');
  if (capabilities.includes('')) return usage('--capability needs a file');
  const consent = flags.values.get('consent') ?? [];
  if (consent.length > 0 && !render) return usage("--consent counts with --render: it is GSD's consent to load a project's capability");
  const notAnId = consent.find((id) => id !== EVERY_CAPABILITY && !CAPABILITY_ID.test(id));
  if (notAnId !== undefined) return usage(`--consent ${JSON.stringify(notAnId)} is not a capability id (kebab-case, as GSD names them) or ${EVERY_CAPABILITY}`);
  const gsd = valueOf(flags, 'gsd');
  if (gsd === '') return usage("--gsd needs a file: GSD's gsd-tools.cjs");
  const queryCommand = valueOf(flags, 'query-command');
  if (queryCommand !== undefined && queryCommand.trim() === '') return usage('--query-command needs a shell command');
  const queryTimeout = seconds(flags, 'query-timeout', true);
  if (!queryTimeout.ok) return queryTimeout;
  const config = valueOf(flags, 'config');
  if (config === '') return usage('--config needs a file');
  const concurrencyText = valueOf(flags, 'concurrency');
  const concurrency = concurrencyText === undefined ? undefined : Number(concurrencyText);
  if (concurrency !== undefined && (!/^\d+$/.test(concurrencyText!) || concurrency < 1)) {
    return usage(`--concurrency must be a whole number of 1 or more, got ${JSON.stringify(concurrencyText)}`);
  }
  const once = stdinOnce('gates run', [...(hooks === undefined ? [] : [hooks]), ...capabilities, ...(config === undefined ? [] : [config])]);
  if (!once.ok) return once;
  const reports = requestedReports(flags.values.get('report') ?? []);
  if (!reports.ok) return reports;
  return ok({
    ...points.value,
    capabilities,
    builtin,
    ...optional('hooks', hooks),
    render,
    reached,
    ship,
    requireTestedGsd: requireTested || requireTestedGsd,
    ...optional('config', config),
    ...optional('concurrency', concurrency),
    ...optional('queryCommand', queryCommand),
    ...optional('gsd', gsd),
    consent,
    queryTimeout: queryTimeout.value,
    reports: reports.value,
    ...shared,
  });
}

// --point, once or more, or --all-points: GSD's loop order. With --reached,
// neither is all of them too, and the run's envelope holds the selection.
function loopPoints(given: readonly string[], all: boolean, reached: boolean): Result<Pick<GatesOptions, 'points' | 'printed'>> {
  if (all || (reached && given.length === 0)) {
    if (given.length > 0) return usage('--point and --all-points cannot be used together: --all-points runs every point');
    return ok({ points: LOOP_POINTS as GatesOptions['points'], printed: 'run' });
  }
  const [first, ...rest] = given;
  if (first === undefined) return usage('--point (once per loop point), --all-points or --reached is required');
  const points: LoopPoint[] = [];
  for (const point of given) {
    if (!isLoopPoint(point)) return usage(notAPoint(point));
    if (points.includes(point)) return usage(`--point ${point} is given more than once`);
    points.push(point);
  }
  return ok({ points: points as unknown as GatesOptions['points'], printed: rest.length === 0 && !reached ? 'point' : 'run' });
}

// `ship-pre`, `Ship:Pre`, `ship:pr`: the point it most likely meant.
function notAPoint(point: string): string {
  const near = closest(point, LOOP_POINTS);
  return `--point ${JSON.stringify(point)} is not a loop point; ${near === undefined ? `one of: ${LOOP_POINTS.join(', ')}` : `did you mean ${near}?`}`;
}

// The --report values, each format at most once.
export function requestedReports(values: readonly string[]): Result<RequestedReport[]> {
  const targets: RequestedReport[] = [];
  for (const value of values) {
    const [format, ...rest] = value.split('=');
    let target: RequestedReport;
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
