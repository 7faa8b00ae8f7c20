// Types for packages.mjs (plain JavaScript, run by release.mjs without a build).
export interface Lockfile {
  readonly lockfile: string;
  readonly os: string;
  readonly cpu: string;
}
export interface NeededPackage {
  readonly name: string;
  readonly version: string;
  readonly resolved: string;
  readonly integrity: string;
  readonly file: string;
}
export const LOCKFILES: readonly Lockfile[];
export function neededPackages(root: string, lockfiles?: readonly Lockfile[]): NeededPackage[];
export function collectPackages(needed: readonly NeededPackage[], dest: string, npm: (args: string[]) => string): void;
export function offlineEnv(cache: string, env?: NodeJS.ProcessEnv): Record<string, string | undefined>;
export function seedCache(dir: string, files: readonly string[], env: NodeJS.ProcessEnv): void;
