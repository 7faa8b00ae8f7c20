// Every flag of gsd-check, written once: the tokenizer (command-line.ts),
// --help and shell completion (help.ts), the Action's inputs and the flag
// tables of docs/reference/cli.md are derived from this list.
import { EXIT_WRITE_FAILED } from '../failure.ts';
import { LOOP_POINTS } from '../gates/activation.ts';
import type { CommandName } from './command-table.ts';

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

const EVAL: readonly CommandName[] = ['check predicate', 'gates run'];

// As written, without the defaults' words, which `said` adds.
const DECLARED: readonly Flag[] = [
  {
    name: 'predicate',
    hint: '<json>',
    commands: ['check predicate'],
    group: 'own',
    help: ['the predicate, as JSON'],
    doc: { value: 'JSON', meaning: 'the predicate' },
  },
  {
    name: 'predicate-file',
    hint: '<path>',
    commands: ['check predicate'],
    group: 'own',
    help: ['read the predicate from a file (- for standard input)'],
    doc: { value: 'path', meaning: 'read the predicate from a file; `-` reads standard input. At most 1 MiB of UTF-8 (a BOM is allowed)' },
    complete: 'file',
  },
  {
    name: 'point',
    hint: '<point>',
    repeatable: true,
    commands: ['gates run'],
    group: 'own',
    help: ['the loop point (plan:post, ship:pre, ...); repeat for several'],
    doc: {
      value: 'loop point',
      meaning: 'the loop point whose gates run: `discuss:pre`, …, `ship:post`. Repeat it for several points in one run, in the order given: every point is evaluated, even after one halts, and the envelope holds them all (one `--point` prints that point\'s envelope)',
    },
    complete: LOOP_POINTS,
  },
  {
    name: 'all-points',
    commands: ['gates run'],
    group: 'own',
    help: ["instead of --point: GSD's 12 loop points, in loop order"],
    doc: { value: '—', meaning: "instead of `--point`: every one of GSD's 12 loop points, in loop order (`discuss:pre` … `ship:post`), in one run" },
  },
  {
    name: 'reached',
    commands: ['gates run'],
    group: 'own',
    help: ["only the points GSD's loop has reached for the phase", '(of --point, --all-points, or all 12): CI on every pull request'],
    doc: {
      value: '—',
      meaning:
        "of the points given (`--point`, `--all-points`, or all 12 without either), only those GSD's loop has reached for the phase (`--current-phase`, `--phase-number` or `--phase-dir`), read from what GSD's workflows leave: the phase's files and STATE.md (the rule: [gates](gates.md#the-points-gsds-loop-has-reached)). The envelope says what was read, and lists every point not reached with why. With `--current-phase`, a phase that has reached no point yet gives way to the one before it when that one is complete",
    },
  },
  {
    name: 'ship',
    commands: ['gates run'],
    group: 'own',
    help: ["with --reached: this run is the phase's ship; ship:pre is reached,", "after /gsd-ship's preflight (the phase's verification passed)"],
    doc: { value: '—', meaning: "with `--reached`: the run is the phase's ship (the pull request GSD's ship step opened, a release branch or tag), so `ship:pre` is reached; GSD records a ship only after it. Its first gate is `/gsd-ship`'s own preflight, `ship-preflight#1`: the phase's VERIFICATION.md must say `status: passed` ([gates](gates.md#the-ships-preflight))" },
  },
  {
    name: 'builtin',
    commands: ['gates run'],
    group: 'own',
    help: ["GSD 1.14's own gates (compiled into its registry), first"],
    doc: {
      value: '—',
      meaning:
        "GSD 1.14's own gate declarations (the 11 gates its registry compiles in, with the config keys that switch them), before any `--capability`; the way to run GSD's gates without GSD at hand. Where the GSD `gsd_run` would find is another version, a warning names both (`--require-tested-gsd` makes it a failure); capabilities installed in the project or `GSD_HOME` are not among them, and a line says which",
    },
  },
  {
    name: 'render',
    commands: ['gates run'],
    group: 'own',
    help: ['instead: each point\'s hooks rendered by the GSD gsd_run finds', '(gsd_run loop render-hooks <point> --raw), its version named'],
    doc: {
      value: '—',
      meaning:
        "instead of `--hooks` or `--capability`: each point's hooks rendered by the GSD that `gsd_run` would find (the top level's `gsd-core/`, `.claude/`, `.codex/`, then `gsd_run` or `gsd-tools` on `PATH`, then the agents' homes), one `loop render-hooks <point> --raw` per point, in the run's pool; that GSD answers the query gates too, and its version (`runtime-identity`) is in the envelope, the job summary and the JUnit properties. A version gsd-check is not tested with (other than 1.14.x) is warned of",
    },
  },
  {
    name: 'require-tested-gsd',
    commands: ['gates run'],
    group: 'own',
    help: ['a GSD version gsd-check is not tested with fails the call', '(also GSD_CHECK_REQUIRE_TESTED_GSD=1)'],
    doc: { value: '—', meaning: 'with `--render` or `--builtin`: a GSD that `gsd_run` finds whose version gsd-check is not tested with (1.14.x), or that does not say, fails the call (exit 2) instead of a warning; `GSD_CHECK_REQUIRE_TESTED_GSD=1` does the same' },
  },
  {
    name: 'capability',
    hint: '<file>',
    repeatable: true,
    commands: ['gates run'],
    group: 'own',
    help: ['a capability file; repeat for several, run in order'],
    doc: { value: 'path', meaning: 'a capability file; repeat for several, run in order. gsd-check resolves activation' },
    complete: 'file',
  },
  {
    name: 'hooks',
    hint: '<file|->',
    commands: ['gates run'],
    group: 'own',
    help: ['instead: the output of gsd_run loop render-hooks <point> --raw', '(its gates are already activated by GSD)'],
    doc: { value: 'path', meaning: 'instead of `--capability`: the output of `gsd_run loop render-hooks <point> --raw` (a file, or `-` for standard input); its gates are already activated by GSD' },
    complete: 'file',
  },
  {
    name: 'config',
    hint: '<path>',
    commands: ['gates run'],
    group: 'own',
    help: ['project config (default: .planning/config.json)'],
    doc: { value: 'path', meaning: 'the project config (default: `.planning/config.json` under the project root; a `--config` given explicitly must exist)' },
    complete: 'file',
  },
  {
    name: 'gsd',
    hint: '<gsd-tools.cjs>',
    commands: ['gates run'],
    group: 'own',
    help: ['the GSD that renders the hooks and answers the queries, named', '(default: the one gsd_run finds)'],
    doc: {
      value: 'file',
      meaning:
        "the GSD that decides (`--render`, `--builtin`, the query gates' default), named instead of found where `gsd_run` looks: its `gsd-tools.cjs`, or the `node_modules/.bin/gsd-tools` npm links to it (relative to `--cwd`), as the recipes name the lockfile's GSD. A GSD committed in the repository is then passed over",
    },
  },
  {
    name: 'query-command',
    hint: '<sh>',
    commands: ['gates run'],
    group: 'own',
    help: [
      'answers query gates (default: GSD_CHECK_QUERY_COMMAND,',
      'else gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw',
      'by the GSD gsd_run finds)',
    ],
    doc: { value: 'shell command', meaning: 'how `query` gates are answered (default: `GSD_CHECK_QUERY_COMMAND`, else `gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw` by the GSD that `gsd_run` would find, as `--render` finds it)' },
  },
  {
    name: 'query-timeout',
    hint: '<seconds>',
    commands: ['gates run'],
    group: 'own',
    default: 30,
    help: ["a query command's time limit"],
    doc: { value: 'seconds', meaning: "a query command's time limit" },
  },
  {
    name: 'concurrency',
    hint: '<n>',
    commands: ['gates run'],
    group: 'own',
    help: ['gates run at once (default: the number of CPUs)'],
    doc: { value: 'whole number', meaning: 'how many gates run at once (default: the number of CPUs, never more than the open-descriptor limit allows)' },
  },
  {
    name: 'report',
    hint: '<kind>',
    repeatable: true,
    commands: ['gates run'],
    group: 'own',
    help: ['also report the gates: junit=<file> (JUnit XML) or github', '(annotations and $GITHUB_STEP_SUMMARY); repeatable'],
    doc: { value: '`junit=<file>` or `github`', meaning: 'also report every gate of the run: `junit=<file>` writes a JUnit XML file (whole or not at all, keeping the mode of a file it replaces; relative to `--cwd`; through a symbolic link, never over a device or a pipe, never out of the project or `--cwd` by a link, never over the file behind stdout or stderr; its missing folders made inside the project or `--cwd`, by the same rules), `github` prints GitHub Actions annotations on stderr and appends a Markdown table to `$GITHUB_STEP_SUMMARY` when it is set. Repeatable, each kind once. A report that cannot be written: the envelope is still printed, exit ' + EXIT_WRITE_FAILED },
    complete: REPORT_KINDS.map((kind) => kind.replace('<file>', '')),
  },
  {
    name: 'json',
    commands: ['validate'],
    group: 'own',
    help: ['one JSON document instead of lines'],
    doc: { value: '—', meaning: 'one JSON document instead of lines' },
  },
  {
    name: 'phase-dir',
    hint: '<dir>',
    commands: EVAL,
    group: 'context',
    help: ['value of ${PHASE_DIR}; where artifacts are looked for'],
    doc: { value: 'text', meaning: 'the phase directory, relative to the project root (absolute in `${PHASE_DIR}`; refused outside the project root); for `artifact-frontmatter-equals`, searched before the project root' },
    complete: 'directory',
  },
  {
    name: 'phase-number',
    hint: '<n>',
    commands: EVAL,
    group: 'context',
    help: ['value of ${PHASE_NUMBER}'],
    doc: { value: 'text', meaning: 'value of `${PHASE_NUMBER}` (kept as text: `07` stays `07`): a phase id, letters and digits joined by `.`, `_` or `-` (`04`, `4.1`, `12A`, `1-2`, `CK-01`, `PROJ-42`), else a usage error; without `--phase-dir`, `artifact-frontmatter-equals` looks the phase directory up from it' },
  },
  {
    name: 'current-phase',
    commands: EVAL,
    group: 'context',
    help: ['instead of --phase-number: the phase .planning/STATE.md names'],
    doc: { value: '—', meaning: "instead of `--phase-number`: the phase GSD's state names, read from `.planning/STATE.md` (the workstream's under `GSD_WORKSTREAM`) as `gsd-tools state-snapshot` reads it: `current_phase` in its frontmatter, else a `Current Phase:` field, else `Phase: 2 of 4 (Name)` under `## Current Position`, each the id its value starts with, as GSD gives it (`02` stays `02`, `CK-04` is `04`); no `STATE.md`, one that names no phase, or one gsd-check cannot read as GSD does fails the call (exit 2). For CI jobs and hooks, where a phase written into the config goes stale" },
  },
  {
    name: 'phase-req-ids',
    hint: '<ids>',
    commands: EVAL,
    group: 'context',
    help: ['value of ${PHASE_REQ_IDS}'],
    doc: { value: 'text', meaning: "value of `${PHASE_REQ_IDS}`: the requirement text as GSD's plan-phase passes it from the roadmap (`REQ-07,REQ-08`, `REQ-01 (partial), AUTH/01`, `n/a`, `TBD`), passed as data; one line of at most 4096 characters (a control character is a usage error)" },
  },
  {
    name: 'cwd',
    trimsJoined: true,
    hint: '<dir>',
    commands: EVAL,
    group: 'context',
    help: ['where the project-root search starts (default: .)'],
    doc: { value: 'directory', meaning: 'where the project-root search starts, and what relative paths on the command line (`--predicate-file`, `--capability`, `--hooks`, `--config`) are taken from (default: the current directory); checked even beside `--project-dir`, as GSD checks it. The value of `--cwd=` is trimmed, as GSD trims it (a path read from a file with CRLF endings)' },
    complete: 'directory',
  },
  {
    name: 'project-dir',
    trimsJoined: true,
    hint: '<dir>',
    commands: EVAL,
    group: 'context',
    help: ['the project root itself, no search (must hold .planning/)'],
    doc: { value: 'directory', meaning: "GSD's `--project-dir`: the project root itself, relative to the current directory; no search up from it, so it must hold `.planning/`; over `--cwd` for the root (`--cwd` still bases the other paths). The value of `--project-dir=` is trimmed, as GSD trims it" },
    complete: 'directory',
  },
  {
    name: 'ws',
    hint: '<name>',
    commands: EVAL,
    group: 'context',
    help: ['the workstream (default: GSD_WORKSTREAM, else', '.planning/active-workstream); the command gets it', 'as GSD_WORKSTREAM'],
    doc: { value: 'name', meaning: "GSD's `--ws`: the workstream (trimmed), over `GSD_WORKSTREAM` (trimmed), over the session's or the project's `.planning/active-workstream` pointer (when anything of its name is in `.planning/workstreams/`, a directory or not, as GSD tests it); a letter or digit, then letters, digits, `.`, `_`, `-`, never `..`, else a usage error. It scopes the phase lookup and the configs, and reaches commands as `GSD_WORKSTREAM`" },
  },
  {
    name: 'raw',
    commands: EVAL,
    group: 'output',
    help: ['the envelope as one compact JSON line'],
    doc: { value: '—', meaning: 'print the envelope as one compact JSON line (default: indented by 2 spaces)' },
  },
  {
    name: 'pick',
    hint: '<path>',
    commands: EVAL,
    group: 'output',
    help: ['print one field (block, message, details.exitCode,', 'details.gates[0].status, details.gates[-1], ...)'],
    doc: { value: 'path', meaning: "print one field of the envelope: `block`, `message`, `details.exitCode`, a list item in brackets after its field, negative from the end (`details.gates[0].status`, `details.gates[-1]`), as GSD writes them; strings bare on one line (control characters, newlines included, escaped as `\\n`, `\\x1b`), other values as JSON. A path that no envelope of the kind can have (a `details` field the kind never has, brackets on a single value) is a usage error before anything runs, naming the closest field (`--pick blok`: did you mean `block`?)" },
    complete: ['block', 'message', 'details'],
  },
  {
    name: 'exit-code',
    commands: EVAL,
    group: 'output',
    help: ['exit 1 when the envelope blocks'],
    doc: { value: '—', meaning: 'exit 1 when the envelope blocks' },
  },
  {
    name: 'json-errors',
    commands: [...EVAL, 'validate'],
    group: 'output',
    help: ['report a failed check as one JSON line on stderr'],
    doc: { value: '—', meaning: "report a check failure as one JSON line on stderr; `GSD_JSON_ERRORS=1` in the environment does the same (gsd-tools' switch)" },
  },
  {
    name: 'kill-after',
    hint: '<seconds>',
    commands: EVAL,
    group: 'output',
    default: 3,
    help: ['grace between SIGTERM and SIGKILL'],
    doc: { value: 'seconds', meaning: 'grace between SIGTERM and SIGKILL on a timeout or a stop signal; `0` kills at once' },
  },
  {
    name: 'exit-contract',
    hint: `<${EXIT_CONTRACTS.join('|')}>`,
    commands: [...EVAL, 'validate'],
    group: 'output',
    help: ["GSD's exit-code contract (default: GSD_EXIT_CONTRACT, else", 'v1); no envelope is DEGRADED, so both exit alike'],
    doc: { value: '`v1` or `v2`', meaning: "GSD's `--exit-contract` (default: `GSD_EXIT_CONTRACT`, an empty one as unset, else `v1`). v2 changes only a DEGRADED outcome, an answer with an `error` field, which no envelope of gsd-check is: both exit alike. Anything else is a usage error" },
    complete: EXIT_CONTRACTS,
  },
  {
    name: 'help',
    short: 'h',
    spellings: ['-?', '--h', '--usage'],
    commands: 'any',
    group: 'global',
    help: ['show this help (also -?, --h, --usage, anywhere)'],
    doc: { value: '—', meaning: 'print help and exit 0; so do `-?`, `--h` and `--usage`, GSD\'s other spellings. Any of them anywhere before `--`, even where a value was expected (`--phase-number -h`), is a request for help, answered before anything else on the line is checked' },
  },
  {
    name: 'version',
    short: 'V',
    commands: 'any',
    group: 'global',
    help: ['show the version'],
    doc: {
      value: '—',
      meaning:
        'print one line, `gsd-check <version> (source <id>)`, and exit 0; the id is a hash of the files it is built from, not a git commit: `node build-id.mjs` in the source archive or a checkout prints it',
    },
  },
];

// A flag's default, written once (`default`), said in its help and its row.
function said(flag: Flag): Flag {
  if (flag.default === undefined) return flag;
  const words = ` (default ${flag.default})`;
  const [first = '', ...rest] = flag.help;
  return { ...flag, help: [first + words, ...rest], doc: { ...flag.doc, meaning: flag.doc.meaning + words } };
}

export const FLAGS: readonly Flag[] = DECLARED.map(said);

export const takes = (flag: Flag, command: CommandName): boolean => flag.commands === 'any' || flag.commands.includes(command);

export const flagNamed = (name: string): Flag | undefined => FLAGS.find((flag) => flag.name === name);

