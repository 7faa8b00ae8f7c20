// Types for tags.mjs (plain JavaScript, run by release.mjs without a build).
export function tagConflict(repo: string, commit: string, version: string): string | undefined;
export function tagRelease(repo: string, commit: string, version: string, title: string, env?: NodeJS.ProcessEnv): { said: string[]; push: string[] };
