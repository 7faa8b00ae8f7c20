import type { Issue } from '../failure.ts';
import { isJsonObject } from '../json-object.ts';
import type { Kind } from '../kinds/kind.ts';
import { validatePredicate } from '../predicate/validate.ts';
import { closest } from '../text/closest.ts';
import { describe } from '../text/describe.ts';
import { jsonPath } from '../text/json-path.ts';
import { ConfigKeys } from './config-keys.ts';
import { LOOP_POINTS, isLoopPoint } from './points.ts';

const GATE_FIELDS = ['point', 'check', 'when', 'blocking', 'onError'];
const CHECK_SHAPES = ['query', 'predicate', 'agentVerdict'];

// Every issue of a capability's gates, each with its JSON path. Fields
// outside `gates` are the capability format's business, not gsd-check's,
// except `config`, whose keys a gate's `when` must name.
export function validateCapability(capability: unknown, kinds: ReadonlyMap<string, Kind>): Issue[] {
  if (!isJsonObject(capability)) return [{ path: '', message: `must be a JSON object, got ${describe(capability)}` }];
  if (!Object.hasOwn(capability, 'gates')) return [];
  const gates = capability.gates;
  if (!Array.isArray(gates)) return [{ path: 'gates', message: `must be an array, got ${describe(gates)}` }];
  const config = isJsonObject(capability.config) ? new ConfigKeys(capability.config) : undefined;
  return gates.flatMap((gate, index) => validateGate(gate, jsonPath('gates', [index]), config, kinds));
}

export function validateGate(
  gate: unknown,
  at: string,
  config: ConfigKeys | undefined,
  kinds: ReadonlyMap<string, Kind>,
): Issue[] {
  if (!isJsonObject(gate)) return [{ path: at, message: `must be an object, got ${describe(gate)}` }];
  const issues: Issue[] = [];
  const issue = (keys: (string | number)[], message: string): void => void issues.push({ path: jsonPath(at, keys), message });

  for (const key of Object.keys(gate)) {
    if (!GATE_FIELDS.includes(key)) issue([key], unknownField(key, GATE_FIELDS));
  }

  if (!Object.hasOwn(gate, 'point')) issue(['point'], 'is required (a loop point)');
  else if (!isLoopPoint(gate.point)) {
    const hint = typeof gate.point === 'string' ? closest(gate.point, LOOP_POINTS) : undefined;
    issue(['point'], `must be a loop point, got ${describe(gate.point)}${hint === undefined ? ` (one of: ${LOOP_POINTS.join(', ')})` : `; did you mean "${hint}"?`}`);
  }

  const check = gate.check;
  if (!Object.hasOwn(gate, 'check')) issue(['check'], 'is required');
  else if (!isJsonObject(check)) issue(['check'], `must be an object, got ${describe(check)}`);
  else {
    for (const key of Object.keys(check)) {
      if (!CHECK_SHAPES.includes(key)) issue(['check', key], unknownField(key, CHECK_SHAPES));
    }
    const shapes = CHECK_SHAPES.filter((shape) => Object.hasOwn(check, shape));
    if (shapes.length !== 1) {
      issue(['check'], `must have exactly one of query, predicate, agentVerdict${shapes.length > 1 ? `, has ${shapes.join(' and ')}` : ''}`);
    }
    if (Object.hasOwn(check, 'query') && (typeof check.query !== 'string' || check.query.trim() === '')) {
      issue(['check', 'query'], `must be a non-empty string, got ${describe(check.query)}`);
    }
    if (Object.hasOwn(check, 'predicate')) {
      const valid = validatePredicate(check.predicate, kinds, jsonPath(at, ['check', 'predicate']));
      if (!valid.ok) {
        issues.push(
          ...(valid.failure.issues.length > 0
            ? valid.failure.issues
            : [{ path: jsonPath(at, ['check', 'predicate', 'kind']), message: valid.failure.message }]),
        );
      } else {
        for (const lint of valid.value.kind.lint?.(valid.value.predicate) ?? []) issue(['check', 'predicate', lint.field], lint.message);
      }
    }
    if (Object.hasOwn(check, 'agentVerdict')) {
      if (check.agentVerdict === null) issue(['check', 'agentVerdict'], 'must not be null');
      if (gate.blocking === true) issue(['blocking'], 'must not be true for an agentVerdict gate: an agent verdict is advisory');
    }
  }

  if (Object.hasOwn(gate, 'when')) {
    const when = gate.when;
    if (typeof when !== 'string' || when.trim() === '') issue(['when'], `must be a non-empty string, got ${describe(when)}`);
    else if (config !== undefined && !config.has(when)) issue(['when'], config.miss(when));
  }

  if (!Object.hasOwn(gate, 'blocking')) issue(['blocking'], 'is required (true or false)');
  else if (typeof gate.blocking !== 'boolean') issue(['blocking'], `must be true or false, got ${describe(gate.blocking)}`);

  if (!Object.hasOwn(gate, 'onError')) issue(['onError'], 'is required ("halt" or "skip")');
  else if (gate.onError !== 'halt' && gate.onError !== 'skip') issue(['onError'], `must be "halt" or "skip", got ${describe(gate.onError)}`);

  return issues;
}

function unknownField(key: string, known: readonly string[]): string {
  const hint = closest(key, known);
  return hint === undefined ? `unknown field (known fields: ${known.join(', ')})` : `unknown field; did you mean "${hint}"?`;
}
