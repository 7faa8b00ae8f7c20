import { join, resolve } from 'node:path';
import { fail, ok, type Failure, type Result } from '../failure.ts';
import { gatesWithin } from '../gates/fd-budget.ts';
import { runPoint, type Capability, type GateReport } from '../gates/run-point.ts';
import { isJsonObject } from '../json-object.ts';
import { KINDS } from '../predicate/kinds.ts';
import { entryKind } from '../project/root.ts';
import { stopSignal } from '../run/runner.ts';
import { oneLine } from '../text/one-line.ts';
import type { GatesOptions } from './args.ts';
import { gateContext, parseJson } from './context.ts';
import type { CliDeps, Outcome } from './deps.ts';
import { envelopeOutcome, failureOutcome, interruptedOutcome } from './outcome.ts';

export async function gatesRun(options: GatesOptions, deps: CliDeps): Promise<Outcome> {
  // A read cut short by a stop signal is a stop, not a failure.
  const failed = (result: { ok: false; failure: Failure }): Outcome =>
    deps.signal?.aborted ? interruptedOutcome(stopSignal(deps.signal)) : failureOutcome(result.failure, options.jsonErrors);
  const context = gateContext(options, deps);
  if (!context.ok) return failed(context);
  const base = resolve(deps.cwd(), options.cwd ?? '.');

  const capabilities: Capability[] = [];
  for (const file of options.capabilities) {
    const capability = await loadCapability(resolve(base, file), file, deps);
    if (!capability.ok) return failed(capability);
    capabilities.push(capability.value);
  }
  const config = await loadConfig(options.config, base, context.value.projectRoot, deps);
  if (!config.ok) return failed(config);

  const result = await runPoint(options.point, capabilities, {
    kinds: KINDS,
    context: context.value,
    config: config.value,
    concurrency: Math.min(options.concurrency ?? deps.cpus ?? 1, gatesWithin(deps.fdLimit)),
    onReport: (report) => {
      if (deps.progress !== undefined) deps.progress(progressLine(options.point, report));
      else if (report.error !== undefined) deps.warn?.(progressLine(options.point, report));
    },
  });
  if (result.status === 'interrupted') return interruptedOutcome(result.signal);
  return envelopeOutcome(result.envelope, options);
}

async function loadCapability(path: string, shown: string, deps: CliDeps): Promise<Result<Capability>> {
  const text = await deps.readFile(path, `capability file ${shown}`);
  if (!text.ok) return text;
  const json = parseJson(text.value, `capability file ${shown}`);
  if (!json.ok) return json;
  const data = json.value;
  if (!isJsonObject(data)) return fail('invalid-capability', `capability file ${shown} is not a JSON object`);
  const record = data;
  if (Object.hasOwn(record, 'gates') && !Array.isArray(record.gates)) {
    return fail('invalid-capability', `capability file ${shown}: gates must be an array`);
  }
  const id = record.id;
  return ok({ file: path, name: typeof id === 'string' && id.trim() !== '' ? id : shown, data: record });
}

// An explicit --config must exist: a mistyped path would otherwise switch
// gates off without a word. The default one may be absent (an empty config).
async function loadConfig(explicit: string | undefined, base: string, root: string, deps: CliDeps): Promise<Result<unknown>> {
  const path = explicit === undefined ? join(root, '.planning', 'config.json') : resolve(base, explicit);
  const label = explicit === undefined ? `config ${path}` : `--config ${explicit}`;
  if (explicit === undefined && entryKind(path) === undefined) return ok({});
  const text = await deps.readFile(path, label);
  if (!text.ok) return text;
  const json = parseJson(text.value, label);
  if (!json.ok) return json;
  if (!isJsonObject(json.value)) return fail('invalid-json', `${label} is not a JSON object`);
  return json;
}

function progressLine(point: string, report: GateReport): string {
  const reason = report.error ?? (report.status === 'pass' || report.status === 'inactive' ? '' : report.envelope?.message ?? '');
  const text = oneLine(reason, 200);
  return `gsd-check: ${point} ${report.capability}#${report.index} ${report.status} (${report.durationMs} ms)${text === '' ? '' : `: ${text}`}`;
}

