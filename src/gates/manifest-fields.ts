import type { Issue } from '../failure.ts';
import { describe, jsonPath } from '../text/format.ts';
import { closest } from '../text/suggest.ts';

// How the fields of a capability manifest are checked and told, the rules
// that capability-validator.cjs (GSD 1.14) applies over and over: a
// non-empty string, one of a closed set, an array of strings, a kebab-case
// name, a name that is not a JavaScript prototype member.

// An issue of a manifest. `refuses`: GSD's loader would skip the capability
// for it, and so enforce none of its gates.
export interface ManifestIssue extends Issue {
  readonly refuses: boolean;
}

// A capability id, a runtime id, a tracker prefix.
const KEBAB = /^[a-z][a-z0-9-]*$/;
export const isKebab = (value: unknown): value is string => typeof value === 'string' && KEBAB.test(value);
export const KEBAB_RULE = 'a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens)';

// What GSD means by a non-empty string: one character is enough, a blank too.
export const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

// Names GSD refuses as keys it writes into plain objects.
export const isReservedName = (value: unknown): boolean => value === '__proto__' || value === 'constructor' || value === 'prototype';

// The issues of one manifest, in the order its fields are checked.
export class ManifestIssues {
  readonly list: ManifestIssue[] = [];

  // An issue for which GSD refuses the capability.
  refuse(path: string, message: string): void {
    this.list.push({ path, message, refuses: true });
  }

  keep(issues: readonly Issue[], refusals: readonly Issue[]): void {
    for (const issue of issues) this.list.push({ ...issue, refuses: refusals.includes(issue) });
  }

  // `valid` or an issue at `path`: "is required (…)" for a field left out,
  // "must be …, got …" for one given.
  expect(path: string, value: unknown, valid: boolean, what: string): boolean {
    if (!valid) this.refuse(path, value === undefined ? `is required (${what})` : `must be ${what}, got ${describe(value)}`);
    return valid;
  }

  text(path: string, value: unknown): boolean {
    return this.expect(path, value, isText(value), 'a non-empty string');
  }

  // True when `value` is a name GSD refuses, which is then the issue.
  reserved(path: string, value: unknown): boolean {
    if (isReservedName(value)) this.refuse(path, `${describe(value)} is a name GSD refuses (__proto__, constructor and prototype are)`);
    return isReservedName(value);
  }

  oneOf(path: string, value: unknown, options: readonly string[]): boolean {
    if (typeof value === 'string' && options.includes(value)) return true;
    const hint = typeof value === 'string' ? closest(value, options) : undefined;
    const list = options.map((o) => JSON.stringify(o)).join(', ');
    if (value === undefined) this.refuse(path, `is required (one of ${list})`);
    else this.refuse(path, `must be one of ${list}, got ${describe(value)}${hint === undefined ? '' : `; did you mean "${hint}"?`}`);
    return false;
  }

  // An array whose entries are each checked by `entry` (at its own path);
  // undefined when it is no array.
  array(path: string, value: unknown, what: string, entry?: (item: unknown, itemPath: string) => void): readonly unknown[] | undefined {
    if (!this.expect(path, value, Array.isArray(value), what)) return undefined;
    const items = value as readonly unknown[];
    if (entry !== undefined) items.forEach((item, index) => entry(item, jsonPath(path, [index])));
    return items;
  }

  // An array of names, each a string (`one` says what it names) and none a
  // prototype member.
  names(path: string, value: unknown, one: string, many: string): readonly unknown[] | undefined {
    return this.array(path, value, `an array of ${many}`, (item, itemPath) => {
      if (this.expect(itemPath, item, typeof item === 'string', `a string (${one})`)) this.reserved(itemPath, item);
    });
  }

  // An array of strings (`many` says what they are).
  strings(path: string, value: unknown, many: string): readonly unknown[] | undefined {
    return this.array(path, value, `an array of ${many}`, (item, itemPath) => this.expect(itemPath, item, typeof item === 'string', 'a string'));
  }
}
