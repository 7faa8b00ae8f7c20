// Types for rebuild-steps.mjs (plain JavaScript, run by release.mjs without a build).
export const REBUILD_PAGE: string;
export function rebuildSteps(page: string): { rebuild: string; check: { commands: string[]; expected: string } };
export function runRebuild(
  page: string,
  options: { release: string; cwd: string; env: NodeJS.ProcessEnv; stdio?: 'inherit' | 'pipe' | 'ignore' },
): { status: number | string | null; tree: string | undefined; cache: string | undefined; output: string; expected: string };
