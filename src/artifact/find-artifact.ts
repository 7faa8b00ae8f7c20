import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { contains, isOutOfDescriptors, systemCode } from '../fs/entry.ts';

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
export function findArtifact(dir: string, name: string, io: SearchFs = nodeFs): Result<Found | undefined> {
  const found = search(dir, name, io);
  return found.ok ? found : fail('resource-limit', `cannot search ${dir} for ${name}: ${found.failure.message}`);
}

interface Found {
  readonly path: string;
  readonly within: string;
}

// What a file-system call told: its answer, undefined when the path is not a
// usable artifact (missing, denied, a loop), or, out of descriptors, a
// resource-limit failure whose message is the code: then nothing is known
// and the search stops.
type Probe<T> = Result<T | undefined>;

const NONE = ok(undefined);
const known = <T>(value: T): Probe<T> => ok(value);

function search(dir: string, name: string, io: SearchFs): Probe<Found> {
  const root = real(dir, io);
  if (!root.ok) return root;
  if (root.value === undefined) return NONE;
  const within = root.value;
  for (const candidate of [join(dir, name), join(dir, '.planning', name)]) {
    const exact = namedExactly(candidate, io);
    if (!exact.ok) return exact;
    if (!exact.value) continue;
    const file = isContainedFile(candidate, within, io);
    if (!file.ok) return file;
    if (file.value === true) return known({ path: candidate, within });
  }
  const entries = attempt(() => io.readdirSync(dir));
  if (!entries.ok) return entries;
  const suffix = `-${name}`;
  for (const entry of (entries.value ?? []).filter((e) => e === name || e.endsWith(suffix))) {
    const candidate = join(dir, entry);
    const link = attempt(() => io.lstatSync(candidate));
    if (!link.ok || link.value === undefined) return link.ok ? NONE : link;
    const file = isContainedFile(candidate, within, io);
    if (!file.ok) return file;
    if (file.value === true) return known({ path: candidate, within });
  }
  return NONE;
}

function isContainedFile(path: string, root: string, io: SearchFs): Probe<boolean> {
  const link = attempt(() => io.lstatSync(path));
  if (!link.ok) return link;
  if (link.value === undefined) return known(false);
  if (!link.value.isFile() && !link.value.isSymbolicLink()) return known(false);
  const target = real(path, io);
  if (!target.ok) return target;
  if (target.value === undefined) return known(false);
  const at = target.value;
  const file = attempt(() => io.statSync(at).isFile());
  if (!file.ok) return file;
  return known(file.value === true && contains(root, at));
}

function real(path: string, io: SearchFs): Probe<string> {
  return attempt(() => io.realpathSync(path));
}

// On a case-insensitive file system (macOS, Windows) `security.md` opens as
// `SECURITY.md`; the search takes only the name as written, as the
// directory-listing step below does and as Linux would.
function namedExactly(path: string, io: SearchFs): Probe<boolean> {
  const listing = attempt(() => io.readdirSync(dirname(path)));
  return listing.ok ? known(listing.value?.includes(basename(path)) === true) : listing;
}

// A call whose error is no system error (a bug) throws on.
function attempt<T>(call: () => T): Probe<T> {
  try {
    return known(call());
  } catch (error) {
    const code = systemCode(error);
    if (code === undefined) throw error;
    return isOutOfDescriptors(code) ? fail('resource-limit', code) : NONE;
  }
}
