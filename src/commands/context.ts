import { isAbsolute, resolve, join } from 'node:path';
import { type EvalOptions, argumentPath, type GatesOptions } from '../cli/args.ts';
import { type Result, fail, ok } from '../failure.ts';
import { entryKind, isReadableDirectory, findOnPath } from '../fs/entry.ts';
import { flatKeys, type ConfigLayers } from '../gates/activation.ts';
import { parseCapability } from '../gates/declaration.ts';
import { gsdToolsQuery, type QueryCommand } from '../gates/query.ts';
import type { Capability } from '../gates/sources.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';
import { KINDS } from '../kinds/table.ts';
import type { GateContext } from '../predicate/kind.ts';
import { locatePhase, planningDirectory, planningScope } from '../project/phase.ts';
import { currentPhase } from '../project/current-phase.ts';
import { explicitProjectRoot, findProjectRoot } from '../project/root.ts';
import { resolveWorkstream } from '../project/workstream.ts';
import type { ReportTarget } from '../io/report-file.ts';
import type { TableStyle } from '../report/table.ts';
import type { Runner } from '../run/runner.ts';
import { fewOf, visible } from '../text/format.ts';

// What a command gathers before it evaluates: what it needs from the world
// (CliDeps), the platform, the gate context, and for gates run the config
// layers, capability files and the query command.

// What the commands need from the world; main.ts wires the real ones, tests
// inject their own.
export interface CliDeps {
  readonly run: Runner;
  // Reads a text file, "-" meaning standard input; `label` names it in errors.
  readonly readFile: (path: string, label: string) => Promise<Result<string>>;
  readonly cwd: () => string;
  readonly home: string | undefined;
  // Who we run as, for the ownership rule of the root search (undefined
  // where the platform has no owners).
  readonly uid?: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  // Whether we may list and enter a directory; the file system's answer
  // unless a test stands in, since as root every directory is enterable.
  readonly canEnter?: (dir: string) => boolean;
  readonly signal?: AbortSignal;
  readonly force?: AbortSignal;
  readonly cpus?: number;
  // The soft limit on open descriptors, when known: it bounds the gates run at once.
  readonly fdLimit?: number | undefined;
  // Set when stderr is a terminal: one line per finished gate.
  readonly progress?: ((line: string) => void) | undefined;
  // Warnings for stderr (a skipped gate, an ignored session pointer),
  // whether or not it is a terminal.
  readonly warn: (line: string) => void;
  // Set when stdout is a terminal: the point's gates as a table instead of
  // the indented envelope.
  readonly terminal?: TableStyle | undefined;
  // Replace a report file whole, so that a reader never sees half of it,
  // and only where it was meant to go; append to one whole or not at all.
  // Each says why it wrote nothing.
  readonly writeFile: (target: ReportTarget, text: string) => string | undefined;
  readonly appendFile: (path: string, text: string) => string | undefined;
}

// Commands are run as `sh -c` in a process group of their own, which is how
// timeouts and stop signals reach every process a gate starts. Windows has
// neither: rather than run gates it cannot bound, gsd-check refuses there.
// `validate` runs nothing, so it runs anywhere.
export function commandSupported(platform: string, command: string): Result<void> {
  if (platform === 'win32' && command !== 'validate') {
    return fail('unsupported-platform', 'gates cannot be run on Windows: there is no sh and no process groups to bound them; run gsd-check under WSL, or on Linux or macOS');
  }
  return ok(undefined);
}

// The gate context every evaluating command builds the same way: the project
// root (--project-dir, or found from --cwd), its workstream, the phase values
// and where the phase's files are, the runner and the stop signals.
export function gateContext(options: EvalOptions, deps: CliDeps): Result<GateContext> {
  const located = projectRootOf(options, deps);
  if (!located.ok) return located;
  const projectRoot = located.value;
  // The workstream reaches the command as GSD_WORKSTREAM, as GSD exports it,
  // and scopes the phase lookup and the configs through it.
  const resolved = resolveWorkstream(options.ws, projectRoot, deps.env, deps.uid);
  if (!resolved.ok) return resolved;
  for (const warning of resolved.value.warnings) deps.warn(`gsd-check: warning: ${visible(warning)}`);
  const workstream = resolved.value.workstream;
  const env = workstream === undefined ? deps.env : { ...deps.env, GSD_WORKSTREAM: workstream.name };
  const phaseNumber = options.currentPhase ? currentPhase(projectRoot, env) : ok(options.phaseNumber);
  if (!phaseNumber.ok) return phaseNumber;
  const phase = locatePhase(projectRoot, { phaseDir: options.phaseDir, phaseNumber: phaseNumber.value }, env);
  if (!phase.ok) return phase;
  return ok({
    projectRoot,
    phaseNumber: phaseNumber.value,
    phaseDir: phase.value.phaseDir,
    phaseDirLookup: phase.value.phaseDirLookup,
    phaseReqIds: options.phaseReqIds,
    env,
    killAfterMs: options.killAfter * 1000,
    signal: deps.signal,
    force: deps.force,
    run: deps.run,
  });
}

function projectRootOf(options: EvalOptions, deps: CliDeps): Result<string> {
  const canEnter = deps.canEnter ?? isReadableDirectory;
  if (options.projectDir !== undefined) {
    // GSD checks --cwd first, even where --project-dir then names the root;
    // and --cwd still bases the other paths of the line.
    const start = options.cwd === undefined ? ok(undefined) : startDirectory(options.cwd, deps.cwd);
    if (!start.ok) return start;
    const root = explicitProjectRoot(options.projectDir, deps.cwd);
    if (root.ok && !canEnter(root.value)) return fail('bad-cwd', `--project-dir ${root.value}: permission denied (cannot list or enter it)`);
    return root;
  }
  const start = startDirectory(options.cwd, deps.cwd);
  if (!start.ok) return start;
  const projectRoot = findProjectRoot(start.value, deps.home, deps.uid);
  const denied = !canEnter(start.value)
    ? (options.cwd === undefined ? 'the current directory' : `--cwd ${options.cwd}`)
    : !canEnter(projectRoot) ? `project root ${projectRoot}` : undefined;
  if (denied !== undefined) return fail('bad-cwd', `${denied}: permission denied (cannot list or enter it)`);
  return ok(projectRoot);
}

function startDirectory(cwd: string | undefined, current: () => string): Result<string> {
  let start: string;
  try {
    // An absolute --cwd needs no current directory, which may be deleted.
    start = cwd !== undefined && isAbsolute(cwd) ? resolve(cwd) : resolve(current(), cwd ?? '.');
  } catch {
    return fail('bad-cwd', 'the current directory no longer exists');
  }
  const kind = entryKind(start);
  if (kind === 'dir') return ok(start);
  const label = cwd === undefined ? 'the current directory' : `--cwd ${cwd}`;
  return fail('bad-cwd', `${label}: ${kind === undefined ? 'no such directory' : 'not a directory'}`);
}

// The project's config (--config, else .planning/config.json) and, under
// GSD_WORKSTREAM or GSD_PROJECT, the scoped one GSD reads first. An explicit
// --config must exist: a mistyped path would otherwise switch gates off
// without a word. The default ones may be absent (an empty config).
export async function loadLayers(
  explicit: string | undefined,
  cwdFlag: string | undefined,
  root: string,
  deps: Pick<CliDeps, 'env' | 'readFile' | 'cwd'>,
): Promise<Result<{ layers: ConfigLayers; warnings: string[] }>> {
  const scope = planningScope(deps.env);
  if (!scope.ok) return scope;
  const path = explicit === undefined ? ok(join(root, '.planning', 'config.json')) : argumentPath(explicit, cwdFlag, deps.cwd);
  if (!path.ok) return path;
  const rootConfig = await loadConfig(path.value, explicit === undefined ? undefined : `--config ${explicit}`, deps);
  if (!rootConfig.ok) return rootConfig;
  const scoped = scope.value.project || scope.value.workstream ? join(planningDirectory(root, scope.value), 'config.json') : undefined;
  const workstream = scoped === undefined ? ok(undefined) : await loadConfig(scoped, undefined, deps);
  if (!workstream.ok) return workstream;
  const warnings = [rootConfig.value, workstream.value].flatMap((config) => {
    const flat = config === undefined ? [] : flatKeys(config.value);
    if (config === undefined || flat.length === 0) return [];
    return [`${config.label} has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): ${fewOf(flat)}`];
  });
  return ok({ layers: { root: rootConfig.value?.value, workstream: workstream.value?.value }, warnings });
}

async function loadConfig(path: string, explicit: string | undefined, deps: Pick<CliDeps, 'env' | 'readFile'>): Promise<Result<{ value: Record<string, unknown>; label: string } | undefined>> {
  const label = explicit ?? `config ${path}`;
  if (explicit === undefined && entryKind(path) === undefined) return ok(undefined);
  const text = await deps.readFile(path, label);
  if (!text.ok) return text;
  const json = parseJson(text.value, label);
  if (!json.ok) return json;
  if (!isJsonObject(json.value)) return fail('invalid-json', `${label} is not a JSON object`);
  return ok({ value: json.value, label });
}

// A capability file for gates run, `path` resolved and `shown` as given: one
// that is not an object, or whose gates are not a list, fails the command.
export async function loadCapability(path: string, shown: string, deps: Pick<CliDeps, 'readFile'>): Promise<Result<Capability>> {
  const text = await deps.readFile(path, `capability file ${shown}`);
  if (!text.ok) return text;
  const json = parseJson(text.value, `capability file ${shown}`);
  if (!json.ok) return json;
  const parsed = parseCapability(json.value, KINDS);
  if (!parsed.ok) {
    return fail('invalid-capability', parsed.problem === 'not-an-object' ? `capability file ${shown} is not a JSON object` : `capability file ${shown}: gates must be an array`);
  }
  return ok({ file: path, name: parsed.value.id ?? shown, declaration: parsed.value });
}

// --query-command, else GSD_CHECK_QUERY_COMMAND, else GSD's own form when
// gsd-tools is on PATH (that one, by its absolute path); else none, and
// each query gate says so.
export function queryCommand(options: Pick<GatesOptions, 'queryCommand' | 'queryTimeout'>, env: Readonly<Record<string, string | undefined>>): QueryCommand | undefined {
  const timeoutMs = options.queryTimeout * 1000;
  const given = options.queryCommand ?? (env.GSD_CHECK_QUERY_COMMAND?.trim() ? env.GSD_CHECK_QUERY_COMMAND : undefined);
  if (given !== undefined) return { command: given, timeoutMs };
  const program = findOnPath('gsd-tools', env.PATH);
  return program === undefined ? undefined : { command: gsdToolsQuery(program), timeoutMs };
}
