import { COMMANDS, FLAGS, type Flag, type FlagGroup } from './command-table.ts';

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
  const parts = [['Usage:', ...listed.map((command) => `  gsd-check ${command.usage}`)].join('\n')];
  for (const command of listed) {
    const [first, ...rest] = command.summary!;
    const own = FLAGS.filter((flag) => flag.group === 'own' && flag.commands !== 'any' && flag.commands[0] === command.name);
    parts.push([`${command.name}: ${first}`, ...rest, ...own.flatMap(flagLines)].join('\n'));
  }
  for (const group of Object.keys(GROUPS) as (keyof typeof GROUPS)[]) {
    const flags = FLAGS.filter((flag) => flag.group === group);
    parts.push([groupHeading(group, flags), ...flags.flatMap(flagLines)].join('\n'));
  }
  parts.push(FLAGS.filter((flag) => flag.group === 'global').flatMap(flagLines).join('\n'));
  return `${parts.join('\n\n')}\n\n${FOOTER}`;
}

const FOOTER = `A flag's value may follow it (--phase-dir 03) or be joined with = (--phase-dir=03);
a value that starts with "-" must use the = form.

Exit status: 0 envelope written (validate: all valid); 1 envelope blocks (with
--exit-code; validate: an issue); 2 the check itself failed (nothing on stdout,
the reason on stderr); 74 the output could not be written; 128+N stopped by
signal N, after ending the commands.
`;
