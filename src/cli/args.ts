import { isAbsolute, resolve } from 'node:path';
import { fail, ok, usage, type Result } from '../failure.ts';
import { isLoopPoint, LOOP_POINTS, type LoopPoint } from '../gates/activation.ts';
import { closest } from '../text/suggest.ts';
import { COMMAND_PREFIX, COMMANDS, EXIT_CONTRACTS, FLAGS, flagNamed, isShell, REPORT_KINDS, SHELLS, takes, type CommandName, type Shell } from './command-table.ts';
import { asksForHelp, withoutHelp } from './help-request.ts';
import { parsePickPath, type PickPath } from './pick-path.ts';
import { phaseNumberProblem } from '../project/phase.ts';

// The command line → an action with typed options: flags parsed by the
// command table, values checked, file arguments resolved by one rule.

const DEFAULT_KILL_AFTER = flagNamed('kill-after')!.default!;

// What every evaluating command shares: the gate context and the output.
export interface EvalOptions {
  readonly phaseDir?: string;
  readonly phaseNumber?: string;
  // Read the phase number from .planning/STATE.md (project/current-phase.ts).
  readonly currentPhase: boolean;
  readonly phaseReqIds?: string;
  readonly cwd?: string;
  // The project root itself, with no search (GSD's --project-dir).
  readonly projectDir?: string;
  readonly ws?: string;
  readonly pick?: PickPath;
  readonly killAfter: number;
  readonly raw: boolean;
  readonly exitCode: boolean;
  readonly jsonErrors: boolean;
}

export interface CheckOptions extends EvalOptions {
  readonly predicate?: string;
  readonly predicateFile?: string;
}

export interface GatesOptions extends EvalOptions {
  // The points to run, in order, each once.
  readonly points: readonly [LoopPoint, ...LoopPoint[]];
  // One --point prints that point's envelope, as it always has; several, or
  // --all-points, print the run's envelope, which holds each point's.
  readonly envelope: 'point' | 'run';
  // Where the gates come from: capability files and GSD's own (--builtin), or
  // GSD's rendered hooks (a file, or - for standard input), never both.
  readonly capabilities: readonly string[];
  // GSD 1.14's own gates (builtinCapabilities in gates/sources.ts), before any --capability.
  readonly builtin: boolean;
  readonly hooks?: string;
  readonly config?: string;
  readonly concurrency?: number;
  readonly queryCommand?: string;
  readonly queryTimeout: number;
  readonly reports: readonly ReportTarget[];
}

const DEFAULT_QUERY_TIMEOUT = flagNamed('query-timeout')!.default!;

export interface ValidateOptions {
  readonly files: readonly string[];
  readonly json: boolean;
  readonly jsonErrors: boolean;
}

export type Action =
  | { readonly action: 'help'; readonly command?: CommandName }
  | { readonly action: 'version' }
  | { readonly action: 'completion'; readonly shell: Shell }
  | { readonly action: 'schema'; readonly name: string | undefined }
  | { readonly action: 'check-predicate'; readonly options: CheckOptions }
  | { readonly action: 'gates-run'; readonly options: GatesOptions }
  | { readonly action: 'validate'; readonly options: ValidateOptions };

// The parser's view of the table: which flags take a value, which are switches.
const SPEC = {
  values: FLAGS.filter((flag) => flag.hint !== undefined).map((flag) => flag.name),
  booleans: FLAGS.filter((flag) => flag.hint === undefined).map((flag) => flag.name),
  repeatable: FLAGS.filter((flag) => flag.repeatable === true).map((flag) => flag.name),
  trimsJoined: FLAGS.filter((flag) => flag.trimsJoined === true).map((flag) => flag.name),
  aliases: Object.fromEntries(FLAGS.flatMap((flag) => (flag.short === undefined ? [] : [[flag.short, flag.name]]))),
};

// A phase number looks like what GSD makes of one (project/phase.ts).
// Requirement ids are whatever text the roadmap holds, which GSD's plan-phase
// passes on verbatim (`REQ-01 (partial), AUTH/01`, `n/a`): one line of
// bounded length.
const MAX_REQUIREMENT_TEXT = 4096;
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

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

export function parseArgs(argv: readonly string[], defaults: ArgDefaults = { jsonErrors: false }): Result<Action> {
  if (asksForHelp(argv)) {
    const rest = parseFlags(withoutHelp(argv), SPEC);
    return helpFor(rest.ok ? rest.value.words : []);
  }
  const parsed = parseFlags(argv, SPEC);
  if (!parsed.ok) return parsed;
  const flags = parsed.value;
  if (flags.booleans.has('help')) return helpFor(flags.words);
  if (flags.booleans.has('version')) return ok({ action: 'version' });

  const found = findCommand(flags.words);
  if (!found.ok) return found;
  const { command, operands } = found.value;
  for (const name of [...flags.values.keys(), ...flags.booleans]) {
    if (!takes(flagNamed(name)!, command)) return usage(`--${name} is not a flag of "${command}"`);
  }

  if (command === 'help') return helpAction(operands);
  if (command === 'completion') {
    const [shell, stray] = operands;
    if (shell === undefined) return usage(`completion needs a shell; one of: ${SHELLS.join(', ')}`);
    if (!isShell(shell)) return usage(`completion for ${JSON.stringify(shell)} is not available; one of: ${SHELLS.join(', ')}`);
    if (stray !== undefined) return usage(`unexpected argument ${JSON.stringify(stray)}`);
    return ok({ action: 'completion', shell });
  }
  if (command === 'schema') {
    const [name, stray] = operands;
    if (stray !== undefined) return usage(`unexpected argument ${JSON.stringify(stray)}`);
    return ok({ action: 'schema', name });
  }
  const contract = exitContract(one(flags, 'exit-contract'), defaults.exitContract);
  if (!contract.ok) return contract;
  if (command === 'validate') {
    if (operands.length === 0) return usage('validate needs at least one capability file');
    const once = stdinOnce('validate', operands);
    if (!once.ok) return once;
    return ok({
      action: 'validate',
      options: { files: operands, json: flags.booleans.has('json'), jsonErrors: defaults.jsonErrors || flags.booleans.has('json-errors') },
    });
  }
  const stray = operands[0];
  if (stray !== undefined) return usage(`unexpected argument ${JSON.stringify(stray)}`);
  const shared = evalOptions(flags, defaults);
  if (!shared.ok) return shared;
  return command === 'check predicate' ? checkAction(flags, shared.value) : gatesAction(flags, shared.value);
}

// `gsd-check gates run --help` is that command's help.
function helpFor(words: readonly string[]): Result<Action> {
  const named = findCommand(words);
  return ok(named.ok && named.value.command !== 'help' ? { action: 'help', command: named.value.command } : { action: 'help' });
}

// `help`, or `help <command>`: the command as written, or the first word of
// the only command it begins (`help gates`).
function helpAction(operands: readonly string[]): Result<Action> {
  if (operands.length === 0) return ok({ action: 'help' });
  const found = findCommand(operands);
  if (found.ok && found.value.operands.length === 0) return ok({ action: 'help', command: found.value.command });
  const begun = COMMANDS.filter((command) => command.name.split(' ')[0] === operands[0]);
  if (operands.length === 1 && begun.length === 1) return ok({ action: 'help', command: begun[0]!.name });
  return usage(`help: no command ${JSON.stringify(operands.join(' '))}; one of: ${COMMANDS.map((command) => command.name).join(', ')}`);
}

// The commands --help shows, as a usage error offers them: "a, b or c".
const LISTED = COMMANDS.filter((command) => command.summary !== undefined)
  .map((command) => command.name)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

// The command the leading words name (`check predicate`, or one of its
// aliases such as `check.predicate`, after GSD's `query` if given), and the
// words after it.
function findCommand(line: readonly string[]): Result<{ command: CommandName; operands: readonly string[] }> {
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
    return usage(second === undefined ? `missing subcommand after ${JSON.stringify(first)}; ${tried}` : `unknown subcommand ${JSON.stringify(`${first} ${second}`)}; ${tried}`);
  }
  return usage(`unknown command ${JSON.stringify(first)}; try: gsd-check ${LISTED}`);
}

const one = (flags: Flags, name: string): string | undefined => flags.values.get(name)?.[0];

function evalOptions(flags: Flags, defaults: ArgDefaults): Result<EvalOptions> {
  const pickText = one(flags, 'pick');
  const pick = pickText === undefined ? undefined : parsePickPath(pickText);
  if (pick !== undefined && !pick.ok) return pick;
  const killAfterText = one(flags, 'kill-after');
  let killAfter = DEFAULT_KILL_AFTER;
  if (killAfterText !== undefined) {
    killAfter = Number(killAfterText);
    if (!NUMBER.test(killAfterText) || !Number.isFinite(killAfter)) {
      return usage(`--kill-after must be a finite number of seconds (0 or more), got ${JSON.stringify(killAfterText)}`);
    }
  }
  const cwd = one(flags, 'cwd');
  if (cwd === '') return usage('--cwd needs a directory');
  const phaseNumber = one(flags, 'phase-number');
  const phaseProblem = phaseNumber === undefined || phaseNumber === '' ? undefined : phaseNumberProblem(phaseNumber);
  if (phaseProblem !== undefined) return usage(`--phase-number ${JSON.stringify(phaseNumber)} ${phaseProblem}`);
  const currentPhase = flags.booleans.has('current-phase');
  if (currentPhase && phaseNumber !== undefined) return usage('--current-phase and --phase-number cannot be used together: --current-phase reads the phase number from .planning/STATE.md');
  const phaseReqIds = one(flags, 'phase-req-ids');
  if (phaseReqIds !== undefined && CONTROL.test(phaseReqIds)) {
    return usage(`--phase-req-ids ${JSON.stringify(phaseReqIds)} holds a control character; requirement ids are one line of text`);
  }
  if (phaseReqIds !== undefined && phaseReqIds.length > MAX_REQUIREMENT_TEXT) {
    return usage(`--phase-req-ids is ${phaseReqIds.length} characters long; at most ${MAX_REQUIREMENT_TEXT}`);
  }
  const projectDir = one(flags, 'project-dir');
  if (projectDir !== undefined && projectDir.trim() === '') return usage('--project-dir needs a directory');
  return ok({
    ...optional('phaseDir', one(flags, 'phase-dir')),
    ...optional('phaseNumber', phaseNumber),
    currentPhase,
    ...optional('phaseReqIds', phaseReqIds),
    ...optional('cwd', cwd),
    ...optional('projectDir', projectDir),
    ...optional('ws', one(flags, 'ws')),
    ...optional('pick', pick?.value),
    killAfter,
    raw: flags.booleans.has('raw'),
    exitCode: flags.booleans.has('exit-code'),
    jsonErrors: defaults.jsonErrors || flags.booleans.has('json-errors'),
  });
}

function checkAction(flags: Flags, shared: EvalOptions): Result<Action> {
  const predicate = one(flags, 'predicate');
  const predicateFile = one(flags, 'predicate-file');
  if (predicate !== undefined && predicateFile !== undefined) {
    return usage('--predicate and --predicate-file cannot be used together');
  }
  if (predicate === undefined && predicateFile === undefined) return usage('--predicate or --predicate-file is required');
  if (predicateFile === '') return usage('--predicate-file needs a path (or - for standard input)');
  return ok({
    action: 'check-predicate',
    options: { ...optional('predicate', predicate), ...optional('predicateFile', predicateFile), ...shared },
  });
}

function gatesAction(flags: Flags, shared: EvalOptions): Result<Action> {
  const points = loopPoints(flags.values.get('point') ?? [], flags.booleans.has('all-points'));
  if (!points.ok) return points;
  const capabilities = flags.values.get('capability') ?? [];
  const hooks = one(flags, 'hooks');
  const builtin = flags.booleans.has('builtin');
  if (hooks !== undefined && (capabilities.length > 0 || builtin)) {
    return usage(`--hooks and ${builtin ? '--builtin' : '--capability'} cannot be used together: rendered hooks are already resolved by GSD`);
  }
  if (hooks === '') return usage('--hooks needs a file (or - for standard input)');
  if (hooks === undefined && capabilities.length === 0 && !builtin) {
    return usage('--builtin (GSD 1.14\'s own gates), --capability (once per capability file) or --hooks (the output of gsd_run loop render-hooks) is required');
  }
  if (capabilities.includes('')) return usage('--capability needs a file');
  const queryCommand = one(flags, 'query-command');
  if (queryCommand !== undefined && queryCommand.trim() === '') return usage('--query-command needs a shell command');
  const queryTimeoutText = one(flags, 'query-timeout');
  const queryTimeout = queryTimeoutText === undefined ? DEFAULT_QUERY_TIMEOUT : Number(queryTimeoutText);
  if (queryTimeoutText !== undefined && (!NUMBER.test(queryTimeoutText) || !Number.isFinite(queryTimeout) || queryTimeout <= 0)) {
    return usage(`--query-timeout must be a positive finite number of seconds, got ${JSON.stringify(queryTimeoutText)}`);
  }
  const config = one(flags, 'config');
  if (config === '') return usage('--config needs a file');
  const concurrencyText = one(flags, 'concurrency');
  const concurrency = concurrencyText === undefined ? undefined : Number(concurrencyText);
  if (concurrency !== undefined && (!/^\d+$/.test(concurrencyText!) || concurrency < 1)) {
    return usage(`--concurrency must be a whole number of 1 or more, got ${JSON.stringify(concurrencyText)}`);
  }
  const once = stdinOnce('gates run', [...(hooks === undefined ? [] : [hooks]), ...capabilities, ...(config === undefined ? [] : [config])]);
  if (!once.ok) return once;
  const reports = reportTargets(flags.values.get('report') ?? []);
  if (!reports.ok) return reports;
  return ok({
    action: 'gates-run',
    options: {
      ...points.value,
      capabilities,
      builtin,
      ...optional('hooks', hooks),
      ...optional('config', config),
      ...optional('concurrency', concurrency),
      ...optional('queryCommand', queryCommand),
      queryTimeout,
      reports: reports.value,
      ...shared,
    },
  });
}

// --point, once or more, or --all-points: GSD's loop order.
function loopPoints(given: readonly string[], all: boolean): Result<Pick<GatesOptions, 'points' | 'envelope'>> {
  if (all) {
    if (given.length > 0) return usage('--point and --all-points cannot be used together: --all-points runs every point');
    return ok({ points: LOOP_POINTS as GatesOptions['points'], envelope: 'run' });
  }
  const [first, ...rest] = given;
  if (first === undefined) return usage('--point (once per loop point) or --all-points is required');
  const points: LoopPoint[] = [];
  for (const point of given) {
    if (!isLoopPoint(point)) return usage(`--point ${JSON.stringify(point)} is not a loop point; one of: ${LOOP_POINTS.join(', ')}`);
    if (points.includes(point)) return usage(`--point ${point} is given more than once`);
    points.push(point);
  }
  return ok({ points: points as unknown as GatesOptions['points'], envelope: rest.length === 0 ? 'point' : 'run' });
}

// Standard input can be read once: "-" may name at most one of a command's files.
function stdinOnce(command: CommandName, files: readonly string[]): Result<void> {
  return files.filter((file) => file === '-').length > 1 ? usage(`${command} reads standard input (-) once; give - at most once`) : ok(undefined);
}

// exactOptionalPropertyTypes: leave a field out rather than set it to undefined.
function optional<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

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

interface Flags {
  readonly values: ReadonlyMap<string, readonly string[]>;
  readonly booleans: ReadonlySet<string>;
  readonly words: readonly string[];
}

// Splits argv into flag values, switches and the remaining words, strictly:
// a value never starts with "-" unless joined with "=" (`--phase-dir --raw`
// is a missing value, not a directory named --raw), an empty value is one
// (`--phase-req-ids=`), a switch takes no value (in `--exit-code false`,
// false is a word), a lone "-" is a word (standard input), and no flag has a
// negated form (`--no-exit-code` is unknown, so it cannot undo --exit-code).
// No library: mri needed each of these undone, and node:util's parseArgs
// costs more start-up than the loop (see the commit that made this file).
export function parseFlags(argv: readonly string[], spec: FlagSpec): Result<Flags> {
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
      if (flag.startsWith('-no-')) return usage(unknownFlag(flag, known));
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
  const hints = likelyFlags(name, known);
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

// The one rule for every file named on the command line (--predicate-file,
// --capability, --config, --hooks, --report junit=, validate's files):
// relative to --cwd when given, else to the current directory, as `git -C`
// and `make -C` do. "-" is standard input. Only a relative path needs the
// current directory, which may have been deleted under us.
export function argumentPath(file: string, cwdFlag: string | undefined, current: () => string): Result<string> {
  if (file === '-' || isAbsolute(file)) return ok(file);
  const base = cwdFlag ?? '.';
  if (isAbsolute(base)) return ok(resolve(base, file));
  try {
    return ok(resolve(current(), base, file));
  } catch {
    return fail('bad-cwd', `the current directory no longer exists; give ${file} as an absolute path`);
  }
}

// Where gates run also reports the point's gates: a JUnit XML file, or
// GitHub Actions' annotations and job summary.
type ReportTarget = { readonly format: 'junit'; readonly file: string } | { readonly format: 'github' };


// The --report values, each format at most once.
export function reportTargets(values: readonly string[]): Result<ReportTarget[]> {
  const targets: ReportTarget[] = [];
  for (const value of values) {
    const [format, ...rest] = value.split('=');
    let target: ReportTarget;
    if (format === 'junit') {
      const file = rest.join('=');
      if (rest.length === 0 || file === '') return usage('--report junit needs a file: --report junit=<file>');
      target = { format: 'junit', file };
    } else if (format === 'github' && rest.length === 0) {
      target = { format: 'github' };
    } else {
      return usage(`--report ${JSON.stringify(value)} is not a report; one of: ${REPORT_KINDS.join(', ')}`);
    }
    if (targets.some((t) => t.format === target.format)) return usage(`--report ${target.format} is given more than once`);
    targets.push(target);
  }
  return ok(targets);
}

// GSD 1.14's exit-code contract (`--exit-contract=v1|v2`, GSD_EXIT_CONTRACT;
// the flag first, an empty variable as unset, v1 by default). The versions
// differ only in a DEGRADED outcome, an answer that carries an `error`
// field, which exits 0 under v1 and 80 under v2. No envelope of check
// predicate or gates run carries one, in GSD or here, so both versions exit
// alike; what the contract changes is which values are refused.
type ExitContract = (typeof EXIT_CONTRACTS)[number];

export function exitContract(flag: string | undefined, variable: string | undefined): Result<ExitContract> {
  const fromEnv = variable === '' ? undefined : variable;
  const [given, source] = flag !== undefined ? [flag, '--exit-contract'] : [fromEnv, 'GSD_EXIT_CONTRACT'];
  if (given === undefined) return ok('v1');
  const known = EXIT_CONTRACTS.find((contract) => contract === given);
  if (known !== undefined) return ok(known);
  return usage(`${source} ${JSON.stringify(given)} is not an exit contract; ${EXIT_CONTRACTS.join(' or ')}`);
}

