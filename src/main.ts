import { setMaxListeners } from 'node:events';
import { fstatSync, readFileSync } from 'node:fs';
import { defaultsFromEnv, parseCommandLine, wantsJsonErrors, type Action } from './cli/command-line.ts';
import { checkPredicate } from './commands/check-predicate.ts';
import type { CliDeps } from './commands/deps.ts';
import { commandSupported } from './commands/platform.ts';
import { gatesRun } from './commands/gates-run/command.ts';
import { completionScript, commandHelp, helpText, schemaText } from './cli/help.ts';
import { failureReply, stoppedReply, type Reply } from './commands/reply.ts';
import { validate } from './commands/validate.ts';
import { isReadableDirectory } from './fs/entry.ts';
import { openFileLimit } from './fs/read.ts';
import { readInput } from './io/input.ts';
import { makeEmitter } from './io/output.ts';
import { appendToFile, type FileId, replaceFile } from './io/report-file.ts';
import { EXIT_INTERNAL, EXIT_WRITE_FAILED, Stop, STOP_SIGNALS, stopOf } from './failure.ts';
import { colourWanted } from './report/table.ts';
import { systemRunner } from './run/runner.ts';
import { githubEnvironment } from './report/github-environment.ts';
import { inertLog } from './text/github-log.ts';

// Where the program meets its process: argv, environment, standard streams,
// signals and the exit status are read and set here, and handed to the rest
// as plain values. (run/ still signals process groups, time.ts reads the
// monotonic clock, launch.ts runs before this file.)

declare const GSD_CHECK_VERSION: string;
// The release a build between releases follows; empty in a release's build
// (release/built-version.mjs).
declare const GSD_CHECK_AFTER: string;
declare const GSD_CHECK_SOURCE_ID: string;

async function main(argv: readonly string[]): Promise<Reply> {
  const defaults = defaultsFromEnv(process.env);
  const parsed = parseCommandLine(argv, defaults);
  if (!parsed.ok) return failureReply(parsed.failure, wantsJsonErrors(argv, defaults));
  const action = parsed.value;
  if (action.action === 'help') return { exitCode: 0, stdout: action.command === undefined ? helpText() : commandHelp(action.command), stderr: '' };
  if (action.action === 'completion') return { exitCode: 0, stdout: completionScript(action.shell), stderr: '' };
  if (action.action === 'schema') {
    const text = schemaText(action.name);
    return text.ok ? { exitCode: 0, stdout: text.value, stderr: '' } : failureReply(text.failure, defaults.jsonErrors);
  }
  if (action.action === 'version') return { exitCode: 0, stdout: `${version()}\n`, stderr: '' };
  const run = systemRunner(process.env.GSD_CHECK_SPAWN, isStandalone);
  if (!run.ok) return failureReply(run.failure, action.options.jsonErrors);

  // A stop signal ends the commands' process groups (SIGTERM, then SIGKILL
  // after --kill-after), and gsd-check then exits 128+N; a second one kills
  // the groups at once. The default action, which would leave the groups
  // running, stays off meanwhile.
  const stop = new AbortController();
  const force = new AbortController();
  const onStop = (name: NodeJS.Signals): void => {
    if (!stop.signal.aborted) stop.abort(new Stop(name));
    else force.abort(new Stop(name));
  };
  for (const name of STOP_SIGNALS) process.on(name, onStop);
  // Each running command and each read listens on these: a point with eleven
  // or more gates at once is normal, not a leak.
  setMaxListeners(0, stop.signal, force.signal);
  try {
    const reply = await dispatch(action, {
      run: run.value,
      readInput: async (path, label) => {
        try {
          return await readInput(path, label, { stdin: () => process.stdin, signal: stop.signal });
        } finally {
          if (path === '-') process.stdin.destroy();
        }
      },
      cwd: () => process.cwd(),
      // GSD's, as os.homedir() gives it: HOME, else (HOME unset) the user's
      // entry in the password database; node:os is loaded only then.
      home: process.env.HOME ?? (require('node:os') as typeof import('node:os')).homedir(),
      uid: process.getuid?.(),
      env: process.env,
      github,
      canEnter: isReadableDirectory,
      warn: (line) => writeStderr(`${line}\n`),
      signal: stop.signal,
      force: force.signal,
    });
    // A stop that came while no command ran (reading a file, parsing one)
    // still stops: no verdict may follow a stop signal.
    const stopped = stopOf(stop.signal);
    return stopped === undefined ? reply : stoppedReply(stopped);
  } finally {
    for (const name of STOP_SIGNALS) process.off(name, onStop);
  }
}

// The source id (build-id.mjs) lets a site match a file to its source; a
// build between releases names the release it follows, which its version,
// a pre-release of a release not yet made, does not say to a reader; a
// standalone build also names the Node it carries: that is what a user
// checks after copying one onto a machine without Node. One line, as node,
// npm and git answer, so $(gsd-check --version) is the whole answer; what
// the id is (not a git commit: the commit holds the bundle, so the bundle
// cannot name it) is in --help and install.md.
function version(): string {
  const notes = [`source ${GSD_CHECK_SOURCE_ID}`];
  if (GSD_CHECK_AFTER !== '') notes.push(`unreleased, after ${GSD_CHECK_AFTER}`);
  if (isStandalone()) notes.push(`standalone build: Node ${process.version} ${process.platform}-${process.arch}`);
  return `gsd-check ${GSD_CHECK_VERSION} (${notes.join('; ')})`;
}

function isStandalone(): boolean {
  try {
    return (require('node:sea') as { isSea(): boolean }).isSea();
  } catch {
    // node:sea is missing before Node 20.12: not a standalone build either.
    return false;
  }
}

async function dispatch(action: Exclude<Action, { action: 'help' | 'version' | 'completion' | 'schema' }>, deps: CliDeps): Promise<Reply> {
  const supported = commandSupported(process.platform, action.action);
  if (!supported.ok) return failureReply(supported.failure, action.options.jsonErrors);
  switch (action.action) {
    case 'check-predicate':
      return checkPredicate(action.options, deps);
    case 'validate':
      return validate(action.options, deps);
    case 'gates-run': {
      // Loaded here only: node:os costs every other command start-up time.
      // require, not import(): a single-executable build with a code cache
      // cannot import().
      const { availableParallelism } = require('node:os') as typeof import('node:os');
      const { isatty } = require('node:tty') as typeof import('node:tty');
      const write = (line: string): void => writeStderr(`${line}\n`);
      return gatesRun(action.options, {
        ...deps,
        cpus: availableParallelism(),
        fdLimit: openFileLimit(
          () => readFileSync('/proc/self/limits', 'latin1'),
          () => process.report?.getReport(),
        ),
        progress: isatty(2) ? write : undefined,
        writeFile: (target, text) => replaceFile(target, text, { pid: process.pid, streams: standardStreams() }),
        appendFile: (path, text) => appendToFile(path, text),
        terminal: isatty(1) ? { colour: colourWanted(process.env), columns: process.stdout.columns || undefined } : undefined,
      });
    }
  }
}

// The files behind standard output and error, for replaceFile to refuse: a
// report renamed over the file the envelope goes to would replace the
// envelope.
function standardStreams(): FileId[] {
  return (
    [
      [1, 'standard output'],
      [2, 'standard error'],
    ] as const
  ).flatMap(([fd, name]) => {
    try {
      const { dev, ino } = fstatSync(fd);
      return [{ dev, ino, name }];
    } catch {
      return [];
    }
  });
}

const emit = makeEmitter((fd) => (fd === 1 ? process.stdout : process.stderr));

const github = githubEnvironment(process.env);

// Under GitHub Actions the runner reads workflow commands in the log: what
// gsd-check prints there, but the commands it means, can carry none. A
// --pick value too: the recipes print one straight into the log, where a
// phase's file could otherwise write annotations or stop the runner reading
// commands (docs/reference/environment.md says how to take the value whole).
const shown: (text: string) => string = github.actions ? inertLog : (text) => text;

const writeStderr = (text: string): void => emit(2, shown(text), () => {});

// A failed write loses the envelope, and exit 0 would say there is one: a
// full disk, /dev/full, EIO, and a reader that closed the pipe before taking
// it (EPIPE; a program killed by SIGPIPE there exits non-zero too).
function writeStdout(text: string): void {
  emit(1, shown(text), (code) => {
    writeStderr(`gsd-check: cannot write the output: ${code}\n`);
    process.exitCode = EXIT_WRITE_FAILED;
  });
}

main(process.argv.slice(2)).then(
  (reply) => {
    process.exitCode = reply.exitCode;
    if (reply.stdout !== '') writeStdout(reply.stdout);
    if (reply.workflowCommands !== undefined && reply.workflowCommands !== '') emit(2, reply.workflowCommands, () => {});
    if (reply.stderr !== '') writeStderr(reply.stderr);
  },
  (error: unknown) => {
    writeStderr(`gsd-check: internal error (a bug; please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT_INTERNAL;
  },
);
