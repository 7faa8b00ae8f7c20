import { jsonErrorsFromEnv, parseArgs, wantsJsonErrors, type Action } from './cli/args.ts';
import { checkPredicate } from './cli/check-predicate.ts';
import type { CliDeps, Outcome } from './cli/deps.ts';
import { gatesRun } from './cli/gates-run.ts';
import { HELP } from './cli/help.ts';
import { failureOutcome } from './cli/outcome.ts';
import { validate } from './cli/validate.ts';
import { readTextFile } from './io/read-input.ts';
import { runCommand } from './run/runner.ts';

// The only module that touches `process`: argv, environment, standard
// streams, signals and the exit status.

declare const GSD_CHECK_VERSION: string;

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

async function main(argv: readonly string[]): Promise<Outcome> {
  const defaults = jsonErrorsFromEnv(process.env);
  const parsed = parseArgs(argv, defaults);
  if (!parsed.ok) return failureOutcome(parsed.failure, wantsJsonErrors(argv, defaults));
  const action = parsed.value;
  if (action.action === 'help') return { exitCode: 0, stdout: HELP, stderr: '' };
  if (action.action === 'version') return { exitCode: 0, stdout: `${version()}\n`, stderr: '' };

  // A stop signal ends the commands' process groups (SIGTERM, then SIGKILL
  // after --kill-after), and gsd-check then exits 128+N; a second one kills
  // the groups at once. The default action, which would leave the groups
  // running, stays off meanwhile.
  const stop = new AbortController();
  const force = new AbortController();
  const onStop = (name: NodeJS.Signals): void => {
    if (!stop.signal.aborted) stop.abort(name);
    else force.abort(name);
  };
  for (const name of STOP_SIGNALS) process.on(name, onStop);
  try {
    return await dispatch(action, {
      run: runCommand,
      readFile: async (path, label) => {
        try {
          return await readTextFile(path, label, { stdin: () => process.stdin, signal: stop.signal });
        } finally {
          if (path === '-') process.stdin.destroy();
        }
      },
      cwd: () => process.cwd(),
      home: process.env.HOME,
      env: process.env,
      signal: stop.signal,
      force: force.signal,
    });
  } finally {
    for (const name of STOP_SIGNALS) process.off(name, onStop);
  }
}

// A standalone build says so, with the Node it carries: that is what a user
// checks after copying one onto a machine without Node.
function version(): string {
  let standalone = false;
  try {
    standalone = (require('node:sea') as { isSea(): boolean }).isSea();
  } catch {
    // node:sea is missing before Node 20.12: not a standalone build either.
  }
  return standalone
    ? `gsd-check ${GSD_CHECK_VERSION} (standalone build: Node ${process.version} ${process.platform}-${process.arch})`
    : `gsd-check ${GSD_CHECK_VERSION}`;
}

async function dispatch(action: Exclude<Action, { action: 'help' | 'version' }>, deps: CliDeps): Promise<Outcome> {
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
      const write = (line: string): void => void process.stderr.write(`${line}\n`);
      return gatesRun(action.options, {
        ...deps,
        cpus: availableParallelism(),
        progress: process.stderr.isTTY ? write : undefined,
        warn: write,
      });
    }
  }
}

// A reader that went away (`gsd-check … | head -c 1`) is not an error of ours.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

main(process.argv.slice(2)).then(
  (outcome) => {
    if (outcome.stdout !== '') process.stdout.write(outcome.stdout);
    if (outcome.stderr !== '') process.stderr.write(outcome.stderr);
    process.exitCode = outcome.exitCode;
  },
  (error: unknown) => {
    process.stderr.write(`gsd-check: internal error (a bug; please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
