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
// Value flags are taken out here rather than by mri: mri takes a following
// "-x" as a missing value without saying so, reads `--flag=` as "take the
// next argument", and cannot tell an empty value from a missing one. mri
// handles the rest: booleans, short aliases, `--`, and unknown flags.
export function parseFlags(argv: readonly string[], spec: FlagSpec): Result<Flags> {
  const values = new Map<string, string[]>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    // mri reads a lone "-" as a flag with an empty name that swallows the next
    // argument (`validate a.json - b.json` lost b.json): pass it as a word,
    // under a name no argument can have (argv strings hold no NUL).
    if (arg === '-') {
      rest.push(STDIN_WORD);
      continue;
    }
    // mri reads `--no-x` (and `-no-x`) as x switched off: `--exit-code
    // --no-exit-code` would then exit 0 on a block. No flag of gsd-check has
    // a negation, so each such argument is an unknown flag.
    if (/^-+no-/.test(arg)) return usage(unknownFlag(arg.replace(/=[\s\S]*$/, ''), [...spec.values, ...spec.booleans]));
    const match = /^--([^=]+)(=([\s\S]*))?$/.exec(arg);
    const name = match?.[1];
    if (match === null || name === undefined || !spec.values.includes(name)) {
      if (name !== undefined && match?.[2] !== undefined && spec.booleans.includes(name)) {
        return usage(`--${name} takes no value`);
      }
      rest.push(arg);
      continue;
    }
    const seen = values.get(name) ?? [];
    if (seen.length > 0 && !spec.repeatable.includes(name)) return usage(`--${name} is given more than once`);
    let value = match[3];
    if (value === undefined) {
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
  for (const name of spec.booleans) alias[name] ??= [];
  const parsed = mri(rest, {
    boolean: [...spec.booleans],
    alias,
    unknown: (flag) => {
      unknown = flag;
    },
  }) as mri.Argv | undefined;
  if (unknown !== undefined || parsed === undefined) return usage(unknownFlag(unknown ?? '?', [...spec.values, ...spec.booleans]));

  const booleans = new Set(spec.booleans.filter((name) => isOn(parsed[name])));
  return ok({ values, booleans, words: parsed._.map((word) => (word === STDIN_WORD ? '-' : String(word))) });
}

const STDIN_WORD = '\0-';

// mri collects a repeated boolean into an array; the last one given wins.
function isOn(value: unknown): boolean {
  return (Array.isArray(value) ? value[value.length - 1] : value) === true;
}

function unknownFlag(flag: string, known: readonly string[]): string {
  const name = flag.replace(/^-+/, '').replace(/=[\s\S]*$/, '');
  const hint = flag.startsWith('--') ? closest(name, known) : undefined;
  return `unknown flag ${shown(flag)}${hint === undefined ? '' : `; did you mean --${hint}?`}`;
}

// An argument as a message shows it: bare when it is plain printable text,
// else quoted, so that a newline or a control character cannot break the
// one-line error.
function shown(arg: string): string {
  return /^[\x21-\x7e]+$/.test(arg) ? arg : JSON.stringify(arg);
}
