export const HELP = `Usage: gsd-check check predicate (--predicate <json> | --predicate-file <path>) [options]

Evaluates a GSD gate predicate and prints its envelope:
  {"block": <bool>, "message": "<string>", "details": {...}}

Predicate:
  --predicate <json>         the predicate, as JSON
  --predicate-file <path>    read the predicate from a file (- for standard input)

Gate context:
  --phase-dir <dir>          value of \${PHASE_DIR}
  --phase-number <n>         value of \${PHASE_NUMBER}
  --phase-req-ids <ids>      value of \${PHASE_REQ_IDS}
  --cwd <dir>                where the project-root search starts (default: .)

Output:
  --raw                      the envelope as one compact JSON line
  --pick <path>              print one field (block, message, details.exitCode, ...)
  --exit-code                exit 1 when the envelope blocks
  --json-errors              report a failed check as one JSON line on stderr

Process:
  --kill-after <seconds>     grace between SIGTERM and SIGKILL (default 3)

  -h, --help                 show this help
  -V, --version              show the version

A flag's value may follow it (--phase-dir 03) or be joined with = (--phase-dir=03);
a value that starts with "-" must use the = form.

Exit status: 0 envelope written; 1 envelope blocks (with --exit-code);
2 the check itself failed (nothing on stdout, the reason on stderr);
128+N stopped by signal N, after ending the command's processes.
`;
