// Types for artefacts.mjs (plain JavaScript, run by release.mjs without a build).
export const TARGETS: readonly string[];
export const RELEASE_DIR: string;
export const BUILT: readonly { readonly name: string; readonly path: string }[];
export function releaseNames(name: string, version: string): { tarball: string; sbom: string; source: string; packages: string };
