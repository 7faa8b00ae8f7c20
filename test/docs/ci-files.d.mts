// Types for ci-files.mjs (plain JavaScript, shared with compat/).
export interface CiFile {
  readonly kind: string;
  readonly path: string;
  readonly text: string;
  readonly line: number;
}
export interface CiRun {
  readonly path: string;
  // The event a GitHub workflow runs for, as the block names it (github-runner.mjs eventOf).
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
