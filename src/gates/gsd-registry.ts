import { isJsonObject } from '../json/parse.ts';
import { describe, jsonPath } from '../text/format.ts';
import { isLoopPoint } from './activation.ts';
import { isKebab, KEBAB_RULE, type ManifestIssues } from './manifest-fields.ts';

// What an installed capability may not share with GSD 1.14's own registry:
// GSD's loader lets its own capabilities win every clash and skips the
// newcomer (capability-loader.cjs: an id, a skill, an agent, a config key,
// a command family GSD's own has), and its cross-capability checks refuse
// a config key of GSD's central schema, a capability that requires itself,
// one of a higher tier or a name no capability can have, a runtime that is
// none (one of GSD's own of another role, or the feature itself), and a
// second producer of an artifact one of GSD's own steps produces at that
// point (capability-validator.cjs). What turns on the capabilities
// installed beside it is not known here.

// `gsd-1.14/registry.json`, from @opengsd/gsd-core 1.14.0 (MIT:
// gsd-1.14/LICENSE); compat/test/registry.test.mjs holds it equal to the
// pinned GSD's registry.
declare const GSD_REGISTRY: string;

interface Registry {
  readonly capabilities: Readonly<Record<string, { readonly role: string; readonly tier: string }>>;
  readonly skills: Readonly<Record<string, string>>;
  readonly agents: Readonly<Record<string, string>>;
  readonly commandFamilies: Readonly<Record<string, string>>;
  readonly configKeys: Readonly<Record<string, string>>;
  readonly centralConfigKeys: readonly string[];
  readonly produces: readonly (readonly [string, string, string])[];
}

let loaded: Registry | undefined;
// Baked in by build.mjs as a string, parsed when a manifest is first checked.
const registry = (): Registry => (loaded ??= JSON.parse(GSD_REGISTRY) as Registry);

const TIER_RANK: Readonly<Record<string, number>> = { core: 0, standard: 1, full: 2 };

// `installed`: the id GSD would install it under (its folder's name).
export function checkAgainstGsd(cap: Readonly<Record<string, unknown>>, installed: string | undefined, issues: ManifestIssues): void {
  const gsd = registry();
  if (installed !== undefined && Object.hasOwn(gsd.capabilities, installed)) {
    issues.refuse(cap.id === installed ? 'id' : '', `${describe(installed)} is the id of one of GSD 1.14's own capabilities, which GSD keeps`);
  }
  owned('skills', cap.skills, gsd.skills, 'a skill', issues);
  owned('agents', cap.agents, gsd.agents, 'an agent', issues);
  if (Array.isArray(cap.commands)) {
    cap.commands.forEach((entry: unknown, index) => {
      const family = isJsonObject(entry) ? entry.family : undefined;
      if (typeof family === 'string' && Object.hasOwn(gsd.commandFamilies, family))
        issues.refuse(
          jsonPath('commands', [index, 'family']),
          `${describe(family)} is a command family of GSD's own capability ${describe(gsd.commandFamilies[family])}`,
        );
    });
  }
  if (isJsonObject(cap.config)) {
    for (const key of Object.keys(cap.config)) {
      const at = jsonPath('config', [key]);
      if (Object.hasOwn(gsd.configKeys, key)) issues.refuse(at, `is a config key of GSD's own capability ${describe(gsd.configKeys[key])}`);
      else if (gsd.centralConfigKeys.includes(key)) issues.refuse(at, "is a key of GSD's own config schema");
    }
  }
  requires(cap, installed, gsd, issues);
  if (cap.role === 'feature' && isJsonObject(cap.runtimeCompat)) runtimesNamed(cap.runtimeCompat, installed, gsd, issues);
  if (cap.role === 'feature' && Array.isArray(cap.steps)) producers(cap.steps, gsd, issues);
}

function owned(field: string, names: unknown, owners: Readonly<Record<string, string>>, what: string, issues: ManifestIssues): void {
  if (!Array.isArray(names)) return;
  names.forEach((name: unknown, index) => {
    if (typeof name === 'string' && Object.hasOwn(owners, name))
      issues.refuse(jsonPath(field, [index]), `${describe(name)} is ${what} of GSD's own capability ${describe(owners[name])}`);
  });
}

function requires(cap: Readonly<Record<string, unknown>>, installed: string | undefined, gsd: Registry, issues: ManifestIssues): void {
  if (!Array.isArray(cap.requires)) return;
  const rank = typeof cap.tier === 'string' ? TIER_RANK[cap.tier] : undefined;
  cap.requires.forEach((required: unknown, index) => {
    const at = jsonPath('requires', [index]);
    if (typeof required !== 'string') return;
    // Every capability GSD loads has a kebab-case id, its own or a folder's.
    if (!isKebab(required))
      issues.refuse(at, `${describe(required)} can be no capability's id (${KEBAB_RULE}): GSD finds no capability it requires, and would skip this one`);
    if (required === installed) issues.refuse(at, 'a capability cannot require itself');
    const theirs = Object.hasOwn(gsd.capabilities, required) ? gsd.capabilities[required]!.tier : undefined;
    if (rank !== undefined && theirs !== undefined && TIER_RANK[theirs]! > rank) {
      issues.refuse(
        at,
        `${describe(required)} is of tier ${describe(theirs)}, above this capability's ${describe(cap.tier)}: a capability may require only its own tier or a lower one`,
      );
    }
  });
}

function producers(steps: readonly unknown[], gsd: Registry, issues: ManifestIssues): void {
  steps.forEach((step, index) => {
    if (!isJsonObject(step) || !isLoopPoint(step.point) || !Array.isArray(step.produces)) return;
    for (const artifact of new Set(step.produces)) {
      const theirs = gsd.produces.find(([point, produced]) => point === step.point && produced === artifact);
      if (theirs !== undefined)
        issues.refuse(
          jsonPath('steps', [index, 'produces']),
          `GSD's own capability ${describe(theirs[2])} produces ${describe(artifact)} at ${step.point}: one artifact has one producer at a point`,
        );
    }
  });
}

// A feature's runtimeCompat names runtimes, which GSD finds among the
// capabilities it loads; none of its own that is not a runtime, and not this
// feature itself, can ever be one, since GSD keeps its own ids for its own.
function runtimesNamed(compat: Readonly<Record<string, unknown>>, installed: string | undefined, gsd: Registry, issues: ManifestIssues): void {
  const named: [string, unknown][] = [];
  for (const field of ['supported', 'unsupported']) {
    const list = compat[field];
    if (Array.isArray(list)) list.forEach((id: unknown, index) => named.push([jsonPath('runtimeCompat', [field, index]), id]));
  }
  if (isJsonObject(compat.notes)) for (const id of Object.keys(compat.notes)) named.push([jsonPath('runtimeCompat.notes', [id]), id]);
  for (const [at, id] of named) {
    if (typeof id !== 'string') continue;
    // "*", or a name none of GSD's has, may be the runtime another capability is.
    const role = id === installed ? 'feature' : Object.hasOwn(gsd.capabilities, id) ? gsd.capabilities[id]!.role : 'runtime';
    if (role === 'runtime') continue;
    const what = id === installed ? 'this capability itself' : `GSD's own ${role} capability`;
    issues.refuse(at, `${describe(id)} is ${what}, not a runtime: GSD finds no runtime it names, and would skip this capability`);
  }
}
