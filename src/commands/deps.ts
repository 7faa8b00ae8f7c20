import type { Result } from '../failure.ts';
import type { TableStyle } from '../report/table.ts';
import type { Runner } from '../run/runner.ts';

// What the commands need from the world; main.ts wires the real ones, tests
// inject their own.
export interface CliDeps {
  readonly run: Runner;
  // Reads a text file, "-" meaning standard input; `label` names it in errors.
  readonly readFile: (path: string, label: string) => Promise<Result<string>>;
  readonly cwd: () => string;
  readonly home: string | undefined;
  // Who we run as, for the ownership rule of the root search (undefined
  // where the platform has no owners).
  readonly uid?: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  // Whether we may list and enter a directory; the file system's answer
  // unless a test stands in, since as root every directory is enterable.
  readonly canEnter?: ((dir: string) => boolean) | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly force?: AbortSignal | undefined;
  readonly cpus?: number;
  // The soft limit on open descriptors, when known: it bounds the gates run at once.
  readonly fdLimit?: number | undefined;
  // Set when stderr is a terminal: one line per finished gate.
  readonly progress?: ((line: string) => void) | undefined;
  // Warnings for stderr (a skipped gate), whether or not it is a terminal.
  readonly warn?: ((line: string) => void) | undefined;
  // Set when stdout is a terminal: the point's gates as a table instead of
  // the indented envelope.
  readonly terminal?: TableStyle | undefined;
  // Replace a file whole, so that a reader never sees half of it; append
  // to one. Each gives the error code when it could not.
  readonly writeFile?: ((path: string, text: string) => string | undefined) | undefined;
  readonly appendFile?: ((path: string, text: string) => string | undefined) | undefined;
}

export interface Outcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}
