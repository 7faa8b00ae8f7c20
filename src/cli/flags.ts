import { ok, usage, type Result } from '../failure.ts';
import { listed, shown } from '../text/format.ts';
import { closest } from '../text/suggest.ts';
import { flagNamed } from './flag-table.ts';

// The flag tokenizer: argv → flag values, switches and the remaining words,
// by what the command table says each flag is (command-line.ts builds the
// spec from it).

interface FlagSpec {
  readonly values: readonly string[];
  readonly booleans: readonly string[];
  // Value flags that may be given more than once (--capability a --capability b).
  readonly repeatable: readonly string[];
  // Value flags whose `=` form is trimmed, as GSD trims it.
  readonly trimsJoined?: readonly string[];
  // Single-letter aliases of booleans.
  readonly aliases: Readonly<Record<string, string>>;
}

export interface Flags {
  readonly values: ReadonlyMap<string, readonly string[]>;
  readonly booleans: ReadonlySet<string>;
  readonly words: readonly string[];
}

// The value of a flag that is given at most once (the tokenizer refused a second).
export const valueOf = (flags: Flags, name: string): string | undefined => flags.values.get(name)?.[0];

// Splits argv strictly: a value never starts with "-" unless joined with "="
// (`--phase-dir --raw` is a missing value, not a directory named --raw), an
// empty value is one (`--phase-req-ids=`), a switch takes no value (in
// `--exit-code false`, false is a word), a lone "-" is a word (standard
// input), and no flag has a negated form (`--no-exit-code` is unknown, so it
// cannot undo --exit-code). No library: mri needed each of these undone, and
// node:util's parseArgs costs more start-up than the loop (see the commit
// that made the first version of this loop).
export function tokenizeFlags(argv: readonly string[], spec: FlagSpec): Result<Flags> {
  const values = new Map<string, string[]>();
  const booleans = new Set<string>();
  const words: string[] = [];
  const known = [...spec.values, ...spec.booleans];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const joined = arg.indexOf('=');
    const flag = joined === -1 ? arg : arg.slice(0, joined);
    if (!flag.startsWith('--')) {
      // -hV: one-letter switches, run together or not.
      if (joined !== -1) return usage(Object.hasOwn(spec.aliases, flag.slice(1)) ? `${flag} takes no value` : unknownFlag(flag, known));
      // `-raw` is not -r -a -w: a word after one dash is a long flag missing a
      // dash (or a typo), unless each letter is a short alias (`-hV`).
      if ([...flag.slice(1)].some((letter) => !Object.hasOwn(spec.aliases, letter))) return usage(unknownFlag(flag, known));
      for (const letter of flag.slice(1)) booleans.add(spec.aliases[letter]!);
      continue;
    }
    const name = flag.slice(2);
    if (spec.booleans.includes(name)) {
      if (joined !== -1) return usage(`${flag} takes no value`);
      booleans.add(name);
      continue;
    }
    if (!spec.values.includes(name)) return usage(unknownFlag(flag, known));
    const seen = values.get(name) ?? [];
    if (seen.length > 0 && !spec.repeatable.includes(name)) return usage(`--${name} is given more than once`);
    let value: string;
    if (joined !== -1) value = spec.trimsJoined?.includes(name) ? arg.slice(joined + 1).trim() : arg.slice(joined + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) return usage(`--${name} needs a value`);
      if (next.startsWith('-') && next !== '-') {
        return usage(`--${name} needs a value, got the flag ${shown(next)}; for a value that starts with "-", write ${shown(`--${name}=${next}`)}`);
      }
      value = next;
      i++;
    }
    values.set(name, [...seen, value]);
  }
  return ok({ values, booleans, words });
}

function unknownFlag(flag: string, known: readonly string[]): string {
  const name = flag.replace(/^-+/, '');
  const hints = likelyFlags(name, known).map((hint) => `--${hint}`);
  return `unknown flag ${shown(flag)}${hints.length === 0 ? '' : `; did you mean ${listed(hints)}?`}${shortHint(flag)}`;
}

// A typo of one flag; else the flags the name begins (`--phase`: the three
// phase flags) or, cut short, one it runs past (`--phase-directory`).
function likelyFlags(name: string, known: readonly string[]): string[] {
  const near = closest(name, known);
  if (near !== undefined) return [near];
  const lower = name.toLowerCase();
  if (lower.length < 3) return [];
  const longer = known.filter((flag) => flag.startsWith(lower));
  return longer.length > 0 ? longer : known.filter((flag) => flag.length >= 3 && lower.startsWith(flag));
}

// `-v` is how many tools spell --version (or --verbose); gsd-check's is -V.
function shortHint(flag: string): string {
  return flag === '-v' ? '; the version is -V (or --version)' : '';
}

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
