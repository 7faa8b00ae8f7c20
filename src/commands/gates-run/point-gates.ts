import { fail, ok, stopped, type Result } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import type { LoopPoint } from '../../gates/activation.ts';
import { loadCapability } from '../../gates/capability-file.ts';
import { loadLayers } from '../../gates/config-layers.ts';
import type { PointGates } from '../../gates/run-point.ts';
import type { GsdAsk, GsdRequest } from '../../gsd/ask.ts';
import type { Gsd } from '../../gsd/installation.ts';
import { endingText } from '../../run/runner.ts';
import { tailOf } from '../../text/tail.ts';
import { builtinCapabilities, gatesAt, gatesFromHooks, gatesFromHooksOf, hooksWarnings, type Capability } from '../../gates/sources.ts';
import { textInput, type ReadInput } from '../../io/input.ts';
import { jsonDocuments, parseJson } from '../../json/parse.ts';
import { KINDS } from '../../kinds/table.ts';
import type { GateContext } from '../../predicate/kind.ts';
import { argumentPath } from '../argument-path.ts';
import { builtinLeavesOut } from './left-out.ts';

// The first stage of gates run: each point's gates, from where the command
// line says they come. From GSD's rendered hooks (--hooks, or --render,
// rendered here by the GSD gsd_run finds) they are already active; from
// capability files and GSD's built-in ones (--capability, --builtin) their
// `when` is resolved here, against the configs.

interface Loaded {
  // In the order run; a point whose gates could not be had (its hooks
  // missing from the input) carries why.
  readonly points: readonly PointGates[];
  // Said on stderr before anything runs: a config's flat dotted keys, or,
  // from GSD's rendered hooks, what GSD warned of beside them.
  readonly warnings: readonly string[];
}

interface LoadDeps {
  readonly readInput: ReadInput;
  readonly cwd: () => string;
  // The user's home, where GSD's home is without GSD_HOME (--builtin's note).
  readonly home: string | undefined;
}

// `points`: the points to run, of options.points (--reached selects them).
// `gsd`: with --render, the GSD that renders their hooks, and how it is asked.
export async function loadPointGates(
  options: GatesOptions,
  points: readonly LoopPoint[],
  context: GateContext,
  gsd: { readonly found: Gsd; readonly ask: GsdAsk } | undefined,
  deps: LoadDeps,
): Promise<Result<Loaded>> {
  // Every file argument by the one rule (argumentPath); the parser saw that
  // at most one is "-".
  const path = (file: string): Result<string> => argumentPath(file, options.cwd, deps.cwd);
  if (options.render && gsd !== undefined) return ok(await rendered(points, gsd.found, gsd.ask));
  if (options.hooks !== undefined) {
    const hooks = path(options.hooks);
    if (!hooks.ok) return hooks;
    const loaded = await fromHooks(options, points, hooks.value, deps.readInput);
    return loaded.ok ? ok({ ...loaded.value, points: loaded.value.points.filter((p) => points.includes(p.point)) }) : loaded;
  }
  const capabilities: Capability[] = options.builtin ? builtinCapabilities() : [];
  const files: string[] = [];
  for (const file of options.capabilities) {
    const resolved = path(file);
    if (!resolved.ok) return resolved;
    const capability = await loadCapability(resolved.value, file, deps.readInput);
    if (!capability.ok) return capability;
    capabilities.push(capability.value);
    files.push(resolved.value);
  }
  const leftOut = options.builtin ? builtinLeavesOut(context, deps.home, files, points) : undefined;
  let config: { path: string; shown: string } | undefined;
  if (options.config !== undefined) {
    const resolved = path(options.config);
    if (!resolved.ok) return resolved;
    config = { path: resolved.value, shown: options.config };
  }
  const layers = await loadLayers(config, context.projectRoot, { planning: context.planning, readInput: deps.readInput });
  if (!layers.ok) return layers;
  const warnings = new Set([...(leftOut === undefined ? [] : [leftOut]), ...layers.value.warnings]);
  const gates = points.map((point) => {
    const at = gatesAt(point, capabilities, layers.value.layers);
    for (const warning of at.warnings) warnings.add(warning);
    return { point, gates: ok(at.gates) };
  });
  return ok({ points: gates, warnings: [...warnings] });
}

const RENDER_TIMEOUT_MS = 60_000;
// A point's rendered hooks are a page of JSON; past this they are not.
const HOOKS_BYTES = 1024 * 1024;

// Each point's hooks as the GSD renders them, `loop render-hooks <point>
// --raw`, every point asked at once (gsd/ask.ts); a point whose render
// fails is not evaluated, and says why, while the others are.
export const renderRequest = (point: LoopPoint): GsdRequest => ({
  args: ['loop', 'render-hooks', point, '--raw'],
  env: {},
  timeoutMs: RENDER_TIMEOUT_MS,
  keepStdout: HOOKS_BYTES,
});

async function rendered(points: readonly LoopPoint[], gsd: Gsd, ask: GsdAsk): Promise<Loaded> {
  const answers = await ask(points.map(renderRequest));
  const warnings: string[] = [];
  const gates = points.map((point, index): PointGates => {
    const result = answers[index]!;
    const label = `gsd_run loop render-hooks ${point} --raw`;
    if (result.status === 'stopped') return { point, gates: stopped(result.stop) };
    if (result.status === 'not-started') return { point, gates: fail('spawn-failed', `${label}: ${gsd.path} could not start`) };
    if (result.timedOut || result.exitCode !== 0) {
      const tail = tailOf(result.output.text).text;
      return {
        point,
        gates: fail('query-failed', `${label}: ${endingText('it', result, RENDER_TIMEOUT_MS / 1000, 'sentence')}${tail === '' ? '' : `: ${tail}`}`),
      };
    }
    if (result.stdout === undefined || !result.stdout.complete)
      return { point, gates: fail('query-failed', `${label}: the hooks are larger than ${HOOKS_BYTES} bytes`) };
    const json = parseJson(result.stdout.text, label);
    if (json.ok) warnings.push(...hooksWarnings(json.value));
    return { point, gates: json.ok ? gatesFromHooks(json.value, point, label, KINDS) : json };
  });
  return { points: gates, warnings: shownWarnings(warnings) };
}

// GSD's warnings, once each (the same capability is named at every point it
// has a gate at), and no more than a page: a repository can make GSD warn of
// as many folders as it holds.
const WARNINGS_SHOWN = 10;
function shownWarnings(warnings: Iterable<string>): string[] {
  const all = [...new Set(warnings)];
  return all.length <= WARNINGS_SHOWN ? all : [...all.slice(0, WARNINGS_SHOWN), `GSD: and ${all.length - WARNINGS_SHOWN} more warnings, not shown`];
}

// `points`: those that run (--reached's selection of options.points); GSD's
// warnings are passed on from their hooks only, as --render renders only them.
async function fromHooks(options: GatesOptions, points: readonly LoopPoint[], path: string, readInput: ReadInput): Promise<Result<Loaded>> {
  const given = options.hooks!;
  const label = given === '-' ? 'the hooks on standard input' : `--hooks ${given}`;
  const text = await textInput(readInput, path, label);
  if (!text.ok) return text;
  // Empty input is what a failed producer leaves in the pipe (gsd_run not
  // installed, or it exited before writing): say that, not "invalid JSON".
  if (text.value.trim() === '') return fail('invalid-json', emptyHooks(given, options.points));
  // Several documents (a loop's output), or a list of them, are read as such
  // even for one point: the hooks of another point are then named, not a
  // syntax error, and a list of one point's is that point's.
  const documents = jsonDocuments(text.value);
  if (options.printed === 'run' || documents.length > 1 || documents[0]?.text.startsWith('[') === true) {
    const byPoint = gatesFromHooksOf(text.value, label, options.points, KINDS);
    if (!byPoint.ok) return byPoint;
    // One point's hooks given several times, or beside another point's,
    // are refused there: so a single --point is never missing here.
    return ok({
      points: options.points.map((point) => ({ point, gates: byPoint.value.byPoint.get(point)! })),
      warnings: shownWarnings(points.flatMap((point) => byPoint.value.warnings.get(point) ?? [])),
    });
  }
  const json = parseJson(text.value, label);
  if (!json.ok) return json;
  const gates = gatesFromHooks(json.value, options.points[0], label, KINDS);
  return gates.ok ? ok({ points: [{ point: options.points[0], gates }], warnings: shownWarnings(hooksWarnings(json.value)) }) : gates;
}

function emptyHooks(hooks: string, points: readonly LoopPoint[]): string {
  const producer = points.length === 1 ? `gsd_run loop render-hooks ${points[0]} --raw` : 'gsd_run loop render-hooks <point> --raw for each point';
  return hooks === '-'
    ? `the hooks on standard input are empty: whatever was to print them (${producer}) printed nothing; did it fail?`
    : `--hooks ${hooks} is empty: it should hold the output of ${producer}`;
}
