// Types for doc-examples.mjs (plain JavaScript, shared with compat/).
export interface Command {
  readonly line: number;
  readonly text: string;
  readonly expected: readonly string[];
}
export type Step =
  | { readonly setup: string; readonly line: number }
  | { readonly setup?: undefined; readonly commands: readonly Command[]; readonly mode: 'run' | 'gsd' | 'no-gsd' | 'skip'; readonly line: number };
export const SHOWN_ROOT: string;
export function docFiles(root: string): string[];
export function parseDoc(text: string): Step[];
export function normalise(text: string, dirs: ReadonlyArray<readonly [string, string]>): string;
export function runDoc(
  steps: readonly Step[],
  options: { bin: string; env?: Record<string, string>; modes?: ReadonlyArray<'run' | 'gsd' | 'no-gsd'>; timeoutMs?: number },
): Promise<{ expected: string; actual: string }>;
export function binDir(parent: string, gsdCheck: string, scripts?: Record<string, string>): string;
export function docText(root: string, file: string): string;
export function machinePath(): string[];
