import { ok, usage, type Result } from '../failure.ts';
import { isShell, SHELLS, type CommandName, type Shell } from './command-table.ts';
import { FLAGS, flagNamed, takes } from './flag-table.ts';
import { findCommand, helpFor, helpOperand } from './command-words.ts';
import { exitContract } from './exit-contract.ts';
import { tokenizeFlags, valueOf } from './flags.ts';
import { asksForHelp, withoutHelp } from './help-request.ts';
import { checkOptions, type CheckOptions } from './check-options.ts';
import { evalOptions } from './eval-options.ts';
import { gatesOptions, type GatesOptions } from './gates-options.ts';
import { validateOptions, type ValidateOptions } from './validate-options.ts';

// The command line → the action it asks for, with typed options: the flags
// tokenized by the command table, the command found, each command's
// options checked by its own module (check-options.ts, gates-options.ts, …).

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
interface ArgDefaults {
  readonly jsonErrors: boolean;
  readonly exitContract?: string | undefined;
}

export const defaultsFromEnv = (env: Readonly<Record<string, string | undefined>>): ArgDefaults => ({
  jsonErrors: env.GSD_JSON_ERRORS === '1',
  exitContract: env.GSD_EXIT_CONTRACT,
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
  const options = gatesOptions(flags, shared.value);
  return options.ok ? ok({ action: 'gates-run', options: options.value }) : options;
}

const unexpected = (stray: string): Result<never> => usage(`unexpected argument ${JSON.stringify(stray)}`);
