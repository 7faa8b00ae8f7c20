import { dirname } from 'node:path';
import { describe } from '../text/format.ts';
import { resolveWhen, type ConfigLayers, type KeyDeclaration } from './activation.ts';
import type { CapabilityDeclaration } from './declaration.ts';
import type { LoopPoint } from './points.ts';
import type { PointGate } from './run-point.ts';

export interface Capability {
  // Where it was read from; none for GSD's built-in ones (gates/builtin.ts).
  readonly file?: string | undefined;
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
      const when = declaration.declared.when;
      let activation;
      if (when !== undefined) {
        // A `when` that is not a key is malformed: inactive, as in GSD.
        activation =
          typeof when === 'string' && when !== ''
            ? resolveWhen(when, layers, declarations)
            : { active: false, activation: { key: typeof when === 'string' ? when : describe(when), value: null, source: 'absent' as const } };
        if (activation.warning !== undefined) warnings.add(activation.warning);
      }
      // GSD's built-in ones, and one read from standard input, have no directory of their own.
      return [{ capability: capability.name, capDir: capability.file === undefined || capability.file === '-' ? undefined : dirname(capability.file), index, declaration, activation }];
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
