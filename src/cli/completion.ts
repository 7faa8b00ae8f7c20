import { COMMANDS, FLAGS, takes } from './command-table.ts';

// Shell completion, written from the command table: a new flag completes
// without touching this file. Bash only for now; zsh can load it through
// bashcompinit.
export const SHELLS = ['bash'] as const;
export type Shell = (typeof SHELLS)[number];

export const isShell = (name: string): name is Shell => (SHELLS as readonly string[]).includes(name);

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
      complete === 'file' ? 'compgen -f -- "$cur"' : complete === 'directory' ? 'compgen -d -- "$cur"' : complete === undefined ? 'true' : `compgen -W ${quoted(complete)} -- "$cur"`;
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
