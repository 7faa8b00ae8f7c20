import { fail, ok, type Issue, type Result } from '../failure.ts';
import { isJsonObject } from '../json/parse.ts';
import type { Kind } from '../predicate/kind.ts';
import { describe, jsonPath } from '../text/format.ts';
import { parseGate } from './declaration.ts';
import type { LoopPoint } from './points.ts';
import type { PointGate } from './run-point.ts';

// The gates of GSD's `loop render-hooks <point> --raw` output: its
// `activeHooks` entries of kind "gate", already filtered by GSD's own
// activation, so all of them run. Steps and contributions are GSD's to
// render, not gates: left out. `label` names the input in messages.
export function gatesFromHooks(hooks: unknown, point: LoopPoint, label: string, kinds: ReadonlyMap<string, Kind>): Result<PointGate[]> {
  if (!isJsonObject(hooks)) return fail('invalid-json', `${label} is not a JSON object (is it the output of gsd_run loop render-hooks <point> --raw?)`);
  if (hooks.point !== point) {
    return fail('usage', `${label} is for point ${describe(hooks.point)}, not --point ${point}`);
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
    const index = counts.get(capId) ?? 0;
    counts.set(capId, index + 1);
    const { capId: _, kind: __, ...declared } = entry;
    gates.push({ capability: capId, index, declaration: parseGate({ point, ...declared }, jsonPath('gates', [index]), kinds) });
  });
  if (issues.length > 0) return fail('invalid-json', `${label} has malformed gate entries`, issues);
  return ok(gates);
}
