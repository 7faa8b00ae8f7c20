import type { CommandName } from './command-table.ts';

// What a flag of gsd-check is, as flag-table.ts lists them.

// The values of --report and of --exit-contract: what the parser takes, what
// completion offers, what a refusal lists.
export const REPORT_KINDS = ['junit=<file>', 'github'] as const;
export const EXIT_CONTRACTS = ['v1', 'v2'] as const;

// Where a flag sits in --help: under its one command, or in a shared group.
export type FlagGroup = 'own' | 'context' | 'output' | 'global';

export interface Flag {
  readonly name: string;
  // A one-letter alias (-h for --help).
  readonly short?: string;
  // Other whole arguments that mean this switch, as GSD spells it (-?, --h).
  readonly spellings?: readonly string[];
  // GSD trims the value of its `--flag=value` form (a path read from a file
  // with CRLF endings); the spaced form is taken as it is, in both.
  readonly trimsJoined?: boolean;
  // The value's placeholder in --help (<json>); a flag without one is a switch.
  readonly hint?: string;
  // Value flags only: given more than once, each value is kept in order.
  readonly repeatable?: boolean;
  readonly commands: readonly CommandName[] | 'any';
  readonly group: FlagGroup;
  // The value when the flag is not given, where the parser supplies one.
  readonly default?: number;
  // --help's lines for it: the first beside the flag, the rest below.
  readonly help: readonly string[];
  // docs/reference/cli.md's row: what the value is, and what the flag does.
  readonly doc: { readonly value: string; readonly meaning: string };
  // What completion offers for the value: files, directories, or words.
  readonly complete?: 'file' | 'directory' | readonly string[];
}
