// Types for built-version.mjs (plain JavaScript, run by build.mjs and release.mjs without a build).
export function builtVersion(root: string): { version: string; after: string | undefined };
