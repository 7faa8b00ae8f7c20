import { join } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { entryKind } from '../fs/entry.ts';
import { flatKeys, type ConfigLayers } from '../gates/activation.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';
import { fewOf } from '../text/format.ts';
import { planningDirectory, planningScope } from '../project/phase.ts';
import type { CliDeps } from './deps.ts';
import { argumentPath } from '../cli/args.ts';

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
