import { ok, usage, type Result } from '../failure.ts';
import { flagNamed } from './flag-table.ts';
import { valueOf, type Flags } from './flags.ts';

// The value shapes more than one command's options share, each read by one rule.

const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

// A number of seconds as a flag gives it (`3`, `0.5`, `1e1`), or the table's
// default when the flag is absent; `positive` refuses 0.
export function seconds(flags: Flags, name: string, positive: boolean): Result<number> {
  const text = valueOf(flags, name);
  if (text === undefined) return ok(flagNamed(name)!.default!);
  const value = Number(text);
  if (NUMBER.test(text) && Number.isFinite(value) && (!positive || value > 0)) return ok(value);
  return usage(`--${name} must be a ${positive ? 'positive finite number of seconds' : 'finite number of seconds (0 or more)'}, got ${JSON.stringify(text)}`);
}

// Standard input can be read once: "-" may name at most one of a command's files.
export function stdinOnce(command: string, files: readonly string[]): Result<void> {
  return files.filter((file) => file === '-').length > 1 ? usage(`${command} reads standard input (-) once; give - at most once`) : ok(undefined);
}

// exactOptionalPropertyTypes: leave a field out rather than set it to undefined.
export function optional<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}
