import mri from 'mri';
import { ok, type Result } from '../failure.ts';
import { closest } from '../text/closest.ts';
import { usage } from './usage.ts';

interface FlagSpec {
  readonly values: readonly string[];
  readonly booleans: readonly string[];
  // Value flags that may be given more than once (--capability a --capability b).
  readonly repeatable: readonly string[];
  // Single-letter aliases of booleans.
  readonly aliases: Readonly<Record<string, string>>;
}

export interface Flags {
  readonly values: ReadonlyMap<string, readonly string[]>;
  readonly booleans: ReadonlySet<string>;
  readonly words: readonly string[];
}

// Splits argv into flag values, boolean flags and the remaining words.
// Value flags and words are taken out here, and mri is given the other
// flags only: it takes a following "-x" as a missing value without saying
// so, reads `--flag=` as "take the next argument", cannot tell an empty value
// from a missing one, swallows the word after a boolean when it is "true" or
// "false" (`--exit-code false` switched it off), and reads a lone "-" as a
// flag that swallows the next argument. mri handles the rest: booleans, short
// aliases, and unknown flags.
export function parseFlags(argv: readonly string[], spec: FlagSpec): Result<Flags> {
  const values = new Map<string, string[]>();
  const words: string[] = [];
  const flags: string[] = [];
  const known = [...spec.values, ...spec.booleans];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    // A lone "-" is a word: standard input.
    if (arg === '-' || !arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const name = /^-+([^=]*)/.exec(arg)![1]!;
    // mri reads `--no-x` (and `-no-x`) as x switched off: `--exit-code
    // --no-exit-code` would then exit 0 on a block. No flag of gsd-check has
    // a negation, so each such argument is an unknown flag.
    if (name.startsWith('no-')) return usage(unknownFlag(arg.replace(/=[\s\S]*$/, ''), known));
    const long = arg.startsWith('--');
    // `-raw` is not -r -a -w: a word after one dash is a long flag missing a
    // dash (or a typo), unless each letter is a short alias (`-hV`).
    if (!long && [...name].some((letter) => !Object.hasOwn(spec.aliases, letter)) && name.length > 1) {
      return usage(unknownFlag(arg.replace(/=[\s\S]*$/, ''), known));
    }
    if (!long || !spec.values.includes(name)) {
      if (arg.includes('=')) {
        const boolean = long ? spec.booleans.includes(name) : Object.hasOwn(spec.aliases, name);
        return usage(boolean ? `${arg.slice(0, arg.indexOf('='))} takes no value` : unknownFlag(arg.slice(0, arg.indexOf('=')), known));
      }
      flags.push(arg);
      continue;
    }
    const seen = values.get(name) ?? [];
    if (seen.length > 0 && !spec.repeatable.includes(name)) return usage(`--${name} is given more than once`);
    const joined = arg.indexOf('=');
    let value: string;
    if (joined !== -1) value = arg.slice(joined + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) return usage(`--${name} needs a value`);
      // A lone "-" is a value (standard input), never a flag.
      if (next.startsWith('-') && next !== '-') {
        return usage(`--${name} needs a value, got the flag ${shown(next)}; for a value that starts with "-", write ${shown(`--${name}=${next}`)}`);
      }
      value = next;
      i++;
    }
    values.set(name, [...seen, value]);
  }

  let unknown: string | undefined;
  const alias: Record<string, string | string[]> = { ...spec.aliases };
  // mri reports any flag that is not an alias key as unknown.
  for (const flag of spec.booleans) alias[flag] ??= [];
  // Given flags only, mri takes no word as a value: every boolean it sets is on.
  const parsed = mri(flags, {
    boolean: [...spec.booleans],
    alias,
    unknown: (flag) => {
      unknown = flag;
    },
  }) as mri.Argv | undefined;
  if (unknown !== undefined) return usage(unknownFlag(unknown, known));
  return ok({ values, booleans: new Set(spec.booleans.filter((flag) => parsed![flag] !== undefined)), words });
}

function unknownFlag(flag: string, known: readonly string[]): string {
  const name = flag.replace(/^-+/, '').replace(/=[\s\S]*$/, '');
  const hints = name.length > 1 ? likelyFlags(name, known) : [];
  const listed = hints.map((hint) => `--${hint}`);
  return `unknown flag ${shown(flag)}${hints.length === 0 ? '' : `; did you mean ${listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}`}?`}`;
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

// An argument as a message shows it: bare when it is plain printable text,
// else quoted, so that a newline or a control character cannot break the
// one-line error.
function shown(arg: string): string {
  return /^[\x21-\x7e]+$/.test(arg) ? arg : JSON.stringify(arg);
}
