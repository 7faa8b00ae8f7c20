import { join } from 'node:path';
import { type Result, ok } from '../failure.ts';
import type { ReadInput } from '../io/input.ts';
import { configObject, readConfigFile } from '../project/config-file.ts';
import { planningDirectory, type PlanningScope } from '../project/planning-scope.ts';
import { fewOf } from '../text/format.ts';
import { flatKeys, type ConfigLayers } from './activation.ts';

interface LayerDeps {
  // The run's planning directory (GSD_PROJECT, the workstream).
  readonly planning: Result<PlanningScope>;
  // How a file named on the command line is read ("-": standard input).
  readonly readInput: ReadInput;
}

// --config: the path it is read from, and the file as given, for messages.
interface GivenConfig {
  readonly path: string;
  readonly shown: string;
}

// The configs a gate's `when` is resolved against: the project's (--config,
// else .planning/config.json) and, in a workstream or under GSD_PROJECT, the
// scoped one GSD reads first. An explicit --config must exist: a mistyped
// path would otherwise switch gates off without a word. The default ones may
// be absent (an empty config).
export async function loadLayers(
  explicit: GivenConfig | undefined,
  root: string,
  deps: LayerDeps,
): Promise<Result<{ layers: ConfigLayers; warnings: string[] }>> {
  const scope = deps.planning;
  if (!scope.ok) return scope;
  const rootConfig = explicit === undefined ? defaultConfig(join(root, '.planning', 'config.json')) : await givenConfig(explicit, deps);
  if (!rootConfig.ok) return rootConfig;
  const scoped =
    scope.value.project !== undefined || scope.value.workstream !== undefined ? join(planningDirectory(root, scope.value), 'config.json') : undefined;
  const workstream = scoped === undefined ? ok(undefined) : defaultConfig(scoped);
  if (!workstream.ok) return workstream;
  const warnings = [rootConfig.value, workstream.value].flatMap((config) => {
    const flat = config === undefined ? [] : flatKeys(config.value);
    if (config === undefined || flat.length === 0) return [];
    return [`${config.label} has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): ${fewOf(flat)}`];
  });
  return ok({ layers: { root: rootConfig.value?.value, workstream: workstream.value?.value }, warnings });
}

type Labelled = { readonly value: Record<string, unknown>; readonly label: string };

function defaultConfig(path: string): Result<Labelled | undefined> {
  const label = `config ${path}`;
  const config = readConfigFile(path, label);
  if (!config.ok) return config;
  return ok(config.value === undefined ? undefined : { value: config.value, label });
}

async function givenConfig(given: GivenConfig, deps: LayerDeps): Promise<Result<Labelled>> {
  const label = `--config ${given.shown}`;
  const bytes = await deps.readInput(given.path, label);
  if (!bytes.ok) return bytes;
  const config = configObject(bytes.value, label);
  return config.ok ? ok({ value: config.value, label }) : config;
}
