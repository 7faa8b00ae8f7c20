// Every flag of gsd-check, written once: the tokenizer (command-line.ts),
// --help and shell completion (help.ts), the Action's inputs and the flag
// tables of docs/reference/cli.md are derived from this list (gates run's
// own flags are in gates-run-flags.ts, spliced in where --help lists them).
import type { CommandName } from './command-table.ts';
import { EXIT_CONTRACTS, type Flag } from './flag.ts';
import { GATES_RUN_FLAGS } from './gates-run-flags.ts';

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
  ...GATES_RUN_FLAGS,
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
    doc: {
      value: 'text',
      meaning:
        'the phase directory, relative to the project root (absolute in `${PHASE_DIR}`; refused outside the project root); for `artifact-frontmatter-equals`, searched before the project root',
    },
    complete: 'directory',
  },
  {
    name: 'phase-number',
    hint: '<n>',
    commands: EVAL,
    group: 'context',
    help: ['value of ${PHASE_NUMBER}'],
    doc: {
      value: 'text',
      meaning:
        'value of `${PHASE_NUMBER}` (kept as text: `07` stays `07`; empty is none): a phase id, letters and digits joined by `.`, `_` or `-` (`04`, `4.1`, `12A`, `1-2`, `CK-01`, `PROJ-42`), else a usage error; without `--phase-dir`, `artifact-frontmatter-equals` looks the phase directory up from it, and `gates run` fails on a number with none where a gate past `discuss:pre` reads the phase, or with `--reached` ([gates](gates.md#a-phase-with-no-directory))',
    },
  },
  {
    name: 'current-phase',
    commands: EVAL,
    group: 'context',
    help: ['instead of --phase-number: the phase .planning/STATE.md names'],
    doc: {
      value: '—',
      meaning:
        "instead of `--phase-number`: the phase GSD's state names, read from `.planning/STATE.md` (the workstream's under `GSD_WORKSTREAM`) as `gsd-tools state-snapshot` reads it: `current_phase` in its frontmatter, else a `Current Phase:` field, else `Phase: 2 of 4 (Name)` under `## Current Position`, each the id its value starts with, as GSD gives it (`02` stays `02`, `CK-04` is `04`); no `STATE.md`, one that names no phase, or one gsd-check cannot read as GSD does fails the call (exit 2). For CI jobs and hooks, where a phase written into the config goes stale",
    },
  },
  {
    name: 'phase-req-ids',
    hint: '<ids>',
    commands: EVAL,
    group: 'context',
    help: ['value of ${PHASE_REQ_IDS}'],
    doc: {
      value: 'text',
      meaning:
        "value of `${PHASE_REQ_IDS}`: the requirement text as GSD's plan-phase passes it from the roadmap (`REQ-07,REQ-08`, `REQ-01 (partial), AUTH/01`, `n/a`, `TBD`), passed as data; one line of at most 4096 characters (a control character is a usage error)",
    },
  },
  {
    name: 'cwd',
    trimsJoined: true,
    hint: '<dir>',
    commands: EVAL,
    group: 'context',
    help: ['where the project-root search starts (default: .)'],
    doc: {
      value: 'directory',
      meaning:
        'where the project-root search starts, and what relative paths on the command line (`--predicate-file`, `--capability`, `--hooks`, `--config`) are taken from (default: the current directory); checked even beside `--project-dir`, as GSD checks it. The value of `--cwd=` is trimmed, as GSD trims it (a path read from a file with CRLF endings)',
    },
    complete: 'directory',
  },
  {
    name: 'project-dir',
    trimsJoined: true,
    hint: '<dir>',
    commands: EVAL,
    group: 'context',
    help: ['the project root itself, no search (must hold .planning/)'],
    doc: {
      value: 'directory',
      meaning:
        "GSD's `--project-dir`: the project root itself, relative to the current directory; no search up from it, so it must hold `.planning/`; over `--cwd` for the root (`--cwd` still bases the other paths). The value of `--project-dir=` is trimmed, as GSD trims it",
    },
    complete: 'directory',
  },
  {
    name: 'ws',
    hint: '<name>',
    commands: EVAL,
    group: 'context',
    help: ['the workstream (default: GSD_WORKSTREAM, else', '.planning/active-workstream); the command gets it', 'as GSD_WORKSTREAM'],
    doc: {
      value: 'name',
      meaning:
        "GSD's `--ws`: the workstream (trimmed), over `GSD_WORKSTREAM` (trimmed), over the session's or the project's `.planning/active-workstream` pointer (when anything of its name is in `.planning/workstreams/`, a directory or not, as GSD tests it); a letter or digit, then letters, digits, `.`, `_`, `-`, never `..`, else a usage error. It scopes the phase lookup and the configs, and reaches commands as `GSD_WORKSTREAM`",
    },
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
    doc: {
      value: 'path',
      meaning:
        'print one field of the envelope: `block`, `message`, `details.exitCode`, a list item in brackets after its field, negative from the end (`details.gates[0].status`, `details.gates[-1]`), as GSD writes them; strings bare on one line (control characters, newlines included, escaped as `\\n`, `\\x1b`), other values as JSON. A path that no envelope of the kind can have (a `details` field the kind never has, brackets on a single value) is a usage error before anything runs, naming the closest field (`--pick blok`: did you mean `block`?)',
    },
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
    doc: {
      value: '`v1` or `v2`',
      meaning:
        "GSD's `--exit-contract` (default: `GSD_EXIT_CONTRACT`, an empty one as unset, else `v1`). v2 changes only a DEGRADED outcome, an answer with an `error` field, which no envelope of gsd-check is: both exit alike. Anything else is a usage error",
    },
    complete: EXIT_CONTRACTS,
  },
  {
    name: 'help',
    short: 'h',
    spellings: ['-?', '--h', '--usage'],
    commands: 'any',
    group: 'global',
    help: ['show this help (also -?, --h, --usage, anywhere)'],
    doc: {
      value: '—',
      meaning:
        "print help and exit 0; so do `-?`, `--h` and `--usage`, GSD's other spellings. Any of them anywhere before `--`, even where a value was expected (`--phase-number -h`), is a request for help, answered before anything else on the line is checked",
    },
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
        'print one line, `gsd-check <version> (source <id>)`, and exit 0; the id is a hash of the files it is built from, not a git commit: `node build-id.mjs` in the source archive or a checkout prints it. A build between releases prints the pre-release `<next patch>-dev` and adds `; unreleased, after <release>` ([Version](#version))',
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
