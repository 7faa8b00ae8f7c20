import { ok, usage, type Result } from '../failure.ts';
import { KINDS } from '../kinds/table.ts';
import { COMMANDS, commandNamed, type CommandName, type Shell } from './command-table.ts';
import type { Flag, FlagGroup } from './flag.ts';
import { FLAGS, takes } from './flag-table.ts';

// What gsd-check prints about itself: --help, shell completion, and the
// JSON Schemas of what users write.

const COLUMN = 29;
const GROUPS: Readonly<Record<Exclude<FlagGroup, 'own' | 'global'>, string>> = { context: 'Gate context', output: 'Output' };

const flagLabel = (flag: Flag): string =>
  `${flag.short === undefined ? '' : `-${flag.short}, `}--${flag.name}${flag.hint === undefined ? '' : ` ${flag.hint}`}`;

function flagLines(flag: Flag): string[] {
  const [first = '', ...rest] = flag.help;
  return [`  ${flagLabel(flag).padEnd(COLUMN - 3)} ${first}`, ...rest.map((line) => `${' '.repeat(COLUMN)}${line}`)];
}

// A shared group's heading names the commands that every one of its flags takes.
function groupHeading(group: keyof typeof GROUPS, flags: readonly Flag[]): string {
  const commands = COMMANDS.filter((command) => flags.every((flag) => flag.commands === 'any' || flag.commands.includes(command.name)));
  return `${GROUPS[group]} (${commands.map((command) => command.name).join(', ')}):`;
}

export function helpText(): string {
  const listed = COMMANDS.filter((command) => command.summary !== undefined);
  const parts = [['Usage:', ...listed.map((command) => `  gsd-check ${command.usage}`), '  gsd-check help <command>'].join('\n')];
  for (const command of listed) {
    const [first, ...rest] = command.summary!;
    const own = FLAGS.filter((flag) => flag.group === 'own' && flag.commands !== 'any' && flag.commands[0] === command.name);
    parts.push([`${command.name}: ${first}`, ...rest, ...own.flatMap(flagLines)].join('\n'));
  }
  for (const group of Object.keys(GROUPS) as (keyof typeof GROUPS)[]) {
    const flags = FLAGS.filter((flag) => flag.group === group);
    parts.push([groupHeading(group, flags), ...flags.flatMap(flagLines)].join('\n'));
  }
  parts.push(
    FLAGS.filter((flag) => flag.group === 'global')
      .flatMap(flagLines)
      .join('\n'),
  );
  parts.push(kindLines().join('\n'));
  parts.push(['Examples:', ...listed.flatMap((command) => command.examples.slice(0, 2).flatMap(exampleLines))].join('\n'));
  parts.push(ENVIRONMENT);
  return `${parts.join('\n\n')}\n\n${FOOTER}`;
}

// `gsd-check help <command>` and `gsd-check <command> --help`: that command's
// usage, its flags (its own, then the shared ones it takes), its examples and
// where its docs are.
export function commandHelp(name: CommandName): string {
  const command = commandNamed(name);
  const parts = [`Usage: gsd-check ${command.usage}`];
  if (command.summary !== undefined) parts.push(command.summary.join('\n'));
  const own = FLAGS.filter((flag) => flag.group === 'own' && takes(flag, name));
  if (own.length > 0) parts.push(['Flags:', ...own.flatMap(flagLines)].join('\n'));
  for (const group of Object.keys(GROUPS) as (keyof typeof GROUPS)[]) {
    const flags = FLAGS.filter((flag) => flag.group === group && takes(flag, name));
    if (flags.length > 0) parts.push([`${GROUPS[group]}:`, ...flags.flatMap(flagLines)].join('\n'));
  }
  parts.push(['Examples:', ...command.examples.flatMap(exampleLines)].join('\n'));
  return `${parts.join('\n\n')}\n\nMore: ${command.docs}, in gsd-check's repository or npm package.\n`;
}

function exampleLines(example: { readonly what: string; readonly command: string }): string[] {
  return [`  # ${example.what}`, ...example.command.split('\n').map((line) => `  ${line}`)];
}

function kindLines(): string[] {
  const lines = ['Kinds (the predicate\'s "kind"):'];
  for (const [name, { summary }] of KINDS) {
    const indented = summary.map((line) => `${' '.repeat(COLUMN)}${line}`);
    // A name too long for its column gets a line of its own.
    if (name.length > COLUMN - 4) lines.push(`  ${name}`, ...indented);
    else lines.push(`  ${name.padEnd(COLUMN - 3)} ${summary[0] ?? ''}`, ...indented.slice(1));
  }
  return lines;
}

const ENVIRONMENT = `Environment:
  GSD_JSON_ERRORS=1          as --json-errors
  GSD_CHECK_QUERY_COMMAND    answers query gates when --query-command is not given
  GSD_WORKSTREAM, GSD_PROJECT
                             where --phase-number looks for the phase directory
  NODE_DISABLE_COMPILE_CACHE, CI
                             run without the code cache (in $XDG_CACHE_HOME or
                             ~/.cache, under gsd-check/)
  Commands run with PHASE_DIR, PHASE_NUMBER and PHASE_REQ_IDS set from the flags
  (PHASE_DIR only from --phase-dir).`;

const FOOTER = `A flag's value may follow it (--phase-dir 03) or be joined with = (--phase-dir=03);
a value that starts with "-" must use the = form.

Exit status: 0 envelope written (validate: all valid); 1 envelope blocks (with
--exit-code; validate: an issue); 2 the check itself failed (nothing on stdout,
the reason on stderr); 74 the output could not be written; 128+N stopped by
signal N, after ending the commands.

Version: --version prints one line, gsd-check <version> (source <id>). The id
is a hash of the files gsd-check is built from, not a git commit: node
build-id.mjs in the source archive or a checkout prints it. A build between
releases prints a pre-release after the last release, and names it:
gsd-check <its next patch>-dev (source <id>; unreleased, after <release>).

More: gsd-check help <command>. The docs (a tutorial, how-tos, every flag, kind
and message) are README.md and docs/ in gsd-check's repository or npm package;
every flag: docs/reference/cli.md.
`;

// Shell completion, written from the command table: a new flag completes
// without touching this file.
const quoted = (words: readonly string[]): string => `'${words.join(' ')}'`;

export function completionScript(_shell: Shell): string {
  const spellings = COMMANDS.flatMap((command) => [command.name, ...command.aliases]);
  const firstWords = [...new Set(spellings.map((spelling) => spelling.split(' ')[0]!))];
  const commandCases = COMMANDS.flatMap((command) =>
    [command.name, ...command.aliases].map((spelling) => {
      const flags = FLAGS.filter((flag) => takes(flag, command.name)).map((flag) => `--${flag.name}`);
      return `    ${JSON.stringify(spelling)} | ${JSON.stringify(spelling)}' '*) flags=${quoted(flags)} ;;`;
    }),
  );
  const subcommandCases = firstWords
    .map((first) => [first, spellings.filter((s) => s.startsWith(`${first} `)).map((s) => s.slice(first.length + 1))] as const)
    .filter(([, rest]) => rest.length > 0)
    .map(([first, rest]) => `    ${first}) COMPREPLY=($(compgen -W ${quoted(rest)} -- "$cur")); return ;;`);
  const valueCases = FLAGS.filter((flag) => flag.hint !== undefined).map((flag) => {
    const complete = flag.complete;
    const action =
      complete === 'file'
        ? 'compgen -f -- "$cur"'
        : complete === 'directory'
          ? 'compgen -d -- "$cur"'
          : complete === undefined
            ? 'true'
            : `compgen -W ${quoted(complete)} -- "$cur"`;
    return `    --${flag.name}) COMPREPLY=($(${action})); return ;;`;
  });
  return `# bash completion for gsd-check: eval "$(gsd-check completion bash)"
_gsd_check() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
${valueCases.join('\n')}
  esac
  local command='' i takes_value=${quoted(FLAGS.filter((flag) => flag.hint !== undefined).map((flag) => `--${flag.name}`))}
  for ((i = 1; i < COMP_CWORD; i++)); do
    case " $takes_value " in *" \${COMP_WORDS[i]} "*) ((i++)); continue ;; esac
    case \${COMP_WORDS[i]} in -*) ;; *) command="$command\${command:+ }\${COMP_WORDS[i]}" ;; esac
  done
  local flags='--help --version'
  case $command in
${commandCases.join('\n')}
${subcommandCases.join('\n')}
    '') COMPREPLY=($(compgen -W ${quoted([...firstWords, '--help', '--version'])} -- "$cur")); return ;;
  esac
  case $cur in
    -*) COMPREPLY=($(compgen -W "$flags" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}
complete -F _gsd_check gsd-check
`;
}

// The JSON Schemas of schemas/*.schema.json by name, as JSON, baked in by
// build.mjs (schemas/generate.ts): the bundle is vendored alone, with no
// schemas/ beside it.
declare const GSD_CHECK_SCHEMAS: string;

// The one place that names them: esbuild writes the text wherever this is
// used, and only `gsd-check schema` calls it, so no other command parses it.
const schemas = (): Readonly<Record<string, unknown>> => JSON.parse(GSD_CHECK_SCHEMAS) as Record<string, unknown>;

// A schema as its file under schemas/ holds it, or, without a name, the names
// one a line.
export function schemaText(name: string | undefined): Result<string> {
  const all = schemas();
  const names = Object.keys(all);
  if (name === undefined) return ok(`${names.join('\n')}\n`);
  if (!Object.hasOwn(all, name)) return usage(`no schema named ${JSON.stringify(name)}; one of: ${names.join(', ')}`);
  return ok(`${JSON.stringify(all[name], null, 2)}\n`);
}
