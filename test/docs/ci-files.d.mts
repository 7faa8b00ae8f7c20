// Types for ci-files.mjs (plain JavaScript, shared with compat/).
export interface CiFile {
  readonly kind: string;
  readonly path: string;
  readonly text: string;
  readonly line: number;
}
export interface CiRun {
  readonly path: string;
  // The file the run is of: the last ci-file at its path before it.
  readonly file: CiFile;
  // The event a GitHub workflow runs for (github-runner.mjs eventOf), or a GitLab job's variables, as the block names them.
  readonly event: readonly string[];
  readonly script: string;
  readonly expected: string;
  readonly line: number;
}
export interface CiCopy {
  readonly placeholder: string;
  readonly script: string;
  readonly line: number;
}
export function ciBlocks(text: string): { files: CiFile[]; runs: CiRun[]; copies: CiCopy[] };
