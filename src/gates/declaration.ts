import * as v from 'valibot';
import { fail, ok, type Issue, type Result } from '../failure.ts';
import { isJsonObject } from '../json/parse.ts';
import type { Kind } from '../predicate/kind.ts';
import { validatePredicate, type ValidPredicate } from '../predicate/validate.ts';
import { describe, jsonPath } from '../text/format.ts';
import { closest, unknownField } from '../text/suggest.ts';
import { type KeyDeclaration, ConfigKeys, LOOP_POINTS, type LoopPoint } from './activation.ts';

// The one reading of a capability's gates, shared by `validate` (every issue)
// and `gates run` (what runs, and how). Fields of the capability outside
// `gates`, `id` and `config` are the capability format's business.

export const GATE_FIELDS = ['point', 'check', 'when', 'blocking', 'onError'];
export const CHECK_SHAPES = ['query', 'predicate', 'agentVerdict'];

const nonBlank = (issue: { input: unknown }): string => `must be a non-empty string, got ${describe(issue.input)}`;
// `jsonSchema` metadata: what a check means in JSON Schema (schemas/generate.ts).
// JavaScript's trim() removes exactly what \s matches.
const NonBlank = v.pipe(
  v.string(nonBlank),
  v.check((text: string) => text.trim() !== '', nonBlank),
  v.metadata({ jsonSchema: { pattern: '\\S' } }),
);

const Point = v.picklist(LOOP_POINTS, (issue) => {
  const hint = typeof issue.input === 'string' ? closest(issue.input, LOOP_POINTS) : undefined;
  return `must be a loop point, got ${describe(issue.input)}${hint === undefined ? ` (one of: ${LOOP_POINTS.join(', ')})` : `; did you mean "${hint}"?`}`;
});
const Blocking = v.boolean((issue) => `must be true or false, got ${describe(issue.input)}`);
const OnError = v.picklist(['halt', 'skip'], (issue) => `must be "halt" or "skip", got ${describe(issue.input)}`);
const AgentVerdict = v.pipe(
  v.custom<unknown>((input) => input !== null, 'must not be null'),
  v.metadata({ jsonSchema: { not: { type: 'null' } } }),
);

// The schemas of a gate's fields, which schemas/generate.ts turns into JSON Schema.
export const FIELD_SCHEMAS = { point: Point, query: NonBlank, agentVerdict: AgentVerdict, when: NonBlank, blocking: Blocking, onError: OnError };

// How a gate checks the project. A predicate is kept as validated: one that
// is invalid is the check's failure when it runs, routed by onError.
export type Check =
  | { readonly shape: 'query'; readonly query: v.InferOutput<typeof NonBlank> }
  | { readonly shape: 'predicate'; readonly predicate: Result<ValidPredicate> }
  | { readonly shape: 'agentVerdict' };

// What `gates run` needs of a gate: how to check, and how to fail.
interface Gate {
  readonly check: Check;
  readonly blocking: v.InferOutput<typeof Blocking>;
  readonly onError: v.InferOutput<typeof OnError>;
}

// When a gate runs, read here once for gates run, by GSD 1.14's rule: without
// a `when`, or with a null one, always; with a string that is not empty,
// when that config key is on; with anything else, never. `shown` is how a
// report names a malformed one. validate also reports a blank or null one
// (NonBlank), a slip that does not change what runs.
type When = { readonly on: 'always' } | { readonly on: 'key'; readonly key: string } | { readonly on: 'never'; readonly shown: string };

export interface GateDeclaration {
  // The gate as written, which a report shows; empty for one that is not an object.
  readonly declared: Readonly<Record<string, unknown>>;
  // The loop point it runs at; undefined when it names none.
  readonly point: LoopPoint | undefined;
  readonly when: When;
  // Its check, blocking and onError; or, when any of them is broken, the
  // failure whose issues say so: such a gate cannot say how it should fail.
  readonly gate: Result<Gate>;
  // Every issue, in the order of its fields: other slips (an unknown field,
  // an undeclared `when`, an invalid predicate) do not change what runs.
  readonly issues: readonly Issue[];
  // Those of its issues for which GSD 1.14's loader refuses the whole
  // capability (capability-validator.cjs's validateGate, and the contract's
  // rule that a `when` names a config key): an unknown field, a blank query
  // or an invalid predicate it loads.
  readonly refusals: readonly Issue[];
}

export interface CapabilityDeclaration {
  // Its `id`, when that is a non-blank string.
  readonly id: string | undefined;
  // The config keys it declares as `{type, default, …}` objects.
  readonly keys: ReadonlyMap<string, KeyDeclaration>;
  readonly gates: readonly GateDeclaration[];
  // Every issue of every gate, in order.
  readonly issues: readonly Issue[];
}

// A capability whose gates cannot even be listed fails whole, its one issue
// saying why; every other slip is an issue of the declaration. `label`
// names the file in the failure's message.
export function parseCapability(input: unknown, kinds: ReadonlyMap<string, Kind>, label = 'the capability'): Result<CapabilityDeclaration> {
  if (!isJsonObject(input)) {
    return fail('invalid-capability', `${label} is not a JSON object`, [{ path: '', message: `must be a JSON object, got ${describe(input)}` }]);
  }
  const list = Object.hasOwn(input, 'gates') ? input.gates : [];
  if (!Array.isArray(list)) {
    return fail('invalid-capability', `${label}: gates must be an array`, [{ path: 'gates', message: `must be an array, got ${describe(list)}` }]);
  }
  const id = input.id;
  const config = isJsonObject(input.config) ? input.config : undefined;
  // A gate's `when` must name one of the keys, where the capability declares a config.
  const configKeys = config === undefined ? undefined : new ConfigKeys(Object.keys(config));
  const gates = list.map((gate: unknown, index) => parseGate(gate, jsonPath('gates', [index]), kinds, configKeys));
  return ok({
    id: typeof id === 'string' && id.trim() !== '' ? id : undefined,
    keys: declaredKeys(config),
    gates,
    issues: gates.flatMap((gate) => gate.issues),
  });
}

function declaredKeys(config: Record<string, unknown> | undefined): Map<string, KeyDeclaration> {
  const keys = new Map<string, KeyDeclaration>();
  for (const [key, entry] of Object.entries(config ?? {})) {
    if (isJsonObject(entry)) keys.set(key, { type: typeof entry.type === 'string' ? entry.type : undefined, default: entry.default });
  }
  return keys;
}

// One gate, `at` its JSON path. Fields are read in a fixed order, each by its
// own schema, so that issues come in the order a reader fixes them: unknown
// fields, point, check, when, blocking, onError.
export function parseGate(input: unknown, at: string, kinds: ReadonlyMap<string, Kind>, configKeys?: ConfigKeys): GateDeclaration {
  if (!isJsonObject(input)) {
    const issues = [{ path: at, message: `must be an object, got ${describe(input)}` }];
    return { declared: {}, point: undefined, when: { on: 'always' }, gate: invalidGate(issues), issues, refusals: issues };
  }
  const issues: Issue[] = [];
  const broken: Issue[] = [];
  const refusals: Issue[] = [];
  // `breaks`: the issue is in the check, blocking or onError; `refuses`: GSD
  // would not load the capability for it.
  const add = (keys: readonly (string | number)[], message: string, breaks: boolean, refuses: boolean): void => {
    const issue = { path: jsonPath(at, keys), message };
    issues.push(issue);
    if (breaks) broken.push(issue);
    if (refuses) refusals.push(issue);
  };
  const field = <S extends v.GenericSchema>(
    schema: S,
    value: unknown,
    keys: readonly string[],
    breaks: boolean,
    refuses: boolean,
  ): v.InferOutput<S> | undefined => {
    const parsed = v.safeParse(schema, value);
    if (parsed.success) return parsed.output;
    for (const issue of parsed.issues) add(keys, issue.message, breaks, refuses);
    return undefined;
  };
  const required = <S extends v.GenericSchema>(key: string, schema: S, missing: string, breaks: boolean): v.InferOutput<S> | undefined => {
    if (Object.hasOwn(input, key)) return field(schema, input[key], [key], breaks, true);
    add([key], missing, breaks, true);
    return undefined;
  };

  for (const key of Object.keys(input)) {
    if (!GATE_FIELDS.includes(key)) add([key], unknownField(key, GATE_FIELDS), false, false);
  }
  const point = required('point', Point, 'is required (a loop point)', false);

  let check: Check | undefined;
  if (!Object.hasOwn(input, 'check')) add(['check'], 'is required', true, true);
  else if (!isJsonObject(input.check)) add(['check'], `must be an object, got ${describe(input.check)}`, true, true);
  else {
    const fields = input.check;
    for (const key of Object.keys(fields)) {
      if (!CHECK_SHAPES.includes(key)) add(['check', key], unknownField(key, CHECK_SHAPES), true, false);
    }
    const shapes = CHECK_SHAPES.filter((shape) => Object.hasOwn(fields, shape));
    if (shapes.length !== 1) {
      add(['check'], `must have exactly one of query, predicate, agentVerdict${shapes.length > 1 ? `, has ${shapes.join(' and ')}` : ''}`, true, true);
    }
    if (Object.hasOwn(fields, 'query')) {
      const query = field(NonBlank, fields.query, ['check', 'query'], true, false);
      if (query !== undefined) check = { shape: 'query', query };
    }
    if (Object.hasOwn(fields, 'predicate')) {
      const predicate = validatePredicate(fields.predicate, kinds, jsonPath(at, ['check', 'predicate']));
      if (!predicate.ok) {
        const { failure } = predicate;
        issues.push(...(failure.issues.length > 0 ? failure.issues : [{ path: jsonPath(at, ['check', 'predicate', 'kind']), message: failure.message }]));
      } else {
        for (const lint of predicate.value.kind.lint?.(predicate.value.predicate) ?? []) add(['check', 'predicate', lint.field], lint.message, false, false);
      }
      check = { shape: 'predicate', predicate };
    }
    if (Object.hasOwn(fields, 'agentVerdict')) {
      field(AgentVerdict, fields.agentVerdict, ['check', 'agentVerdict'], true, false);
      if (input.blocking === true) add(['blocking'], 'must not be true for an agentVerdict gate: an agent verdict is advisory', true, true);
      check = { shape: 'agentVerdict' };
    }
  }

  let when: When = { on: 'always' };
  if (Object.hasOwn(input, 'when')) {
    const given = input.when;
    // GSD refuses a `when` that is not a string, or (where there is a config)
    // names none of its keys, a blank one included.
    const unknownKey = typeof given === 'string' && configKeys !== undefined && !configKeys.has(given);
    const checked = field(NonBlank, given, ['when'], false, typeof given !== 'string' || unknownKey);
    if (checked !== undefined && unknownKey && configKeys !== undefined) add(['when'], configKeys.miss(checked), false, true);
    if (typeof given === 'string' && given !== '') when = { on: 'key', key: given };
    else if (given !== null) when = { on: 'never', shown: typeof given === 'string' ? given : describe(given) };
  }
  const blocking = required('blocking', Blocking, 'is required (true or false)', true);
  const onError = required('onError', OnError, 'is required ("halt" or "skip")', true);

  const gate =
    broken.length === 0 && check !== undefined && blocking !== undefined && onError !== undefined ? ok({ check, blocking, onError }) : invalidGate(broken);
  return { declared: input, point, when, gate, issues, refusals };
}

// The failure of a gate that cannot say how it should fail: it halts when it
// runs, naming every issue.
function invalidGate(issues: readonly Issue[]): Result<never> {
  return fail('invalid-capability', `invalid gate: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

// How a gate's check reads in one word or two: `query ui.plan-gate`,
// `predicate command-exit-zero`, `agentVerdict`. Read from the check as a
// report carries it, not from the parse: a report names a malformed check
// too (`predicate ?`), which the parse keeps no value of, and every report
// (progress, table, JUnit, GitHub) names it from the same field.
export function checkLabel(check: unknown): string {
  if (typeof check !== 'object' || check === null) return 'check';
  const fields = check as Record<string, unknown>;
  if (typeof fields.query === 'string') return `query ${fields.query}`;
  if (typeof fields.preflight === 'string') return `preflight ${fields.preflight}`;
  const predicate = fields.predicate as { kind?: unknown } | null | undefined;
  if (predicate !== undefined) return `predicate ${typeof predicate?.kind === 'string' ? predicate.kind : '?'}`;
  return Object.hasOwn(fields, 'agentVerdict') ? 'agentVerdict' : 'check';
}
