import { join, resolve } from 'node:path';
import { fail, ok, type Failure, type Result } from '../failure.ts';
import { flatKeys, type ConfigLayers } from '../gates/activation.ts';
import { parseCapability } from '../gates/declaration.ts';
import { gatesAt, type Capability } from '../gates/from-capabilities.ts';
import { gatesFromHooks } from '../gates/from-hooks.ts';
import type { PointGate } from '../gates/point-gate.ts';
import { GSD_TOOLS_QUERY, type QueryCommand } from '../gates/query.ts';
import { checkLabel } from '../gates/check-label.ts';
import { POINT_DETAILS, runPoint, type GateReport } from '../gates/run-point.ts';
import { findOnPath } from '../fs/which.ts';
import { planningDirectory } from '../project/phase-dir.ts';
import { planningScope } from '../project/phase-location.ts';
import { gatesWithin } from '../gates/fd-budget.ts';
import { isJsonObject } from '../json-object.ts';
import { KINDS } from '../kinds/table.ts';
import { entryKind } from '../fs/entry.ts';
import { stopSignal } from '../run/runner.ts';
import { oneLine } from '../text/one-line.ts';
import { visible } from '../text/visible.ts';
import type { GatesOptions } from './args.ts';
import { parseJson } from '../json/parse.ts';
import { gateContext } from './context.ts';
import { checkPickPath } from './pick-path.ts';
import type { CliDeps, Outcome } from './deps.ts';
import { envelopeOutcome, failureOutcome, interruptedOutcome } from './outcome.ts';

export async function gatesRun(options: GatesOptions, deps: CliDeps): Promise<Outcome> {
  // A read cut short by a stop signal is a stop, not a failure.
  const failed = (result: { ok: false; failure: Failure }): Outcome =>
    deps.signal?.aborted ? interruptedOutcome(stopSignal(deps.signal)) : failureOutcome(result.failure, options.jsonErrors);
  const pick = checkPickPath(options.pick, POINT_DETAILS, 'gates run');
  if (!pick.ok) return failed(pick);
  const context = gateContext(options, deps);
  if (!context.ok) return failed(context);
  const base = resolve(deps.cwd(), options.cwd ?? '.');
  const root = context.value.projectRoot;

  const sources = await loadGates(options, base, root, deps);
  if (!sources.ok) return failed(sources);
  for (const warning of sources.value.warnings) deps.warn?.(`gsd-check: warning: ${visible(warning)}`);

  const result = await runPoint(options.point, sources.value.gates, {
    context: context.value,
    query: queryCommand(options, deps.env),
    concurrency: Math.min(options.concurrency ?? deps.cpus ?? 1, gatesWithin(deps.fdLimit)),
    onReport: (report) => {
      if (deps.progress !== undefined) deps.progress(progressLine(options.point, report));
      else if (report.error !== undefined) deps.warn?.(progressLine(options.point, report));
    },
  });
  if (result.status === 'interrupted') return interruptedOutcome(result.signal);
  return envelopeOutcome(result.envelope, options);
}

// The gates of the point: from GSD's rendered hooks, already resolved, or
// from capability files, resolved here against the configs.
async function loadGates(options: GatesOptions, base: string, root: string, deps: CliDeps): Promise<Result<{ gates: PointGate[]; warnings: string[] }>> {
  if (options.hooks !== undefined) {
    const label = options.hooks === '-' ? 'the hooks on standard input' : `--hooks ${options.hooks}`;
    const text = await deps.readFile(options.hooks === '-' ? '-' : resolve(base, options.hooks), label);
    if (!text.ok) return text;
    const json = parseJson(text.value, label);
    if (!json.ok) return json;
    const gates = gatesFromHooks(json.value, options.point, label, KINDS);
    return gates.ok ? ok({ gates: gates.value, warnings: [] }) : gates;
  }
  const capabilities: Capability[] = [];
  for (const file of options.capabilities) {
    const capability = await loadCapability(resolve(base, file), file, deps);
    if (!capability.ok) return capability;
    capabilities.push(capability.value);
  }
  const layers = await loadLayers(options.config, base, root, deps);
  if (!layers.ok) return layers;
  const { gates, warnings } = gatesAt(options.point, capabilities, layers.value.layers);
  return ok({ gates, warnings: [...layers.value.warnings, ...warnings] });
}

// --query-command, else GSD_CHECK_QUERY_COMMAND, else GSD's own form when
// gsd-tools is on PATH; else none, and each query gate says so.
function queryCommand(options: GatesOptions, env: Readonly<Record<string, string | undefined>>): QueryCommand | undefined {
  const timeoutMs = options.queryTimeout * 1000;
  const given = options.queryCommand ?? (env.GSD_CHECK_QUERY_COMMAND?.trim() ? env.GSD_CHECK_QUERY_COMMAND : undefined);
  if (given !== undefined) return { command: given, timeoutMs };
  return findOnPath('gsd-tools', env.PATH) === undefined ? undefined : { command: GSD_TOOLS_QUERY, timeoutMs };
}

async function loadCapability(path: string, shown: string, deps: CliDeps): Promise<Result<Capability>> {
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

// The project's config (--config, else .planning/config.json) and, under
// GSD_WORKSTREAM or GSD_PROJECT, the scoped one GSD reads first. An explicit
// --config must exist: a mistyped path would otherwise switch gates off
// without a word. The default ones may be absent (an empty config).
async function loadLayers(explicit: string | undefined, base: string, root: string, deps: CliDeps): Promise<Result<{ layers: ConfigLayers; warnings: string[] }>> {
  const scope = planningScope(deps.env);
  if (!scope.ok) return scope;
  const rootConfig = await loadConfig(explicit === undefined ? join(root, '.planning', 'config.json') : resolve(base, explicit), explicit === undefined ? undefined : `--config ${explicit}`, deps);
  if (!rootConfig.ok) return rootConfig;
  const scoped = scope.value.project || scope.value.workstream ? join(planningDirectory(root, scope.value), 'config.json') : undefined;
  const workstream = scoped === undefined ? ok(undefined) : await loadConfig(scoped, undefined, deps);
  if (!workstream.ok) return workstream;
  const warnings = [rootConfig.value, workstream.value].flatMap((config) => {
    const flat = config === undefined ? [] : flatKeys(config.value);
    if (config === undefined || flat.length === 0) return [];
    const named = flat.slice(0, 5).join(', ') + (flat.length > 5 ? ` and ${flat.length - 5} more` : '');
    return [`${config.label} has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): ${named}`];
  });
  return ok({ layers: { root: rootConfig.value?.value, workstream: workstream.value?.value }, warnings });
}

async function loadConfig(path: string, explicit: string | undefined, deps: CliDeps): Promise<Result<{ value: Record<string, unknown>; label: string } | undefined>> {
  const label = explicit ?? `config ${path}`;
  if (explicit === undefined && entryKind(path) === undefined) return ok(undefined);
  const text = await deps.readFile(path, label);
  if (!text.ok) return text;
  const json = parseJson(text.value, label);
  if (!json.ok) return json;
  if (!isJsonObject(json.value)) return fail('invalid-json', `${label} is not a JSON object`);
  return ok({ value: json.value, label });
}

function progressLine(point: string, report: GateReport): string {
  const reason = report.error ?? (report.status === 'pass' || report.status === 'inactive' ? '' : report.envelope?.message ?? '');
  const text = visible(oneLine(reason, 200));
  const label = visible(`${report.capability}#${report.index} [${checkLabel(report.check)}]`);
  return `gsd-check: ${point} ${label} ${report.status} (${report.durationMs} ms)${text === '' ? '' : `: ${text}`}`;
}

