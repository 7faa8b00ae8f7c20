import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { errorCode, isOutOfDescriptors, contains } from '../fs/entry.ts';

// The calls the search makes: node:fs, or a stand-in that fails as a system
// can (EMFILE) for tests.
export interface SearchFs {
  readonly lstatSync: typeof lstatSync;
  readonly readdirSync: typeof readdirSync;
  readonly realpathSync: typeof realpathSync;
  readonly statSync: typeof statSync;
}

// Named imports: a namespace import of node:fs copies every export at start-up
// (esbuild's __toESM), which runs its lazy getters and loads internal modules.
const nodeFs: SearchFs = { lstatSync, readdirSync, realpathSync, statSync };

// Where an artifact named `name` lives under `dir`, in the order GSD looks:
// `dir/name`, `dir/.planning/name`, then the first file in `dir` named `name`
// or ending with `-name` (`03-SECURITY.md`), in the order the system lists
// them, as GSD takes them (Linux: by the bytes of the name, so
// `\uff01-X` comes before `\u{1f600}-X`, which a sort of JavaScript strings
// reverses). A listed name that cannot be looked at (a name that is not
// UTF-8, one gone since the listing) ends that step with nothing found, as
// it ends GSD's. Only regular files count, and nothing that resolves outside
// `dir` (a symlink out of it).
// A path that cannot be looked at is not the artifact, unless the reason is
// a lack of descriptors: then nothing is known, and the search fails. The
// artifact comes with `dir`'s real path, which a read of it must stay within.
export function findArtifact(dir: string, name: string, io: SearchFs = nodeFs): Result<{ path: string; within: string } | undefined> {
  try {
    return ok(search(dir, name, io));
  } catch (error) {
    const code = errorCode(error);
    if (!isOutOfDescriptors(code)) throw error;
    return fail('resource-limit', `cannot search ${dir} for ${name}: ${code}`);
  }
}

function search(dir: string, name: string, io: SearchFs): { path: string; within: string } | undefined {
  const root = real(dir, io);
  if (root === undefined) return undefined;
  for (const candidate of [join(dir, name), join(dir, '.planning', name)]) {
    if (namedExactly(candidate, io) && isContainedFile(candidate, root, io)) return { path: candidate, within: root };
  }
  const entries = attempt(() => io.readdirSync(dir)) ?? [];
  const suffix = `-${name}`;
  for (const entry of entries.filter((e) => e === name || e.endsWith(suffix))) {
    const candidate = join(dir, entry);
    if (attempt(() => io.lstatSync(candidate)) === undefined) return undefined;
    if (isContainedFile(candidate, root, io)) return { path: candidate, within: root };
  }
  return undefined;
}

function isContainedFile(path: string, root: string, io: SearchFs): boolean {
  return (
    attempt(() => {
      const link = io.lstatSync(path);
      if (!link.isFile() && !link.isSymbolicLink()) return false;
      const target = real(path, io);
      if (target === undefined || !io.statSync(target).isFile()) return false;
      return target !== root && contains(root, target);
    }) ?? false
  );
}

function real(path: string, io: SearchFs): string | undefined {
  return attempt(() => io.realpathSync(path));
}

// On a case-insensitive file system (macOS, Windows) `security.md` opens as
// `SECURITY.md`; the search takes only the name as written, as the
// directory-listing step below does and as Linux would.
function namedExactly(path: string, io: SearchFs): boolean {
  return attempt(() => io.readdirSync(dirname(path)).includes(basename(path))) ?? false;
}

// The call's answer, or undefined when the system said the path is not a
// usable artifact (missing, denied, a loop). Out of descriptors, or an error
// that is no system error (a bug), goes up.
function attempt<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || isOutOfDescriptors(code)) throw error;
    return undefined;
  }
}
