import { FLAGS, flagNamed } from './flag-table.ts';

// A request for help as GSD's router reads one: any of its help spellings
// as a whole argument, wherever it stands, even where a flag's value was
// expected (`--phase-number -h`). Only `--` ends the search: after it every
// argument is a word (`validate -- -h` validates a file named -h).

const HELP = flagNamed('help')!;
const SPELLINGS: readonly string[] = [`-${HELP.short!}`, `--${HELP.name}`, ...(HELP.spellings ?? [])];
const TAKES_VALUE = new Set(FLAGS.filter((flag) => flag.hint !== undefined).map((flag) => `--${flag.name}`));

const beforeEnd = (argv: readonly string[]): readonly string[] => {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
};

export const asksForHelp = (argv: readonly string[]): boolean => beforeEnd(argv).some((arg) => SPELLINGS.includes(arg));

// The line without its help spellings, for finding the command whose help
// it is: a value flag that a spelling stood in for the value of goes too,
// so that `gates run --point -h` is still `gates run`.
export function withoutHelp(argv: readonly string[]): string[] {
  const searched = beforeEnd(argv);
  const rest: string[] = [];
  for (const arg of searched) {
    if (!SPELLINGS.includes(arg)) rest.push(arg);
    else if (TAKES_VALUE.has(rest.at(-1) ?? '')) rest.pop();
  }
  return [...rest, ...argv.slice(searched.length)];
}
