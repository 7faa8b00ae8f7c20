// Types for docs.mjs (plain JavaScript, run by release.mjs without a build).
export function releaseDocs(root: string): string[];
