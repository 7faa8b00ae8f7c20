import type { Result } from '../failure.ts';
import type { ReadInput } from '../io/input.ts';
import type { ReportTarget } from '../io/report-file.ts';
import type { GithubEnvironment } from '../report/github-environment.ts';
import type { TableStyle } from '../report/table.ts';
import type { Runner } from '../run/runner.ts';

// What the commands need from the world; main.ts wires the real ones, tests
// inject their own. Every member is required, undefined where the world has
// none, so that a wiring slip is a type error, never a dropped report.
export interface CliDeps {
  readonly run: Runner;
  // Reads a file's bytes, "-" meaning standard input (io/input.ts).
  readonly readInput: ReadInput;
  readonly cwd: () => string;
  readonly home: string | undefined;
  // Who we run as, for the ownership rule of the root search (undefined
  // where the platform has no owners).
  readonly uid: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  // GitHub's part of it, read once (report/github-environment.ts).
  readonly github: GithubEnvironment;
  // Whether we may list and enter a directory; the file system's answer
  // unless a test stands in, since as root every directory is enterable.
  readonly canEnter: (dir: string) => boolean;
  // A stop signal, and a second one that kills at once.
  readonly signal: AbortSignal;
  readonly force: AbortSignal;
  // Warnings for stderr (a skipped gate, an ignored session pointer),
  // whether or not it is a terminal.
  readonly warn: (line: string) => void;
}

// What gates run needs besides: how many gates may run at once, and what
// it prints and writes beside the envelope.
export interface GatesDeps extends CliDeps {
  readonly cpus: number;
  // The soft limit on open descriptors, when known: it bounds the gates run at once.
  readonly fdLimit: number | undefined;
  // Set when stderr is a terminal: one line per finished gate.
  readonly progress: ((line: string) => void) | undefined;
  // Set when stdout is a terminal: the point's gates as a table instead of
  // the indented envelope.
  readonly terminal: TableStyle | undefined;
  // Replace a report file whole, so that a reader never sees half of it,
  // and only where it was meant to go; append to one whole or not at all.
  // Each fails with why it wrote nothing.
  readonly writeFile: (target: ReportTarget, text: string) => Result<void, string>;
  readonly appendFile: (path: string, text: string) => Result<void, string>;
}
