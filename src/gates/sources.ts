import { dirname } from 'node:path';
import { fail, ok, type Issue, type Result } from '../failure.ts';
import { isJsonObject, jsonDocuments, parseJson } from '../json/parse.ts';
import { KINDS } from '../kinds/table.ts';
import type { Kind } from '../predicate/kind.ts';
import { describe, jsonPath } from '../text/format.ts';
import { isLoopPoint, resolveWhen, type ConfigLayers, type KeyDeclaration, type LoopPoint } from './activation.ts';
import { type CapabilityDeclaration, parseGate, parseCapability } from './declaration.ts';
import type { PointGate } from './run-point.ts';

// Where a point's gates come from: capability files, GSD's rendered hooks,
// or GSD's own built-in gates.

export interface Capability {
  // Where it was read from; none for GSD's built-in ones (builtinCapabilities).
  readonly file?: string;
  // Its `id`, or its file path when it has none.
  readonly name: string;
  readonly declaration: CapabilityDeclaration;
}

// The gates of `point` in the capabilities' order and each one's declaration
// order, each with its `when` resolved as GSD does: against the configs, and
// the defaults that any of the capabilities declares (GSD's registry-wide
// config schema), not only the gate's own.
export function gatesAt(point: LoopPoint, capabilities: readonly Capability[], layers: ConfigLayers): { gates: PointGate[]; warnings: string[] } {
  const declarations = declaredKeys(capabilities);
  const warnings = new Set<string>();
  const gates = capabilities.flatMap((capability) =>
    capability.declaration.gates.flatMap((declaration, index): PointGate[] => {
      if (declaration.point !== point) return [];
      const { when } = declaration;
      let activation;
      if (when.on !== 'always') {
        activation =
          when.on === 'key'
            ? resolveWhen(when.key, layers, declarations)
            : { active: false, activation: { key: when.shown, value: null, source: 'absent' as const } };
        if (activation.warning !== undefined) warnings.add(activation.warning);
      }
      // GSD's built-in ones, and one read from standard input, have no directory of their own.
      return [
        {
          capability: capability.name,
          capDir: capability.file === undefined || capability.file === '-' ? undefined : dirname(capability.file),
          index,
          declaration,
          activation,
        },
      ];
    }),
  );
  return { gates, warnings: [...warnings] };
}

// Every config key the capabilities declare; the first declaration counts.
function declaredKeys(capabilities: readonly Capability[]): Map<string, KeyDeclaration> {
  const keys = new Map<string, KeyDeclaration>();
  for (const { declaration } of capabilities) {
    for (const [key, entry] of declaration.keys) if (!keys.has(key)) keys.set(key, entry);
  }
  return keys;
}

// The gates of GSD's `loop render-hooks <point> --raw` output: its
// `activeHooks` entries of kind "gate", already filtered by GSD's own
// activation, so all of them run. Steps and contributions are GSD's to
// render, not gates: left out. `label` names the input in messages.
export function gatesFromHooks(hooks: unknown, point: LoopPoint, label: string, kinds: ReadonlyMap<string, Kind>): Result<PointGate[]> {
  if (!isJsonObject(hooks)) return fail('invalid-json', `${label} is not a JSON object (is it the output of gsd_run loop render-hooks <point> --raw?)`);
  if (hooks.point !== point) {
    return fail('invalid-json', `${label}: rendered for point ${describe(hooks.point)}, not for --point ${point}`);
  }
  const entries = hooks.activeHooks;
  if (!Array.isArray(entries)) return fail('invalid-json', `${label}: activeHooks must be an array, got ${describe(entries)}`);
  const issues: Issue[] = [];
  const counts = new Map<string, number>();
  const gates: PointGate[] = [];
  entries.forEach((entry, at) => {
    if (!isJsonObject(entry) || entry.kind !== 'gate') return;
    const capId = entry.capId;
    if (typeof capId !== 'string' || capId === '') {
      issues.push({ path: jsonPath('activeHooks', [at, 'capId']), message: `must be a non-empty string, got ${describe(capId)}` });
      return;
    }
    const { capId: _, kind: __, ...declared } = entry;
    // GSD's own gates keep the place they have in its registry, as
    // --builtin names them, so a job that switches keeps its gates' ids;
    // any other is counted in the order rendered, after those.
    const known = builtinPlaces().get(capId);
    const counted = (known?.size ?? 0) + (counts.get(capId) ?? 0);
    const index = known?.get(JSON.stringify([point, declared.check])) ?? counted;
    if (index === counted) counts.set(capId, (counts.get(capId) ?? 0) + 1);
    gates.push({ capability: capId, index, declaration: parseGate({ point, ...declared }, jsonPath('gates', [index]), kinds) });
  });
  if (issues.length > 0) return fail('invalid-json', `${label} has malformed gate entries`, issues);
  return ok(gates);
}

// The gates GSD 1.14 ships compiled into its capability registry, which a
// user cannot hand to --capability since no file of them is installed:
// `gsd-1.14/capabilities.json` holds, in the registry's order, each
// capability that declares gates, with those gates and the config keys they
// are switched by (from @opengsd/gsd-core 1.14.0, MIT: gsd-1.14/LICENSE).
// compat/test/activation.test.mjs holds them equal to the registry, and
// their activation equal to `gsd-tools loop render-hooks`.
declare const GSD_BUILTIN_GATES: string;

// Each built-in capability's gates by point and check: their places in its list.
let places: Map<string, Map<string, number>> | undefined;
function builtinPlaces(): Map<string, Map<string, number>> {
  places ??= new Map(
    (JSON.parse(GSD_BUILTIN_GATES) as { id: string; gates: { point: string; check: unknown }[] }[]).map((capability) => [
      capability.id,
      new Map(capability.gates.map((gate, index) => [JSON.stringify([gate.point, gate.check]), index])),
    ]),
  );
  return places;
}

export function builtinCapabilities(): Capability[] {
  // Baked in by build.mjs as a string, parsed on first use only.
  const data = JSON.parse(GSD_BUILTIN_GATES) as unknown[];
  return data.map((json) => {
    const parsed = parseCapability(json, KINDS);
    // The data is ours and checked by the tests: a capability that does not
    // parse is a bug of this build.
    if (!parsed.ok) throw new Error('gsd-1.14/capabilities.json: a capability is not an object with a list of gates');
    return { name: parsed.value.id ?? 'gsd', declaration: parsed.value };
  });
}

// Several points' rendered hooks in one input, as a loop over the points
// prints them (`gsd_run loop render-hooks <point> --raw`, indented, one
// document after another), or a JSON array of them: each point's gates, or
// why it has none (no hooks of it in the input). Hooks of a point that is
// not run are refused, as are a point's hooks given twice: either would
// leave gates unevaluated that the input says are active. Each document is
// checked as it is parsed, so a long input of junk fails at its first.
export function gatesFromHooksOf(
  text: string,
  label: string,
  points: readonly LoopPoint[],
  kinds: ReadonlyMap<string, Kind>,
): Result<{ readonly byPoint: Map<LoopPoint, Result<PointGate[]>>; readonly warnings: ReadonlyMap<LoopPoint, string[]> }> {
  const found = jsonDocuments(text);
  const byPoint = new Map<LoopPoint, { document: unknown; where: string }>();
  const take = (document: unknown, where: string): Result<void> => {
    const point = isJsonObject(document) ? document.point : undefined;
    if (typeof point !== 'string' || !isLoopPoint(point)) {
      return fail(
        'invalid-json',
        `${where} of ${label} is not the output of gsd_run loop render-hooks <point> --raw (${point === undefined ? 'it names no point' : `its point is ${describe(point)}`})`,
      );
    }
    if (!points.includes(point))
      return fail('usage', `${where} of ${label} holds the hooks of ${point}, a point not run; add --point ${point}, or leave it out of the input`);
    const earlier = byPoint.get(point);
    if (earlier !== undefined)
      return fail('invalid-json', `${where} of ${label} holds the hooks of ${point} again (first in ${earlier.where}): which ones count is ambiguous`);
    byPoint.set(point, { document, where });
    return ok(undefined);
  };
  for (const [at, { text: documentText, line }] of found.entries()) {
    const where = found.length === 1 ? 'the document' : `document ${at + 1} (line ${line})`;
    const parsed = parseJson(documentText, `${where} of ${label}`);
    if (!parsed.ok) return parsed;
    // One list of them is the same as the documents one after another.
    const items =
      found.length === 1 && Array.isArray(parsed.value)
        ? parsed.value.map((item, i) => ({ item: item as unknown, where: `item ${i}` }))
        : [{ item: parsed.value, where }];
    for (const { item, where: itemWhere } of items) {
      const taken = take(item, itemWhere);
      if (!taken.ok) return taken;
    }
  }
  return ok({
    byPoint: new Map(
      points.map((point): [LoopPoint, Result<PointGate[]>] => {
        const entry = byPoint.get(point);
        if (entry === undefined)
          return [point, fail('invalid-json', `no document of ${label} holds the hooks of ${point}; did gsd_run loop render-hooks ${point} --raw fail?`)];
        return [point, gatesFromHooks(entry.document, point, `${entry.where} of ${label}`, kinds)];
      }),
    ),
    // By point: GSD's warnings name the point (its gate there is skipped),
    // and a point --reached leaves out is no more warned of than rendered.
    warnings: new Map([...byPoint].map(([point, entry]): [LoopPoint, string[]] => [point, hooksWarnings(entry.document)])),
  });
}

// What GSD says beside a point's hooks (`warnings`): a capability it failed
// to load, whose gates it skips and does not enforce. GSD's workflow shows
// them to the agent.
export function hooksWarnings(hooks: unknown): string[] {
  if (!isJsonObject(hooks) || !Array.isArray(hooks.warnings)) return [];
  return hooks.warnings.filter((w): w is string => typeof w === 'string' && w !== '').map((w) => `GSD: ${w}`);
}
