"use strict";

// src/action/main.ts
var import_node_child_process = require("node:child_process");
var import_node_crypto = require("node:crypto");
var import_node_fs2 = require("node:fs");
var import_node_os = require("node:os");
var import_node_path = require("node:path");

// src/text/format.ts
var UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
function escape(c) {
  const code = c.charCodeAt(0);
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "	") return "\\t";
  return code < 256 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
function visible(text) {
  return text.replace(UNSAFE, escape);
}
var IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
function jsonPath(root, keys) {
  let out = root;
  for (const key of keys) {
    if (typeof key === "number") out += `[${key}]`;
    else if (IDENTIFIER.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

// src/failure.ts
var EXIT_NO = 1;
var EXIT_FAILURE = 2;
var EXIT_WRITE_FAILED = 74;
var STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGXCPU", "SIGVTALRM", "SIGPROF"];
function stoppedExitStatus(stop) {
  const { constants: constants3 } = require("node:os");
  return 128 + (constants3.signals[stop.signal] ?? constants3.signals.SIGTERM);
}
var REASONS = {
  usage: { exitStatus: EXIT_FAILURE, onError: true },
  "invalid-json": { exitStatus: EXIT_FAILURE, onError: true },
  "invalid-predicate": { exitStatus: EXIT_FAILURE, onError: true },
  "unknown-kind": { exitStatus: EXIT_FAILURE, onError: true },
  "bad-cwd": { exitStatus: EXIT_FAILURE, onError: true },
  "unreadable-file": { exitStatus: EXIT_FAILURE, onError: true },
  "spawn-failed": { exitStatus: EXIT_FAILURE, onError: true },
  "resource-limit": { exitStatus: EXIT_FAILURE, onError: false },
  "invalid-artifact": { exitStatus: EXIT_FAILURE, onError: true },
  "invalid-capability": { exitStatus: EXIT_FAILURE, onError: true },
  "no-such-field": { exitStatus: EXIT_FAILURE, onError: true },
  "query-failed": { exitStatus: EXIT_FAILURE, onError: true },
  // An agentVerdict check: only an agent can give its verdict, and gates run
  // has none, so the gate is routed by its onError like any check that could
  // not be evaluated. It never reaches --json-errors: no command fails for it.
  "needs-agent": { exitStatus: EXIT_FAILURE, onError: true },
  "unsupported-platform": { exitStatus: EXIT_FAILURE, onError: true },
  // The GSD gsd_run finds is a version gsd-check is not tested with, and the
  // caller asked for one it is (--require-tested-gsd). It fails the call.
  "untested-gsd": { exitStatus: EXIT_FAILURE, onError: false },
  // The phase's files do not tell which phase, or where its loop stands, as
  // GSD would read them (two directories for it, plans GSD refuses to
  // order): nothing can be said reached, so nothing may pass.
  "ambiguous-phase": { exitStatus: EXIT_FAILURE, onError: false },
  stopped: { exitStatus: "signal", onError: false }
};
var ok = (value) => ({ ok: true, value });
var refused = (failure) => ({ ok: false, failure });
var fail = (reason, message, issues = []) => ({
  ok: false,
  failure: { reason, message, issues }
});
function exitStatusOf(failure) {
  return failure.reason === "stopped" ? stoppedExitStatus(failure.stop) : REASONS[failure.reason].exitStatus;
}

// src/io/report-file.ts
var import_node_fs = require("node:fs");

// src/fs/entry.ts
function systemCode(error) {
  const code = error?.code;
  return typeof code === "string" ? code : void 0;
}
function errorCode(error) {
  return systemCode(error) ?? errorText(error);
}
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

// src/io/report-file.ts
function appendToFile(path, text, write = import_node_fs.writeSync) {
  let fd;
  try {
    fd = (0, import_node_fs.openSync)(path, import_node_fs.constants.O_WRONLY | import_node_fs.constants.O_APPEND | import_node_fs.constants.O_CREAT | import_node_fs.constants.O_NONBLOCK, 438);
  } catch (error) {
    return refused(errorCode(error));
  }
  let before;
  try {
    const stats = (0, import_node_fs.fstatSync)(fd);
    before = stats.isFile() ? stats.size : void 0;
    writeAll(fd, text, write);
    return ok(void 0);
  } catch (error) {
    if (before !== void 0) quietly(() => (0, import_node_fs.ftruncateSync)(fd, before));
    return refused(errorCode(error));
  } finally {
    closeQuietly(fd);
  }
}
function writeAll(fd, text, write) {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) {
    const wrote = write(fd, bytes, done, bytes.length - done, null);
    if (wrote <= 0) throw new Error("the write made no progress");
    done += wrote;
  }
}
function closeQuietly(fd) {
  quietly(() => (0, import_node_fs.closeSync)(fd));
}
function quietly(action) {
  try {
    action();
  } catch {
  }
}

// src/text/github-log.ts
var V1_PREFIX = /##\[/g;
var BROKEN_PREFIX = "#\\u0023[";
var LEADING_COMMAND = /^([\s\u0085]*):(?=:)/;
function inertLog(text) {
  return text.split(/(\r\n|\r|\n)/).map((part) => part.replace(V1_PREFIX, BROKEN_PREFIX).replace(LEADING_COMMAND, "$1\\u003a")).join("");
}
function commandData(value) {
  return visible(value.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A")).replace(V1_PREFIX, BROKEN_PREFIX);
}

// src/action/environment.ts
var ACTION_ONLY = /* @__PURE__ */ new Set([
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_RUNTIME_URL",
  "ACTIONS_CACHE_URL",
  "ACTIONS_RESULTS_URL",
  "ACTIONS_CACHE_SERVICE_V2",
  "ACTIONS_CACHE_MODE",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN"
]);
function commandEnvironment(env) {
  const handed = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === void 0 || ACTION_ONLY.has(name) || name.startsWith("INPUT_")) continue;
    handed[name] = value;
  }
  return handed;
}

// src/cli/flag.ts
var REPORT_KINDS = ["junit=<file>", "github"];
var EXIT_CONTRACTS = ["v1", "v2"];

// src/json/parse.ts
function parseJson(text, label, root = "") {
  const read = readJson(text, label, root);
  if (!read.ok) return read;
  const { value, duplicate } = read.value;
  if (duplicate !== void 0)
    return fail("invalid-json", `${label} gives the key ${JSON.stringify(duplicate.key)} twice (at ${duplicate.at}): which one counts is ambiguous`);
  return ok(value);
}
function readJson(text, label, root = "") {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    const error = jsonSyntaxError(text);
    return fail("invalid-json", `${label} is not valid JSON: ${error.reason} at line ${error.line}, column ${error.column}`);
  }
  const duplicate = findDuplicateKey(text);
  return ok({ value, duplicate: duplicate === void 0 ? void 0 : { key: duplicate.key, at: jsonPath(root, [...duplicate.path, duplicate.key]) } });
}
function isJsonObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
var NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
var ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;
function jsonSyntaxError(text) {
  const at = (offset, reason) => {
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1, reason };
  };
  const stack = [];
  let i = 0;
  let state = "value";
  const skip = () => {
    while (i < text.length && " 	\n\r".includes(text[i])) i++;
  };
  for (; ; ) {
    skip();
    if (i >= text.length) return at(i, "unexpected end");
    const c = text[i];
    if (state === "after") {
      const top = stack[stack.length - 1];
      if (top === void 0) return at(i, "unexpected character after the value");
      if (c === ",") {
        i++;
        state = top === "{" ? "key" : "value";
      } else if (c === "}" && top === "{" || c === "]" && top === "[") {
        stack.pop();
        i++;
      } else return at(i, top === "{" ? "expected ',' or '}'" : "expected ',' or ']'");
      continue;
    }
    if (state === "key") {
      if (c !== '"') return at(i, "expected a string key");
      const end = stringEnd2(i);
      if (typeof end !== "number") return at(end.offset, end.reason);
      i = end;
      skip();
      if (text[i] !== ":") return at(i, "expected ':'");
      i++;
      state = "value";
      continue;
    }
    if (c === "{" || c === "[") {
      stack.push(c);
      i++;
      skip();
      if (text[i] === (c === "{" ? "}" : "]")) {
        stack.pop();
        i++;
        state = "after";
      } else state = c === "{" ? "key" : "value";
      continue;
    }
    if (c === '"') {
      const end = stringEnd2(i);
      if (typeof end !== "number") return at(end.offset, end.reason);
      i = end;
    } else if (text.startsWith("true", i)) i += 4;
    else if (text.startsWith("false", i)) i += 5;
    else if (text.startsWith("null", i)) i += 4;
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) return at(i, "unexpected character");
      i = NUMBER.lastIndex;
    }
    state = "after";
  }
  function stringEnd2(start) {
    for (let j = start + 1; j < text.length; j++) {
      const code = text.charCodeAt(j);
      if (code === 34) return j + 1;
      if (code < 32) return { offset: j, reason: "control character in a string" };
      if (code === 92) {
        ESCAPE.lastIndex = j + 1;
        if (!ESCAPE.test(text)) return { offset: j, reason: "bad escape in a string" };
        j = ESCAPE.lastIndex - 1;
      }
    }
    return { offset: text.length, reason: "unterminated string" };
  }
}
function findDuplicateKey(text) {
  const stack = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      let next = end + 1;
      while (next < text.length && isSpace(text.charCodeAt(next))) next++;
      const top = stack[stack.length - 1];
      if (text.charCodeAt(next) === 58 && top?.keys) {
        const key = JSON.parse(text.slice(i, end + 1));
        if (top.keys.has(key)) return { key, path: stack.slice(0, -1).map((f) => f.keys ? f.key : f.index) };
        top.keys.add(key);
        top.key = key;
      }
      i = end;
    } else if (c === 123) stack.push({ keys: /* @__PURE__ */ new Set(), index: 0, key: "" });
    else if (c === 91) stack.push({ keys: null, index: 0, key: "" });
    else if (c === 125 || c === 93) stack.pop();
    else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top !== void 0 && top.keys === null) top.index++;
    }
  }
  return void 0;
}
function stringEnd(text, start) {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
  }
  return text.length;
}
var isSpace = (c) => c === 32 || c === 9 || c === 10 || c === 13;

// src/text/suggest.ts
function closest(name, known) {
  const target = name.toLowerCase();
  let best;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(target, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = Math.max(1, Math.floor(target.length / 3));
  return bestDistance <= allowed ? best : void 0;
}
function distance(a, b) {
  if (a.length > 64 || b.length > 64) return a === b ? 0 : Infinity;
  let before = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j], before[j - 2] + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

// src/gates/activation.ts
var LOOP_POINTS = [
  "discuss:pre",
  "discuss:post",
  "plan:pre",
  "plan:post",
  "execute:pre",
  "execute:wave:pre",
  "execute:wave:post",
  "execute:post",
  "verify:pre",
  "verify:post",
  "ship:pre",
  "ship:post"
];

// src/cli/gates-run-flags.ts
var GATES_RUN_FLAGS = [
  {
    name: "point",
    hint: "<point>",
    repeatable: true,
    commands: ["gates run"],
    group: "own",
    help: ["the loop point (plan:post, ship:pre, ...); repeat for several"],
    doc: {
      value: "loop point",
      meaning: "the loop point whose gates run: `discuss:pre`, \u2026, `ship:post`. Repeat it for several points in one run, in the order given: every point is evaluated, even after one halts, and the envelope holds them all (one `--point` prints that point's envelope)"
    },
    complete: LOOP_POINTS
  },
  {
    name: "all-points",
    commands: ["gates run"],
    group: "own",
    help: ["instead of --point: GSD's 12 loop points, in loop order"],
    doc: { value: "\u2014", meaning: "instead of `--point`: every one of GSD's 12 loop points, in loop order (`discuss:pre` \u2026 `ship:post`), in one run" }
  },
  {
    name: "reached",
    commands: ["gates run"],
    group: "own",
    help: ["only the points GSD's loop has reached for the phase", "(of --point, --all-points, or all 12): CI on every pull request"],
    doc: {
      value: "\u2014",
      meaning: "of the points given (`--point`, `--all-points`, or all 12 without either), only those GSD's loop has reached for the phase (`--current-phase`, `--phase-number` or `--phase-dir`), read from what GSD's workflows leave: the phase's files and STATE.md (the rule: [gates](gates.md#the-points-gsds-loop-has-reached)). The envelope says what was read, and lists every point not reached with why. With `--current-phase`, a phase that has reached no point yet gives way to the one before it when that one is complete"
    }
  },
  {
    name: "ship",
    commands: ["gates run"],
    group: "own",
    help: ["with --reached: this run is the phase's ship; ship:pre is reached,", "after /gsd-ship's preflight (the phase's verification passed)"],
    doc: {
      value: "\u2014",
      meaning: "with `--reached`: the run is the phase's ship (the pull request GSD's ship step opened, a release branch or tag), so `ship:pre` is reached; GSD records a ship only after it. Its first gate is `/gsd-ship`'s own preflight, `ship-preflight#1`: the phase's VERIFICATION.md must say `status: passed` ([gates](gates.md#the-ships-preflight))"
    }
  },
  {
    name: "builtin",
    commands: ["gates run"],
    group: "own",
    help: ["GSD 1.14's own gates (compiled into its registry), first"],
    doc: {
      value: "\u2014",
      meaning: "GSD 1.14's own gate declarations (the 11 gates its registry compiles in, with the config keys that switch them), before any `--capability`; the way to run GSD's gates without GSD at hand. Where the GSD `gsd_run` would find is another version, a warning names both (`--require-tested-gsd` makes it a failure); capabilities installed in the project or `GSD_HOME` are not among them, and a line says which"
    }
  },
  {
    name: "render",
    commands: ["gates run"],
    group: "own",
    help: ["instead: each point's hooks rendered by the GSD gsd_run finds", "(gsd_run loop render-hooks <point> --raw), its version named"],
    doc: {
      value: "\u2014",
      meaning: "instead of `--hooks` or `--capability`: each point's hooks rendered by the GSD that `gsd_run` would find (the top level's `gsd-core/`, `.claude/`, `.codex/`, then `gsd_run` or `gsd-tools` on `PATH`, then the agents' homes), one `loop render-hooks <point> --raw` per point, in the run's pool; that GSD answers the query gates too, and its version (`runtime-identity`) is in the envelope, the job summary and the JUnit properties. A version gsd-check is not tested with (other than 1.14.x) is warned of"
    }
  },
  {
    name: "require-tested-gsd",
    commands: ["gates run"],
    group: "own",
    help: ["a GSD version gsd-check is not tested with fails the call", "(also GSD_CHECK_REQUIRE_TESTED_GSD=1)"],
    doc: {
      value: "\u2014",
      meaning: "with `--render` or `--builtin`: a GSD that `gsd_run` finds whose version gsd-check is not tested with (1.14.x), or that does not say, fails the call (exit 2) instead of a warning; `GSD_CHECK_REQUIRE_TESTED_GSD=1` does the same"
    }
  },
  {
    name: "capability",
    hint: "<file>",
    repeatable: true,
    commands: ["gates run"],
    group: "own",
    help: ["a capability file; repeat for several, run in order"],
    doc: { value: "path", meaning: "a capability file; repeat for several, run in order. gsd-check resolves activation" },
    complete: "file"
  },
  {
    name: "hooks",
    hint: "<file|->",
    commands: ["gates run"],
    group: "own",
    help: ["instead: the output of gsd_run loop render-hooks <point> --raw", "(its gates are already activated by GSD)"],
    doc: {
      value: "path",
      meaning: "instead of `--capability`: the output of `gsd_run loop render-hooks <point> --raw` (a file, or `-` for standard input); its gates are already activated by GSD"
    },
    complete: "file"
  },
  {
    name: "config",
    hint: "<path>",
    commands: ["gates run"],
    group: "own",
    help: ["project config (default: .planning/config.json)"],
    doc: { value: "path", meaning: "the project config (default: `.planning/config.json` under the project root; a `--config` given explicitly must exist)" },
    complete: "file"
  },
  {
    name: "gsd",
    hint: "<gsd-tools.cjs>",
    commands: ["gates run"],
    group: "own",
    help: ["the GSD that renders the hooks and answers the queries, named", "(default: the one gsd_run finds)"],
    doc: {
      value: "file",
      meaning: "the GSD that decides (`--render`, `--builtin`, the query gates' default), named instead of found where `gsd_run` looks: its `gsd-tools.cjs`, or the `node_modules/.bin/gsd-tools` npm links to it (relative to `--cwd`), as the recipes name the lockfile's GSD. A GSD committed in the repository is then passed over"
    }
  },
  {
    name: "consent",
    hint: "<id|*>",
    repeatable: true,
    commands: ["gates run"],
    group: "own",
    help: ["with --render: a capability of the project's that GSD loads here", "as with its user's consent (GSD keeps none on a runner); * for all"],
    doc: {
      value: "capability id, or `*`",
      meaning: "with `--render`: a capability of the project's `.gsd/capabilities/` that GSD loads in this run as it would with its user's consent on the machine; `*` for every one. GSD keeps consent in the user's home, so on a CI runner it loads none of the project's capabilities and renders none of their gates. Repeat it for several. The consent is written for the run alone, in a home of its own that GSD is pointed at (`GSD_HOME`) and that is removed when the run ends; the user's home is never written. Without it, each project capability GSD does not load is named in a warning and the job summary ([security](../explanation/security.md#a-projects-capabilities-in-ci))"
    }
  },
  {
    name: "query-command",
    hint: "<sh>",
    commands: ["gates run"],
    group: "own",
    help: ["answers query gates (default: GSD_CHECK_QUERY_COMMAND,", 'else gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw', "by the GSD gsd_run finds)"],
    doc: {
      value: "shell command",
      meaning: 'how `query` gates are answered (default: `GSD_CHECK_QUERY_COMMAND`, else `gsd-tools check "$GSD_QUERY" "$PHASE_NUMBER" --raw` by the GSD that `gsd_run` would find, as `--render` finds it)'
    }
  },
  {
    name: "query-timeout",
    hint: "<seconds>",
    commands: ["gates run"],
    group: "own",
    default: 30,
    help: ["a query command's time limit"],
    doc: { value: "seconds", meaning: "a query command's time limit" }
  },
  {
    name: "concurrency",
    hint: "<n>",
    commands: ["gates run"],
    group: "own",
    help: ["gates run at once (default: the number of CPUs)"],
    doc: { value: "whole number", meaning: "how many gates run at once (default: the number of CPUs, never more than the open-descriptor limit allows)" }
  },
  {
    name: "report",
    hint: "<kind>",
    repeatable: true,
    commands: ["gates run"],
    group: "own",
    help: ["also report the gates: junit=<file> (JUnit XML) or github", "(annotations and $GITHUB_STEP_SUMMARY); repeatable"],
    doc: {
      value: "`junit=<file>` or `github`",
      meaning: "also report every gate of the run: `junit=<file>` writes a JUnit XML file (whole or not at all, keeping the mode of a file it replaces; relative to `--cwd`; through a symbolic link, never over a device or a pipe, never out of the project or `--cwd` by a link, never over the file behind stdout or stderr; its missing folders made inside the project or `--cwd`, by the same rules), `github` prints GitHub Actions annotations on stderr and appends a Markdown table to `$GITHUB_STEP_SUMMARY` when it is set. Repeatable, each kind once. A report that cannot be written: the envelope is still printed, exit " + EXIT_WRITE_FAILED
    },
    complete: REPORT_KINDS.map((kind) => kind.replace("<file>", ""))
  }
];

// src/cli/flag-table.ts
var EVAL = ["check predicate", "gates run"];
var DECLARED = [
  {
    name: "predicate",
    hint: "<json>",
    commands: ["check predicate"],
    group: "own",
    help: ["the predicate, as JSON"],
    doc: { value: "JSON", meaning: "the predicate" }
  },
  {
    name: "predicate-file",
    hint: "<path>",
    commands: ["check predicate"],
    group: "own",
    help: ["read the predicate from a file (- for standard input)"],
    doc: { value: "path", meaning: "read the predicate from a file; `-` reads standard input. At most 1 MiB of UTF-8 (a BOM is allowed)" },
    complete: "file"
  },
  ...GATES_RUN_FLAGS,
  {
    name: "json",
    commands: ["validate"],
    group: "own",
    help: ["one JSON document instead of lines"],
    doc: { value: "\u2014", meaning: "one JSON document instead of lines" }
  },
  {
    name: "phase-dir",
    hint: "<dir>",
    commands: EVAL,
    group: "context",
    help: ["value of ${PHASE_DIR}; where artifacts are looked for"],
    doc: {
      value: "text",
      meaning: "the phase directory, relative to the project root (absolute in `${PHASE_DIR}`; refused outside the project root); for `artifact-frontmatter-equals`, searched before the project root"
    },
    complete: "directory"
  },
  {
    name: "phase-number",
    hint: "<n>",
    commands: EVAL,
    group: "context",
    help: ["value of ${PHASE_NUMBER}"],
    doc: {
      value: "text",
      meaning: "value of `${PHASE_NUMBER}` (kept as text: `07` stays `07`; empty is none): a phase id, letters and digits joined by `.`, `_` or `-` (`04`, `4.1`, `12A`, `1-2`, `CK-01`, `PROJ-42`), else a usage error; without `--phase-dir`, `artifact-frontmatter-equals` looks the phase directory up from it, and `gates run` fails on a number with none where a gate past `discuss:pre` reads the phase, or with `--reached` ([gates](gates.md#a-phase-with-no-directory))"
    }
  },
  {
    name: "current-phase",
    commands: EVAL,
    group: "context",
    help: ["instead of --phase-number: the phase .planning/STATE.md names"],
    doc: {
      value: "\u2014",
      meaning: "instead of `--phase-number`: the phase GSD's state names, read from `.planning/STATE.md` (the workstream's under `GSD_WORKSTREAM`) as `gsd-tools state-snapshot` reads it: `current_phase` in its frontmatter, else a `Current Phase:` field, else `Phase: 2 of 4 (Name)` under `## Current Position`, each the id its value starts with, as GSD gives it (`02` stays `02`, `CK-04` is `04`); no `STATE.md`, one that names no phase, or one gsd-check cannot read as GSD does fails the call (exit 2). For CI jobs and hooks, where a phase written into the config goes stale"
    }
  },
  {
    name: "phase-req-ids",
    hint: "<ids>",
    commands: EVAL,
    group: "context",
    help: ["value of ${PHASE_REQ_IDS}"],
    doc: {
      value: "text",
      meaning: "value of `${PHASE_REQ_IDS}`: the requirement text as GSD's plan-phase passes it from the roadmap (`REQ-07,REQ-08`, `REQ-01 (partial), AUTH/01`, `n/a`, `TBD`), passed as data; one line of at most 4096 characters (a control character is a usage error)"
    }
  },
  {
    name: "cwd",
    trimsJoined: true,
    hint: "<dir>",
    commands: EVAL,
    group: "context",
    help: ["where the project-root search starts (default: .)"],
    doc: {
      value: "directory",
      meaning: "where the project-root search starts, and what relative paths on the command line (`--predicate-file`, `--capability`, `--hooks`, `--config`) are taken from (default: the current directory); checked even beside `--project-dir`, as GSD checks it. The value of `--cwd=` is trimmed, as GSD trims it (a path read from a file with CRLF endings)"
    },
    complete: "directory"
  },
  {
    name: "project-dir",
    trimsJoined: true,
    hint: "<dir>",
    commands: EVAL,
    group: "context",
    help: ["the project root itself, no search (must hold .planning/)"],
    doc: {
      value: "directory",
      meaning: "GSD's `--project-dir`: the project root itself, relative to the current directory; no search up from it, so it must hold `.planning/`; over `--cwd` for the root (`--cwd` still bases the other paths). The value of `--project-dir=` is trimmed, as GSD trims it"
    },
    complete: "directory"
  },
  {
    name: "ws",
    hint: "<name>",
    commands: EVAL,
    group: "context",
    help: ["the workstream (default: GSD_WORKSTREAM, else", ".planning/active-workstream); the command gets it", "as GSD_WORKSTREAM"],
    doc: {
      value: "name",
      meaning: "GSD's `--ws`: the workstream (trimmed), over `GSD_WORKSTREAM` (trimmed), over the session's or the project's `.planning/active-workstream` pointer (when anything of its name is in `.planning/workstreams/`, a directory or not, as GSD tests it); a letter or digit, then letters, digits, `.`, `_`, `-`, never `..`, else a usage error. It scopes the phase lookup and the configs, and reaches commands as `GSD_WORKSTREAM`"
    }
  },
  {
    name: "raw",
    commands: EVAL,
    group: "output",
    help: ["the envelope as one compact JSON line"],
    doc: { value: "\u2014", meaning: "print the envelope as one compact JSON line (default: indented by 2 spaces)" }
  },
  {
    name: "pick",
    hint: "<path>",
    commands: EVAL,
    group: "output",
    help: ["print one field (block, message, details.exitCode,", "details.gates[0].status, details.gates[-1], ...)"],
    doc: {
      value: "path",
      meaning: "print one field of the envelope: `block`, `message`, `details.exitCode`, a list item in brackets after its field, negative from the end (`details.gates[0].status`, `details.gates[-1]`), as GSD writes them; strings bare on one line (control characters, newlines included, escaped as `\\n`, `\\x1b`), other values as JSON. A path that no envelope of the kind can have (a `details` field the kind never has, brackets on a single value) is a usage error before anything runs, naming the closest field (`--pick blok`: did you mean `block`?)"
    },
    complete: ["block", "message", "details"]
  },
  {
    name: "exit-code",
    commands: EVAL,
    group: "output",
    help: ["exit 1 when the envelope blocks"],
    doc: { value: "\u2014", meaning: "exit 1 when the envelope blocks" }
  },
  {
    name: "json-errors",
    commands: [...EVAL, "validate"],
    group: "output",
    help: ["report a failed check as one JSON line on stderr"],
    doc: { value: "\u2014", meaning: "report a check failure as one JSON line on stderr; `GSD_JSON_ERRORS=1` in the environment does the same (gsd-tools' switch)" }
  },
  {
    name: "kill-after",
    hint: "<seconds>",
    commands: EVAL,
    group: "output",
    default: 3,
    help: ["grace between SIGTERM and SIGKILL"],
    doc: { value: "seconds", meaning: "grace between SIGTERM and SIGKILL on a timeout or a stop signal; `0` kills at once" }
  },
  {
    name: "exit-contract",
    hint: `<${EXIT_CONTRACTS.join("|")}>`,
    commands: [...EVAL, "validate"],
    group: "output",
    help: ["GSD's exit-code contract (default: GSD_EXIT_CONTRACT, else", "v1); no envelope is DEGRADED, so both exit alike"],
    doc: {
      value: "`v1` or `v2`",
      meaning: "GSD's `--exit-contract` (default: `GSD_EXIT_CONTRACT`, an empty one as unset, else `v1`). v2 changes only a DEGRADED outcome, an answer with an `error` field, which no envelope of gsd-check is: both exit alike. Anything else is a usage error"
    },
    complete: EXIT_CONTRACTS
  },
  {
    name: "help",
    short: "h",
    spellings: ["-?", "--h", "--usage"],
    commands: "any",
    group: "global",
    help: ["show this help (also -?, --h, --usage, anywhere)"],
    doc: {
      value: "\u2014",
      meaning: "print help and exit 0; so do `-?`, `--h` and `--usage`, GSD's other spellings. Any of them anywhere before `--`, even where a value was expected (`--phase-number -h`), is a request for help, answered before anything else on the line is checked"
    }
  },
  {
    name: "version",
    short: "V",
    commands: "any",
    group: "global",
    help: ["show the version"],
    doc: {
      value: "\u2014",
      meaning: "print one line, `gsd-check <version> (source <id>)`, and exit 0; the id is a hash of the files it is built from, not a git commit: `node build-id.mjs` in the source archive or a checkout prints it. A build between releases prints the pre-release `<next patch>-dev` and adds `; unreleased, after <release>` ([Version](#version))"
    }
  }
];
function said(flag) {
  if (flag.default === void 0) return flag;
  const words = ` (default ${flag.default})`;
  const [first = "", ...rest] = flag.help;
  return { ...flag, help: [first + words, ...rest], doc: { ...flag.doc, meaning: flag.doc.meaning + words } };
}
var FLAGS = DECLARED.map(said);
var takes = (flag, command) => flag.commands === "any" || flag.commands.includes(command);

// src/action/inputs.ts
var NOT_INPUTS = /* @__PURE__ */ new Set(["raw", "pick", "json-errors", "help", "version"]);
var DEFAULTS = { "exit-code": "true", report: "github" };
var shapeOf = (flag) => flag.hint === void 0 ? "switch" : flag.repeatable === true ? "list" : "value";
var NO_STDIN = " In the Action, a file only: the step has no standard input, so `-` is refused.";
var ACTION_INPUTS = FLAGS.filter((flag) => takes(flag, "gates run") && !NOT_INPUTS.has(flag.name)).map((flag) => {
  const value = DEFAULTS[flag.name];
  const file = flag.complete === "file";
  const description = `--${flag.name}: ${flag.doc.meaning}.${file && flag.hint?.endsWith("|->") === true ? NO_STDIN : ""}`;
  return { name: flag.name, shape: shapeOf(flag), file, description, ...value === void 0 ? {} : { default: value } };
});
var inputVariable = (name) => `INPUT_${name.toUpperCase()}`;
var TRUE = ["true", "True", "TRUE"];
var FALSE = ["false", "False", "FALSE"];
function undeclaredInput(env) {
  const declared = new Set(ACTION_INPUTS.map((input) => inputVariable(input.name)));
  const stray = Object.keys(env).find((name2) => name2.startsWith("INPUT_") && !declared.has(name2));
  if (stray === void 0) return void 0;
  const name = stray.slice("INPUT_".length).toLowerCase();
  const meant = closest(
    name,
    ACTION_INPUTS.map((input) => input.name)
  );
  return `the input ${JSON.stringify(name)} is not one of this Action's; ${meant === void 0 ? `its inputs are ${ACTION_INPUTS.map((input) => input.name).join(", ")}` : `did you mean ${meant}?`}`;
}
function argvFromInputs(env) {
  const stray = undeclaredInput(env);
  if (stray !== void 0) return fail("usage", stray);
  const argv = ["gates", "run"];
  let annotated = false;
  let exitOnBlock = false;
  for (const input of ACTION_INPUTS) {
    const given = (env[inputVariable(input.name)] ?? "").trim();
    if (given === "") continue;
    if (input.shape === "switch") {
      if (TRUE.includes(given)) {
        argv.push(`--${input.name}`);
        if (input.name === "exit-code") exitOnBlock = true;
      } else if (!FALSE.includes(given)) return fail("usage", `the input ${input.name} is ${JSON.stringify(given)}; it takes true or false`);
      continue;
    }
    const values = input.shape === "list" ? given.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "") : [given];
    for (const value of values) {
      if (input.file && value === "-") return fail("usage", `the input ${input.name} is "-", standard input, which a step does not have; give a file`);
      if (input.name === "report" && value === "github") annotated = true;
      argv.push(`--${input.name}=${value}`);
    }
  }
  return ok({ argv: [...argv, "--raw"], annotated, exitOnBlock });
}

// src/action/outputs.ts
function actionOutputs(stdout) {
  const parsed = parseJson(stdout, "the envelope");
  if (!parsed.ok || !isJsonObject(parsed.value) || typeof parsed.value.block !== "boolean" || typeof parsed.value.message !== "string") return void 0;
  const { block, message, details } = parsed.value;
  return { block: String(block), message, halted: haltedGates(details).join("\n"), envelope: JSON.stringify(parsed.value) };
}
function haltedGates(details) {
  if (!isJsonObject(details)) return [];
  const points = details.kind === "points" && Array.isArray(details.points) ? details.points : [details];
  return points.flatMap((point) => {
    if (!isJsonObject(point) || !Array.isArray(point.gates)) return [];
    if (typeof point.reason === "string") return [`${String(point.point)} not-evaluated`];
    return point.gates.flatMap(
      (gate) => isJsonObject(gate) && gate.status === "halt" ? [`${String(point.point)} ${String(gate.capability)}#${String(gate.index)}`] : []
    );
  });
}
function outputFileText(outputs, delimiter) {
  return Object.entries(outputs).map(([name, value]) => {
    let end = delimiter();
    while (value.includes(end)) end = delimiter();
    return `${name}<<${end}
${value}
${end}
`;
  }).join("");
}

// src/action/main.ts
var TAIL = 4096;
var PREFIX = "gsd-check: ";
function failStep(status, message) {
  const text = message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
  process.stdout.write(`::error title=gsd-check::${commandData(text)}
`);
  process.exitCode = status;
}
var withoutVerdict = (status) => status > 128 ? status : EXIT_FAILURE;
var withVerdict = (status, block, exitOnBlock) => block && exitOnBlock && status === 0 ? EXIT_NO : status;
function main() {
  const run = argvFromInputs(process.env);
  if (!run.ok) return failStep(exitStatusOf(run.failure), run.failure.message);
  const program = (0, import_node_path.join)(__dirname, "gsd-check");
  if (!(0, import_node_fs2.existsSync)(program)) return failStep(EXIT_FAILURE, `${program} is missing: the Action's copy needs action.yml and all of dist/`);
  const child = (0, import_node_child_process.spawn)(process.execPath, [program, ...run.value.argv], { stdio: ["ignore", "pipe", "pipe"], env: commandEnvironment(process.env) });
  const stdout = [];
  let tail = "";
  child.stdout.on("data", (chunk) => stdout.push(chunk));
  child.stderr.on("data", (chunk) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString("utf8")).slice(-TAIL);
  });
  const forward = (signal) => {
    child.kill(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  child.on("error", (error) => failStep(EXIT_FAILURE, `cannot start gsd-check: ${error.message}`));
  child.on("close", (code, signal) => {
    const status = code ?? 128 + (import_node_os.constants.signals[signal ?? "SIGTERM"] ?? import_node_os.constants.signals.SIGTERM);
    const outputs = actionOutputs(Buffer.concat(stdout).toString("utf8"));
    if (outputs === void 0) {
      const reason = tail.split("\n").filter((line) => line.startsWith(PREFIX)).at(-1) ?? `gsd-check exited ${status} without a verdict`;
      return failStep(withoutVerdict(status), reason);
    }
    process.stdout.write(inertLog(`${PREFIX}${visible(outputs.message)}
`));
    const file = process.env.GITHUB_OUTPUT;
    if (file !== void 0 && file !== "") {
      const appended = appendToFile(
        file,
        outputFileText(outputs, () => `gsd-check-${(0, import_node_crypto.randomUUID)()}`)
      );
      if (!appended.ok) return failStep(EXIT_WRITE_FAILED, `cannot write the step's outputs to GITHUB_OUTPUT ${file}: ${appended.failure}`);
    }
    const stepStatus = withVerdict(status, outputs.block === "true", run.value.exitOnBlock);
    if (stepStatus === EXIT_NO && !run.value.annotated) return failStep(stepStatus, outputs.message);
    process.exitCode = stepStatus;
  });
}
main();
