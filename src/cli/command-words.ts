import { ok, usage, type Result } from '../failure.ts';
import { listed } from '../text/format.ts';
import { closest } from '../text/suggest.ts';
import { COMMAND_PREFIX, COMMANDS, type CommandName } from './command-table.ts';

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
    return usage(second === undefined ? `missing subcommand after ${JSON.stringify(first)}; ${tried}` : `unknown subcommand ${JSON.stringify(`${first} ${second}`)}; ${tried}`);
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
export function helpFor(words: readonly string[]): { readonly command?: CommandName } {
  const named = findCommand(words);
  return named.ok && named.value.command !== 'help' ? { command: named.value.command } : {};
}

// `help`, or `help <command>`: the command as written, or the first word of
// the only command it begins (`help gates`).
export function helpOperand(operands: readonly string[]): Result<{ readonly command?: CommandName }> {
  if (operands.length === 0) return ok({});
  const found = findCommand(operands);
  if (found.ok && found.value.operands.length === 0) return ok({ command: found.value.command });
  const begun = COMMANDS.filter((command) => command.name.split(' ')[0] === operands[0]);
  if (operands.length === 1 && begun.length === 1) return ok({ command: begun[0]!.name });
  return usage(`help: no command ${JSON.stringify(operands.join(' '))}; one of: ${COMMANDS.map((command) => command.name).join(', ')}`);
}
