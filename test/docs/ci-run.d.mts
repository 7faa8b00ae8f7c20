// Types for ci-run.mjs (plain JavaScript, shared with compat/).
import type { CiFile, CiRun } from './ci-files.mjs';
export function runCiFile(
  page: { readonly text: string; readonly files: readonly CiFile[] },
  run: CiRun,
  options: { root: string; bin: string; substitute?: (step: Record<string, unknown>, where: { workspace: string }) => string | undefined },
): Promise<string>;
