import { closest } from '../text/suggest.ts';
import { describe, fewOf } from '../text/format.ts';

// Suggesting the closest key compares a `when` with every key; past this many
// comparisons in one capability, a miss names a few keys instead.
const SUGGESTION_BUDGET = 20_000;

// The config keys a capability declares, which a gate's `when` must name, and
// how a miss is told. Built once per capability: listing and comparing every
// key again for each gate made a 1 MiB capability (30,000 keys, as many gates)
// cost gigabytes of messages.
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
