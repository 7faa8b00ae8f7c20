export const HELP = `Usage:
  gsd-check check predicate (--predicate <json> | --predicate-file <path>) [options]
  gsd-check gates run --point <point> (--builtin | --capability <file>... | --hooks <file|->) [options]
  gsd-check validate <capability.json>... [--json]

check predicate: evaluates one gate predicate and prints its envelope
  {"block": <bool>, "message": "<string>", "details": {...}}
  --predicate <json>         the predicate, as JSON
  --predicate-file <path>    read the predicate from a file (- for standard input)

gates run: evaluates every gate of a loop point with the two-step contract
  --point <point>            the loop point (plan:post, ship:pre, ...)
  --builtin                  GSD 1.14's own gates (compiled into its registry), first
  --capability <file>        a capability file; repeat for several, run in order
  --hooks <file|->           instead: the output of gsd_run loop render-hooks <point> --raw
                             (its gates are already activated by GSD)
  --config <path>            project config (default: .planning/config.json)
  --query-command <sh>       answers query gates (default: GSD_CHECK_QUERY_COMMAND,
                             else gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw
                             when gsd-tools is on PATH)
  --query-timeout <seconds>  a query command's time limit (default 30)
  --concurrency <n>          gates run at once (default: the number of CPUs)

validate: checks capability files' gate declarations, every issue with its path
  --json                     one JSON document instead of lines

Gate context (check predicate, gates run):
  --phase-dir <dir>          value of \${PHASE_DIR}; where artifacts are looked for
  --phase-number <n>         value of \${PHASE_NUMBER}
  --phase-req-ids <ids>      value of \${PHASE_REQ_IDS}
  --cwd <dir>                where the project-root search starts (default: .)
  --project-dir <dir>        the project root itself, no search (must hold .planning/)
  --ws <name>                the workstream (default: GSD_WORKSTREAM, else
                             .planning/active-workstream); the command gets it
                             as GSD_WORKSTREAM

Output (check predicate, gates run):
  --raw                      the envelope as one compact JSON line
  --pick <path>              print one field (block, message, details.exitCode,
                             details.gates[0].status, details.gates[-1], ...)
  --exit-code                exit 1 when the envelope blocks
  --json-errors              report a failed check as one JSON line on stderr
  --kill-after <seconds>     grace between SIGTERM and SIGKILL (default 3)
  --exit-contract <v1|v2>    GSD's exit-code contract (default: GSD_EXIT_CONTRACT, else
                             v1); no envelope is DEGRADED, so both exit alike

  -h, --help                 show this help
  -V, --version              show the version

A flag's value may follow it (--phase-dir 03) or be joined with = (--phase-dir=03);
a value that starts with "-" must use the = form.

Exit status: 0 envelope written (validate: all valid); 1 envelope blocks (with
--exit-code; validate: an issue); 2 the check itself failed (nothing on stdout,
the reason on stderr); 74 the output could not be written; 128+N stopped by
signal N, after ending the commands.
`;
