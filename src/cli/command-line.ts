import { ok, usage, type Result } from '../failure.ts';
import { listed } from '../text/format.ts';
import { closest } from '../text/suggest.ts';
import { COMMAND_PREFIX, COMMANDS, isShell, SHELLS, type CommandName, type Shell } from './command-table.ts';
import { EXIT_CONTRACTS } from './flag.ts';
import { FLAGS, flagNamed, takes } from './flag-table.ts';
import { optional, stdinOnce, tokenizeFlags, valueOf, type Flags } from './flags.ts';
import { evalOptions, type EvalOptions } from './eval-options.ts';
import { gatesOptions, type GatesOptions } from './gates-options.ts';

// The command line → the action it asks for, with typed options: the flags
// tokenized by the command table, the command found, each command's
// options checked (gates run's, the largest, in gates-options.ts).

export type Action =
  | { readonly action: 'help'; readonly command?: CommandName }
  | { readonly action: 'version' }
  | { readonly action: 'completion'; readonly shell: Shell }
  | { readonly action: 'schema'; readonly name: string | undefined }
  | { readonly action: 'check-predicate'; readonly options: CheckOptions }
  | { readonly action: 'gates-run'; readonly options: GatesOptions }
  | { readonly action: 'validate'; readonly options: ValidateOptions };

// The tokenizer's view of the table: which flags take a value, which are switches.
const SPEC = {
  values: FLAGS.filter((flag) => flag.hint !== undefined).map((flag) => flag.name),
  booleans: FLAGS.filter((flag) => flag.hint === undefined).map((flag) => flag.name),
  repeatable: FLAGS.filter((flag) => flag.repeatable === true).map((flag) => flag.name),
  trimsJoined: FLAGS.filter((flag) => flag.trimsJoined === true).map((flag) => flag.name),
  aliases: Object.fromEntries(FLAGS.flatMap((flag) => (flag.short === undefined ? [] : [[flag.short, flag.name]]))),
};

// What the environment sets before any flag: GSD_JSON_ERRORS=1 is
// gsd-tools' own switch for --json-errors, GSD_EXIT_CONTRACT its
// --exit-contract, honoured the same way.
// GSD_CHECK_REQUIRE_TESTED_GSD=1 is gsd-check's own, for --require-tested-gsd.
interface ArgDefaults {
  readonly jsonErrors: boolean;
  readonly exitContract?: string | undefined;
  readonly requireTestedGsd?: boolean;
}

export const defaultsFromEnv = (env: Readonly<Record<string, string | undefined>>): ArgDefaults => ({
  jsonErrors: env.GSD_JSON_ERRORS === '1',
  exitContract: env.GSD_EXIT_CONTRACT,
  requireTestedGsd: env.GSD_CHECK_REQUIRE_TESTED_GSD === '1',
});

// Checked before parsing, so that even a usage error can be reported as JSON.
export function wantsJsonErrors(argv: readonly string[], defaults: ArgDefaults = { jsonErrors: false }): boolean {
  const end = argv.indexOf('--');
  return defaults.jsonErrors || (end === -1 ? argv : argv.slice(0, end)).includes('--json-errors');
}

export function parseCommandLine(argv: readonly string[], defaults: ArgDefaults = { jsonErrors: false }): Result<Action> {
  if (asksForHelp(argv)) {
    const rest = tokenizeFlags(withoutHelp(argv), SPEC);
    return ok({ action: 'help', ...helpFor(rest.ok ? rest.value.words : []) });
  }
  const parsed = tokenizeFlags(argv, SPEC);
  if (!parsed.ok) return parsed;
  const flags = parsed.value;
  if (flags.booleans.has('help')) return ok({ action: 'help', ...helpFor(flags.words) });
  if (flags.booleans.has('version')) return ok({ action: 'version' });

  const found = findCommand(flags.words);
  if (!found.ok) return found;
  const { command, operands } = found.value;
  for (const name of [...flags.values.keys(), ...flags.booleans]) {
    if (!takes(flagNamed(name)!, command)) return usage(`--${name} is not a flag of "${command}"`);
  }
  if (command === 'help') {
    const help = helpOperand(operands);
    return help.ok ? ok({ action: 'help', ...help.value }) : help;
  }
  if (command === 'completion') {
    const [shell, stray] = operands;
    if (shell === undefined) return usage(`completion needs a shell; one of: ${SHELLS.join(', ')}`);
    if (!isShell(shell)) return usage(`completion for ${JSON.stringify(shell)} is not available; one of: ${SHELLS.join(', ')}`);
    if (stray !== undefined) return unexpected(stray);
    return ok({ action: 'completion', shell });
  }
  if (command === 'schema') {
    const [name, stray] = operands;
    return stray === undefined ? ok({ action: 'schema', name }) : unexpected(stray);
  }
  const contract = exitContract(valueOf(flags, 'exit-contract'), defaults.exitContract);
  if (!contract.ok) return contract;
  const jsonErrors = defaults.jsonErrors || flags.booleans.has('json-errors');
  if (command === 'validate') {
    const options = validateOptions(flags, operands, jsonErrors);
    return options.ok ? ok({ action: 'validate', options: options.value }) : options;
  }
  const stray = operands[0];
  if (stray !== undefined) return unexpected(stray);
  const shared = evalOptions(flags, jsonErrors);
  if (!shared.ok) return shared;
  if (command === 'check predicate') {
    const options = checkOptions(flags, shared.value);
    return options.ok ? ok({ action: 'check-predicate', options: options.value }) : options;
  }
  const options = gatesOptions(flags, shared.value, defaults.requireTestedGsd === true);
  return options.ok ? ok({ action: 'gates-run', options: options.value }) : options;
}

const unexpected = (stray: string): Result<never> => usage(`unexpected argument ${JSON.stringify(stray)}`);

// check predicate's options: the predicate from exactly one place.
export interface CheckOptions extends EvalOptions {
  readonly predicate?: string;
  readonly predicateFile?: string;
}

function checkOptions(flags: Flags, shared: EvalOptions): Result<CheckOptions> {
  const predicate = valueOf(flags, 'predicate');
  const predicateFile = valueOf(flags, 'predicate-file');
  if (predicate !== undefined && predicateFile !== undefined) {
    return usage('--predicate and --predicate-file cannot be used together');
  }
  if (predicate === undefined && predicateFile === undefined) return usage('--predicate or --predicate-file is required');
  if (predicateFile === '') return usage('--predicate-file needs a path (or - for standard input)');
  return ok({ ...optional('predicate', predicate), ...optional('predicateFile', predicateFile), ...shared });
}

// validate's options: the capability files, and how to print what it finds.
export interface ValidateOptions {
  readonly files: readonly string[];
  readonly json: boolean;
  readonly jsonErrors: boolean;
}

function validateOptions(flags: Flags, operands: readonly string[], jsonErrors: boolean): Result<ValidateOptions> {
  if (operands.length === 0) return usage('validate needs at least one capability file');
  const once = stdinOnce('validate', operands);
  if (!once.ok) return once;
  return ok({ files: operands, json: flags.booleans.has('json'), jsonErrors });
}

// GSD 1.14's exit-code contract (`--exit-contract=v1|v2`, GSD_EXIT_CONTRACT;
// the flag first, an empty variable as unset, v1 by default). The versions
// differ only in a DEGRADED outcome, an answer that carries an `error`
// field, which exits 0 under v1 and 80 under v2. No envelope of check
// predicate or gates run carries one, in GSD or here, so both versions exit
// alike; what the contract changes is which values are refused.
function exitContract(flag: string | undefined, variable: string | undefined): Result<(typeof EXIT_CONTRACTS)[number]> {
  const fromEnv = variable === '' ? undefined : variable;
  const [given, source] = flag !== undefined ? [flag, '--exit-contract'] : [fromEnv, 'GSD_EXIT_CONTRACT'];
  if (given === undefined) return ok('v1');
  const known = EXIT_CONTRACTS.find((contract) => contract === given);
  if (known !== undefined) return ok(known);
  return usage(`${source} ${JSON.stringify(given)} is not an exit contract; ${EXIT_CONTRACTS.join(' or ')}`);
}

// A request for help as GSD's router reads one: any of its help spellings
// as a whole argument, wherever it stands, even where a flag's value was
// expected (`--phase-number -h`). Only `--` ends the search: after it every
// argument is a word (`validate -- -h` validates a file named -h).
const HELP = flagNamed('help')!;
const HELP_SPELLINGS: readonly string[] = [`-${HELP.short!}`, `--${HELP.name}`, ...(HELP.spellings ?? [])];
const TAKES_VALUE = new Set(FLAGS.filter((flag) => flag.hint !== undefined).map((flag) => `--${flag.name}`));

const beforeEnd = (argv: readonly string[]): readonly string[] => {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
};

const asksForHelp = (argv: readonly string[]): boolean => beforeEnd(argv).some((arg) => HELP_SPELLINGS.includes(arg));

// The line without its help spellings, for finding the command whose help
// it is: a value flag that a spelling stood in for the value of goes too,
// so that `gates run --point -h` is still `gates run`.
function withoutHelp(argv: readonly string[]): string[] {
  const searched = beforeEnd(argv);
  const rest: string[] = [];
  for (const arg of searched) {
    if (!HELP_SPELLINGS.includes(arg)) rest.push(arg);
    else if (TAKES_VALUE.has(rest.at(-1) ?? '')) rest.pop();
  }
  return [...rest, ...argv.slice(searched.length)];
}

// Which command the words of a command line name, help's among them.

// The commands --help shows, as a usage error offers them: "a, b or c".
const LISTED = listed(COMMANDS.filter((command) => command.summary !== undefined).map((command) => command.name));

// The command the leading words name (`check predicate`, or one of its
// aliases such as `check.predicate`, after GSD's `query` if given), and the
// words after it.
export function findCommand(line: readonly string[]): Result<{ command: CommandName; operands: readonly string[] }> {
  const words = line[0] === COMMAND_PREFIX ? line.slice(1) : line;
  for (const command of COMMANDS) {
    for (const spelling of [command.name, ...command.aliases]) {
      const parts = spelling.split(' ');
      if (parts.every((part, i) => words[i] === part)) return ok({ command: command.name, operands: words.slice(parts.length) });
    }
  }
  const [first, second] = words;
  if (first === undefined) return usage('missing command; try: gsd-check check predicate --predicate <json>');
  const under = COMMANDS.filter((command) => command.name.startsWith(`${first} `)).map((command) => command.name);
  if (under.length > 0) {
    const tried = `try: ${under.join(', ')}`;
    return usage(
      second === undefined
        ? `missing subcommand after ${JSON.stringify(first)}; ${tried}`
        : `unknown subcommand ${JSON.stringify(`${first} ${second}`)}; ${tried}`,
    );
  }
  return usage(`unknown command ${JSON.stringify(first)}; ${meant(first) ?? `try: gsd-check ${LISTED}`}`);
}

// A typo of a command's first word (`chek`, `gate`): the commands it begins.
function meant(word: string): string | undefined {
  const firsts = [...new Set(COMMANDS.map((command) => command.name.split(' ')[0]!))];
  const near = closest(word, firsts);
  if (near === undefined) return undefined;
  return `did you mean ${listed(COMMANDS.filter((command) => command.name.split(' ')[0] === near).map((command) => `gsd-check ${command.name}`))}?`;
}

// `gsd-check gates run --help` is that command's help.
function helpFor(words: readonly string[]): { readonly command?: CommandName } {
  const named = findCommand(words);
  return named.ok && named.value.command !== 'help' ? { command: named.value.command } : {};
}

// `help`, or `help <command>`: the command as written, or the first word of
// the only command it begins (`help gates`).
function helpOperand(operands: readonly string[]): Result<{ readonly command?: CommandName }> {
  if (operands.length === 0) return ok({});
  const found = findCommand(operands);
  if (found.ok && found.value.operands.length === 0) return ok({ command: found.value.command });
  const begun = COMMANDS.filter((command) => command.name.split(' ')[0] === operands[0]);
  if (operands.length === 1 && begun.length === 1) return ok({ command: begun[0]!.name });
  return usage(`help: no command ${JSON.stringify(operands.join(' '))}; one of: ${COMMANDS.map((command) => command.name).join(', ')}`);
}
