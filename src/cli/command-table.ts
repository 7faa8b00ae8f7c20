// Every command of gsd-check, written once. The parser (command-line.ts),
// --help and shell completion (help.ts) and docs/reference/cli.md are
// derived from this list and flag-table.ts's (checked by
// test/cli/flag-table.test.ts and command-table.test.ts).

// A word GSD's router takes before any command and drops (its workflows call
// `gsd_run query check.predicate …`): before a command, the command itself.
export const COMMAND_PREFIX = 'query';

interface Command {
  readonly name: string;
  // Other spellings of the same command: GSD's router also takes
  // `check.predicate`.
  readonly aliases: readonly string[];
  readonly usage: string;
  // The heading of its part of --help; a command without one (help) is
  // left out of it.
  readonly summary?: readonly string[];
  // What its operands are, when it takes any: nothing else is a stray argument.
  readonly operands?: string;
  // `gsd-check help <command>`: commands to copy, each with what it does (the
  // first is also in --help), and the page of the docs that has the rest.
  readonly examples: readonly { readonly what: string; readonly command: string }[];
  readonly docs: string;
}

// Written as data, so that the names are a type (CommandName) without being
// written twice.
const TABLE = [
  {
    name: 'check predicate',
    aliases: ['check.predicate'],
    usage: 'check predicate (--predicate <json> | --predicate-file <path>) [options]',
    summary: ['evaluates one gate predicate and prints its envelope', '  {"block": <bool>, "message": "<string>", "details": {...}}'],
    examples: [
      {
        what: 'a command gate; exit 1 when it blocks',
        command: `gsd-check check predicate --predicate '{"kind":"command-exit-zero","command":"npm test"}' --exit-code`,
      },
      {
        what: "a frontmatter gate on phase 04's SECURITY.md; print only the message",
        command: `gsd-check check predicate --phase-number 04 --pick message \\\n    --predicate '{"kind":"artifact-frontmatter-equals","artifact":"SECURITY.md","field":"threats_open","equals":0}'`,
      },
      { what: 'the predicate from a file (no shell quoting), one JSON line', command: 'gsd-check check predicate --predicate-file gate.json --raw' },
    ],
    docs: 'docs/reference/predicates.md',
  },
  {
    name: 'gates run',
    aliases: [],
    usage: 'gates run (--point <point>... | --all-points | --reached) (--builtin | --capability <file>... | --hooks <file|-> | --render) [options]',
    summary: ['evaluates every gate of one or more loop points: the envelope blocks when one halts'],
    examples: [
      {
        what: 'the gates GSD renders for a point; exit 1 when one halts',
        command: 'gsd_run loop render-hooks ship:pre --raw | gsd-check gates run --point ship:pre --hooks - --phase-number 04 --exit-code',
      },
      {
        what: "capability files' gates, their `when` resolved from .planning/config.json",
        command: 'gsd-check gates run --point ship:pre --capability caps/security.json --phase-number 04 --pick message',
      },
      {
        what: "a phase's 12 points in one run, for CI; one JUnit file, a <testsuite> per point",
        command: 'gsd-check gates run --all-points --builtin --phase-number 04 --exit-code --report junit=reports/gsd-gates.xml',
      },
    ],
    docs: 'docs/reference/gates.md',
  },
  {
    name: 'validate',
    aliases: [],
    usage: 'validate <capability.json>... [--json]',
    summary: ['checks capability files as GSD 1.14 loads them, gates and all: every issue with its path'],
    operands: 'capability file',
    // Joined when it runs: the program is kept in a block comment, which a
    // star before a slash would end.
    examples: [
      {
        what: 'the capabilities installed in a project, as GSD finds them; exit 1 on any issue',
        command: ['gsd-check validate .gsd/capabilities/*', 'capability.json'].join('/'),
      },
    ],
    docs: 'docs/how-to/validate-capability-files.md',
  },
  {
    name: 'schema',
    aliases: [],
    usage: 'schema [<name>]',
    summary: ['prints the JSON Schema of what a user writes, for editors; without a name, lists them'],
    operands: 'schema name',
    examples: [{ what: 'the schema of a capability file, for an editor', command: 'gsd-check schema capability > capability.schema.json' }],
    docs: 'docs/how-to/author-gates.md',
  },
  {
    name: 'completion',
    aliases: [],
    usage: 'completion bash',
    summary: ['prints a bash completion script: eval "$(gsd-check completion bash)"'],
    operands: 'shell',
    examples: [{ what: "complete gsd-check's commands and flags in this bash", command: 'eval "$(gsd-check completion bash)"' }],
    docs: 'docs/reference/cli.md',
  },
  {
    name: 'help',
    aliases: [],
    usage: 'help [<command>]',
    operands: 'command',
    examples: [{ what: "one command's flags, examples and docs", command: 'gsd-check help gates run' }],
    docs: 'docs/reference/cli.md',
  },
] as const satisfies readonly Command[];

export type CommandName = (typeof TABLE)[number]['name'];

export const COMMANDS: readonly (Command & { readonly name: CommandName })[] = TABLE;

export const commandNamed = (name: CommandName): Command => COMMANDS.find((command) => command.name === name)!;

// The shells `gsd-check completion` writes a script for. Bash only for now;
// zsh can load it through bashcompinit.
export const SHELLS = ['bash'] as const;
export type Shell = (typeof SHELLS)[number];

export const isShell = (name: string): name is Shell => (SHELLS as readonly string[]).includes(name);
