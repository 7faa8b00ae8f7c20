import mri from 'mri';
import { fail, ok, type Failure, type Result } from '../failure.ts';
import { closest } from '../text/closest.ts';

export const DEFAULT_KILL_AFTER = 3;

export interface CheckOptions {
  readonly predicate?: string;
  readonly predicateFile?: string;
  readonly phaseDir?: string;
  readonly phaseNumber?: string;
  readonly phaseReqIds?: string;
  readonly cwd?: string;
  readonly pick?: readonly string[];
  readonly killAfter: number;
  readonly raw: boolean;
  readonly exitCode: boolean;
  readonly jsonErrors: boolean;
}

export type Action =
  | { readonly action: 'help' }
  | { readonly action: 'version' }
  | { readonly action: 'check-predicate'; readonly options: CheckOptions };

const VALUE_FLAGS = ['predicate', 'predicate-file', 'phase-dir', 'phase-number', 'phase-req-ids', 'cwd', 'pick', 'kill-after'] as const;
const BOOLEAN_FLAGS = ['raw', 'exit-code', 'json-errors', 'help', 'version'] as const;
const ALL_FLAGS: readonly string[] = [...VALUE_FLAGS, ...BOOLEAN_FLAGS];
type ValueFlag = (typeof VALUE_FLAGS)[number];

const ENVELOPE_FIELDS = ['block', 'message', 'details'];
const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

// Checked before parsing, so that even a usage error can be reported as JSON.
export function wantsJsonErrors(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json-errors');
}

export function parseArgs(argv: readonly string[]): Result<Action> {
  // Value flags are taken out here rather than by mri: mri takes a following
  // "-x" as a missing value without saying so, reads `--flag=` as "take the
  // next argument", and cannot tell an empty value from a missing one.
  const values = new Map<ValueFlag, string>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    const match = /^--([^=]+)(=([\s\S]*))?$/.exec(arg);
    const name = match?.[1];
    if (match === null || name === undefined) {
      rest.push(arg);
      continue;
    }
    if ((BOOLEAN_FLAGS as readonly string[]).includes(name)) {
      if (match[2] !== undefined) return usage(`--${name} takes no value`);
      rest.push(arg);
      continue;
    }
    if (!(VALUE_FLAGS as readonly string[]).includes(name)) {
      rest.push(arg);
      continue;
    }
    const flag = name as ValueFlag;
    if (values.has(flag)) return usage(`--${flag} is given more than once`);
    let value = match[3];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined) return usage(`--${flag} needs a value`);
      // A lone "-" is a value (standard input), never a flag.
      if (next.startsWith('-') && next !== '-') {
        return usage(`--${flag} needs a value, got the flag ${next}; for a value that starts with "-", write --${flag}=${next}`);
      }
      value = next;
      i++;
    }
    values.set(flag, value);
  }

  let unknown: string | undefined;
  const parsed = mri(rest, {
    boolean: [...BOOLEAN_FLAGS],
    alias: { h: 'help', V: 'version', raw: [], 'exit-code': [], 'json-errors': [] },
    unknown: (flag) => {
      unknown = flag;
    },
  }) as mri.Argv | undefined;
  if (unknown !== undefined || parsed === undefined) return usage(unknownFlag(unknown ?? '?'));

  if (isOn(parsed.help)) return ok({ action: 'help' });
  if (isOn(parsed.version)) return ok({ action: 'version' });

  const words = parsed._.map(String);
  const [first, second] = words;
  let consumed: number;
  if (first === 'check.predicate') consumed = 1;
  else if (first === 'check' && second === 'predicate') consumed = 2;
  else if (first === undefined) return usage('missing command; try: gsd-check check predicate --predicate <json>');
  else if (first === 'check') return usage(second === undefined ? 'missing subcommand after "check"; try: check predicate' : `unknown subcommand "check ${second}"; try: check predicate`);
  else return usage(`unknown command "${first}"; try: gsd-check check predicate`);
  const stray = words[consumed];
  if (stray !== undefined) return usage(`unexpected argument "${stray}"`);

  const predicate = values.get('predicate');
  const predicateFile = values.get('predicate-file');
  if (predicate !== undefined && predicateFile !== undefined) {
    return usage('--predicate and --predicate-file cannot be used together');
  }
  if (predicate === undefined && predicateFile === undefined) return usage('--predicate or --predicate-file is required');
  if (predicateFile === '') return usage('--predicate-file needs a path (or - for standard input)');

  const pick = values.get('pick');
  const pickPath = pick?.split('.');
  if (pickPath !== undefined && (pickPath.some((part) => part === '') || !ENVELOPE_FIELDS.includes(pickPath[0]!))) {
    return usage(`--pick ${JSON.stringify(pick)} is not a field of the envelope; it starts with block, message or details`);
  }

  const killAfterText = values.get('kill-after');
  let killAfter = DEFAULT_KILL_AFTER;
  if (killAfterText !== undefined) {
    killAfter = Number(killAfterText);
    if (!NUMBER.test(killAfterText) || !Number.isFinite(killAfter)) {
      return usage(`--kill-after must be a finite number of seconds (0 or more), got ${JSON.stringify(killAfterText)}`);
    }
  }

  const cwd = values.get('cwd');
  if (cwd === '') return usage('--cwd needs a directory');

  return ok({
    action: 'check-predicate',
    options: {
      ...optional('predicate', predicate),
      ...optional('predicateFile', predicateFile),
      ...optional('phaseDir', values.get('phase-dir')),
      ...optional('phaseNumber', values.get('phase-number')),
      ...optional('phaseReqIds', values.get('phase-req-ids')),
      ...optional('cwd', cwd),
      ...optional('pick', pickPath),
      killAfter,
      raw: isOn(parsed.raw),
      exitCode: isOn(parsed['exit-code']),
      jsonErrors: isOn(parsed['json-errors']),
    },
  });
}

// mri collects a repeated boolean into an array; the last one given wins.
function isOn(value: unknown): boolean {
  return (Array.isArray(value) ? value[value.length - 1] : value) === true;
}

function unknownFlag(flag: string): string {
  const name = flag.replace(/^-+/, '').replace(/=[\s\S]*$/, '');
  const hint = flag.startsWith('--') ? closest(name, ALL_FLAGS) : undefined;
  return `unknown flag ${flag}${hint === undefined ? '' : `; did you mean --${hint}?`}`;
}

function usage(message: string): { ok: false; failure: Failure } {
  return fail('usage', `${message} (see gsd-check --help)`);
}

// exactOptionalPropertyTypes: leave a field out rather than set it to undefined.
function optional<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}
