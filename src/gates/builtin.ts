import { parseCapability } from './declaration.ts';
import type { Capability } from './from-capabilities.ts';
import { KINDS } from '../kinds/table.ts';

// The gates GSD 1.14 ships compiled into its capability registry, which a
// user cannot hand to --capability since no file of them is installed:
// `gsd-1.14/capabilities.json` holds, in the registry's order, each
// capability that declares gates, with those gates and the config keys they
// are switched by (from @opengsd/gsd-core 1.14.0, MIT: gsd-1.14/LICENSE).
// compat/test/activation.test.mjs holds them equal to the registry, and
// their activation equal to `gsd-tools loop render-hooks`.
declare const GSD_BUILTIN_GATES: string;

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
