// Types for sums.mjs (plain JavaScript, run by release.mjs without a build).
export const NAMESPACE: string;
export const UNSIGNED_NOTE: string;
export function writeSums(dir: string, names: readonly string[], key: string | undefined): { sums: string; said: string };
export function sumsText(dir: string, names: readonly string[]): string;
