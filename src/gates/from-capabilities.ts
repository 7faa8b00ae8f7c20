import { dirname } from 'node:path';
import { isJsonObject } from '../json-object.ts';
import { resolveWhen, type ConfigLayers, type KeyDeclaration } from './activation.ts';
import type { LoopPoint } from './points.ts';
import type { PointGate } from './point-gate.ts';

export interface Capability {
  readonly file: string;
  // Its `id`, or its file path when it has none.
  readonly name: string;
  readonly data: Record<string, unknown>;
}

// The gates of `point` in the capabilities' order and each one's declaration
// order, each with its `when` resolved as GSD does: against the configs, and
// the defaults that any of the capabilities declares (GSD's registry-wide
// config schema), not only the gate's own.
export function gatesAt(point: LoopPoint, capabilities: readonly Capability[], layers: ConfigLayers): { gates: PointGate[]; warnings: string[] } {
  const declarations = declaredKeys(capabilities);
  const warnings = new Set<string>();
  const gates = capabilities.flatMap((capability) => {
    const list = Array.isArray(capability.data.gates) ? (capability.data.gates as unknown[]) : [];
    return list.flatMap((gate, index): PointGate[] => {
      if (!isJsonObject(gate) || gate.point !== point) return [];
      const when = gate.when;
      let activation;
      if (when !== undefined) {
        // A `when` that is not a key is malformed: inactive, as in GSD.
        activation =
          typeof when === 'string' && when !== ''
            ? resolveWhen(when, layers, declarations)
            : { active: false, activation: { key: String(when), value: null, source: 'absent' as const } };
        if (activation.warning !== undefined) warnings.add(activation.warning);
      }
      return [{ capability: capability.name, capDir: dirname(capability.file), index, declaration: gate, activation }];
    });
  });
  return { gates, warnings: [...warnings] };
}

// Every config key the capabilities declare; the first declaration counts.
function declaredKeys(capabilities: readonly Capability[]): Map<string, KeyDeclaration> {
  const keys = new Map<string, KeyDeclaration>();
  for (const { data } of capabilities) {
    if (!isJsonObject(data.config)) continue;
    for (const [key, entry] of Object.entries(data.config)) {
      if (keys.has(key) || !isJsonObject(entry)) continue;
      keys.set(key, { type: typeof entry.type === 'string' ? entry.type : undefined, default: entry.default });
    }
  }
  return keys;
}
