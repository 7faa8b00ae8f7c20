import { EXIT_WRITE_FAILED } from '../failure.ts';
import { LOOP_POINTS } from '../gates/activation.ts';
import { type Flag, REPORT_KINDS } from './flag.ts';

// The flags of gates run alone, in the order --help gives them: a part of
// flag-table.ts's one list, kept apart for its size.
export const GATES_RUN_FLAGS: readonly Flag[] = [
  {
    name: 'point',
    hint: '<point>',
    repeatable: true,
    commands: ['gates run'],
    group: 'own',
    help: ['the loop point (plan:post, ship:pre, ...); repeat for several'],
    doc: {
      value: 'loop point',
      meaning:
        "the loop point whose gates run: `discuss:pre`, …, `ship:post`. Repeat it for several points in one run, in the order given: every point is evaluated, even after one halts, and the envelope holds them all (one `--point` prints that point's envelope)",
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
    doc: {
      value: '—',
      meaning:
        "with `--reached`: the run is the phase's ship (the pull request GSD's ship step opened, a release branch or tag), so `ship:pre` is reached; GSD records a ship only after it. Its first gate is `/gsd-ship`'s own preflight, `ship-preflight#1`: the phase's VERIFICATION.md must say `status: passed` ([gates](gates.md#the-ships-preflight))",
    },
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
    help: ["instead: each point's hooks rendered by the GSD gsd_run finds", '(gsd_run loop render-hooks <point> --raw), its version named'],
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
    doc: {
      value: '—',
      meaning:
        'with `--render` or `--builtin`: a GSD that `gsd_run` finds whose version gsd-check is not tested with (1.14.x), or that does not say, fails the call (exit 2) instead of a warning; `GSD_CHECK_REQUIRE_TESTED_GSD=1` does the same',
    },
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
    doc: {
      value: 'path',
      meaning:
        'instead of `--capability`: the output of `gsd_run loop render-hooks <point> --raw` (a file, or `-` for standard input); its gates are already activated by GSD',
    },
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
    name: 'consent',
    hint: '<id|*>',
    repeatable: true,
    commands: ['gates run'],
    group: 'own',
    help: ["with --render: a capability of the project's that GSD loads here", "as with its user's consent (GSD keeps none on a runner); * for all"],
    doc: {
      value: 'capability id, or `*`',
      meaning:
        "with `--render`: a capability of the project's `.gsd/capabilities/` that GSD loads in this run as it would with its user's consent on the machine; `*` for every one. GSD keeps consent in the user's home, so on a CI runner it loads none of the project's capabilities and renders none of their gates. Repeat it for several. The consent is written for the run alone, in a home of its own that GSD is pointed at (`GSD_HOME`) and that is removed when the run ends; the user's home is never written. Without it, each project capability GSD does not load is named in a warning and the job summary ([security](../explanation/security.md#a-projects-capabilities-in-ci))",
    },
  },
  {
    name: 'query-command',
    hint: '<sh>',
    commands: ['gates run'],
    group: 'own',
    help: ['answers query gates (default: GSD_CHECK_QUERY_COMMAND,', 'else gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw', 'by the GSD gsd_run finds)'],
    doc: {
      value: 'shell command',
      meaning:
        'how `query` gates are answered (default: `GSD_CHECK_QUERY_COMMAND`, else `gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw` by the GSD that `gsd_run` would find, as `--render` finds it)',
    },
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
    doc: {
      value: '`junit=<file>` or `github`',
      meaning:
        'also report every gate of the run: `junit=<file>` writes a JUnit XML file (whole or not at all, keeping the mode of a file it replaces; relative to `--cwd`; through a symbolic link, never over a device or a pipe, never out of the project or `--cwd` by a link, never over the file behind stdout or stderr; its missing folders made inside the project or `--cwd`, by the same rules), `github` prints GitHub Actions annotations on stderr and appends a Markdown table to `$GITHUB_STEP_SUMMARY` when it is set. Repeatable, each kind once. A report that cannot be written: the envelope is still printed, exit ' +
        EXIT_WRITE_FAILED,
    },
    complete: REPORT_KINDS.map((kind) => kind.replace('<file>', '')),
  },
];
