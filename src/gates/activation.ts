import { isJsonObject } from '../json/parse.ts';
import { describe, fewOf } from '../text/format.ts';
import { closest } from '../text/suggest.ts';

// When a gate runs: at which loop point, and whether its `when` key is on,
// from the configs and the keys its capability declares.

// The loop points at which GSD runs gates, in loop order.
export const LOOP_POINTS = [
  'discuss:pre',
  'discuss:post',
  'plan:pre',
  'plan:post',
  'execute:pre',
  'execute:wave:pre',
  'execute:wave:post',
  'execute:post',
  'verify:pre',
  'verify:post',
  'ship:pre',
  'ship:post',
] as const;

export type LoopPoint = (typeof LOOP_POINTS)[number];

export const isLoopPoint = (value: unknown): value is LoopPoint => typeof value === 'string' && (LOOP_POINTS as readonly string[]).includes(value);

// Where a `when` key's value came from: the active workstream's config, the
// project's config, a capability's declared default, or nowhere.
type ActivationSource = 'workstream' | 'config' | 'default' | 'absent';

export interface Activation {
  readonly key: string;
  readonly value: unknown;
  readonly source: ActivationSource;
}

// A config key as capabilities declare it: `{type, default, description}`.
export interface KeyDeclaration {
  readonly type?: string | undefined;
  readonly default?: unknown;
}

// The configs in GSD's order: the workstream's (GSD_WORKSTREAM) over the
// project's. Each is the parsed JSON object, or undefined when absent.
export interface ConfigLayers {
  readonly workstream?: Record<string, unknown> | undefined;
  readonly root?: Record<string, unknown> | undefined;
}

export interface Resolved {
  readonly active: boolean;
  readonly activation: Activation;
  // Set when a configured value was set aside: its type is not the declared one.
  readonly warning?: string;
}

// Whether a gate with this `when` runs, as GSD 1.14 resolves it
// (capability-activation.cts over config-loader.cts): the key's nested value
// in the workstream's config, else the project's; a value whose type is not
// the key's declared type reads as the declared default (GSD's typed config
// does so: `0`, `null` or `"false"` for a boolean key); an unset key takes the
// default declared by any capability. Truthy means active. Flat dotted keys
// (`{"workflow.x": true}`) are not read: GSD ignores them.
export function resolveWhen(when: string, layers: ConfigLayers, declarations: ReadonlyMap<string, KeyDeclaration>): Resolved {
  const declared = declarations.get(when);
  for (const [source, config] of [
    ['workstream', layers.workstream],
    ['config', layers.root],
  ] as const) {
    const found = nested(config, when);
    if (!found.found) continue;
    if (declared?.type === undefined || hasType(found.value, declared.type)) {
      return { active: Boolean(found.value), activation: { key: when, value: found.value, source } };
    }
    const fallback = declared.default;
    return {
      active: Boolean(fallback),
      activation: { key: when, value: fallback, source: 'default' },
      // Described, not serialised: the value may nest past the stack, or be huge.
      warning: `${when} is ${describe(found.value)} in the ${source === 'workstream' ? "workstream's" : "project's"} config, not ${/^[aeiou]/.test(declared.type) ? 'an' : 'a'} ${declared.type}: its default ${describe(fallback)} is used`,
    };
  }
  if (declared !== undefined && declared.default !== undefined) {
    return { active: Boolean(declared.default), activation: { key: when, value: declared.default, source: 'default' } };
  }
  return { active: false, activation: { key: when, value: null, source: 'absent' } };
}

// Declared types as GSD's config schema names them; `enum` values are strings.
function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number';
    case 'string':
    case 'enum':
      return typeof value === 'string';
    default:
      return true;
  }
}

// Own properties only, so "constructor" or "__proto__" find nothing.
function nested(config: unknown, key: string): { found: boolean; value?: unknown } {
  let current = config;
  for (const segment of key.split('.')) {
    if (!isJsonObject(current) || !Object.hasOwn(current, segment)) return { found: false };
    current = current[segment];
  }
  return { found: true, value: current };
}

// The dotted keys written flat at the top of a config (`"workflow.x": …`):
// GSD ignores them with a warning, and so does gsd-check.
export function flatKeys(config: Record<string, unknown> | undefined): string[] {
  return config === undefined ? [] : Object.keys(config).filter((key) => key.includes('.'));
}

// Suggesting the closest key compares a `when` with every key; past this many
// comparisons in one capability, a miss names a few keys instead.
const SUGGESTION_BUDGET = 20_000;

// The config keys a capability declares, which a gate's `when` must name, and
// how a miss is told. Built once per capability: listing and comparing every
// key again for each gate made the messages grow as keys times gates.
export class ConfigKeys {
  private readonly known: ReadonlySet<string>;
  private budget = SUGGESTION_BUDGET;
  private readonly told = new Map<string, string>();

  constructor(private readonly keys: readonly string[]) {
    this.known = new Set(keys);
  }

  has(key: string): boolean {
    return this.known.has(key);
  }

  // The issue for a `when` that names no key.
  miss(when: string): string {
    const known = this.told.get(when);
    if (known !== undefined) return known;
    let hint: string | undefined;
    if (this.budget >= this.keys.length) {
      this.budget -= this.keys.length;
      hint = closest(when, this.keys);
    }
    const message = `${describe(when)} is not a key of the capability's config${hint === undefined ? ` (keys: ${fewOf(this.keys)})` : `; did you mean "${hint}"?`}`;
    this.told.set(when, message);
    return message;
  }
}
