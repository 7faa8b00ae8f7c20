import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

// Where V8's code cache of the program lives and what a cache file must hold
// to be used. A cache file is code: whoever can write one chooses what runs,
// and V8 checks its data only against the source's length; the header that
// readCache compares is no secret either. So the cache is used only where
// nothing but this user (or root) could have put a file: a directory of this
// user's, reached by no link or directory anyone else could change, and
// never under CI, where folders are filled from caches, artifacts and
// archives that this run did not write (docs/explanation/security.md).

// The variables that say a CI job runs, each with the services that set it in
// every job, as their documentation says: most set CI, and those that do not
// set one of their own. docs/explanation/security.md names them all (a test
// holds it to this list). A service missing here runs with the cache, as a
// laptop does.
export const CI_VARIABLES: Readonly<Record<string, string>> = {
  CI: 'GitHub Actions, GitLab CI/CD, CircleCI, Travis CI, Bitbucket Pipelines, Buildkite, Drone, Woodpecker, AppVeyor, Semaphore, Cirrus CI, Codemagic, Bitrise',
  TF_BUILD: 'Azure Pipelines',
  JENKINS_URL: 'Jenkins',
  BUILD_ID: 'Jenkins',
  HUDSON_URL: 'Hudson',
  TEAMCITY_VERSION: 'TeamCity',
  BUILDKITE: 'Buildkite',
  CODEBUILD_BUILD_ARN: 'AWS CodeBuild',
  bamboo_planKey: 'Bamboo',
  GO_PIPELINE_LABEL: 'GoCD',
  BUILDER_OUTPUT: 'Google Cloud Build',
  HARNESS_BUILD_ID: 'Harness CI',
};

// Why the cache is off for this environment (the variable that turns it
// off), or undefined when it may be used. Any non-empty value counts,
// CI=false too: a wrong guess costs only start-up time.
export function cacheOff(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return 'NODE_DISABLE_COMPILE_CACHE';
  return Object.keys(CI_VARIABLES).find((name) => env[name]);
}

// The cache directory, <XDG_CACHE_HOME or HOME/.cache>/gsd-check, or
// undefined when none can be trusted: the cache off, no POSIX owner to check
// (Windows), no absolute home, a link on the way that is not this user's or
// root's, the cache home directly in a directory others may write (sticky or
// not: /tmp), a directory to make inside one that is not this user's, or a
// directory on the way that another user could change.
export function cacheDirectory(env: Readonly<Record<string, string | undefined>>, uid: number | undefined): string | undefined {
  if (uid === undefined || cacheOff(env) !== undefined) return undefined;
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME;
  const base = xdg && isAbsolute(xdg) ? resolve(xdg) : home && isAbsolute(home) && resolve(home) !== '/' ? join(resolve(home), '.cache') : undefined;
  if (base === undefined) return undefined;
  const wanted = join(base, 'gsd-check');
  try {
    if (!linksTrusted(wanted, uid) || sharedDirectory(dirname(base))) return undefined;
    if (!exists(wanted) && !(makeIn(base, uid) && makeIn(wanted, uid))) return undefined;
    const dir = realpathSync.native(wanted);
    return isPrivate(dir, uid) ? dir : undefined;
  } catch {
    return undefined;
  }
}

// Every component of the path as written, from / down, that is a symbolic
// link is this user's or root's: another user's link, planted in a shared
// directory where the path would go, leads the cache wherever they chose.
// (Where the links lead is judged by isPrivate, on the real path.)
function linksTrusted(path: string, uid: number): boolean {
  const parts = path.split('/').filter((part) => part !== '');
  for (let at = 1; at <= parts.length; at++) {
    let stats;
    try {
      stats = lstatSync(`/${parts.slice(0, at).join('/')}`);
    } catch {
      // Missing: the rest is made by makeIn, which judges its parent.
      return true;
    }
    if (stats.isSymbolicLink() && stats.uid !== uid && stats.uid !== 0) return false;
  }
  return true;
}

// A directory others may write, even a sticky one: a cache home directly in
// it (XDG_CACHE_HOME=/tmp/cache) is a name anyone could have claimed first.
function sharedDirectory(dir: string): boolean {
  return (statSync(dir).mode & 0o022) !== 0;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

// Makes `dir` (one level, never a recursive mkdir: Node's spins for ever
// under /proc/self) when it is missing, only inside a directory this user
// owns and no one else may write, so nothing is made in someone else's home
// or in a shared directory.
function makeIn(dir: string, uid: number): boolean {
  if (exists(dir)) return true;
  const parent = statSync(dirname(dir));
  if (parent.uid !== uid || (parent.mode & 0o022) !== 0) return false;
  mkdirSync(dir, { mode: 0o700 });
  return true;
}

// The directory is ours and only we can write it; every directory above it
// belongs to us or root and lets no one else rename what it holds (not
// writable by others, or sticky like /tmp).
function isPrivate(dir: string, uid: number): boolean {
  const own = lstatSync(dir);
  if (!own.isDirectory() || own.uid !== uid || (own.mode & 0o022) !== 0) return false;
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    const stat = lstatSync(parent);
    if (stat.uid !== uid && stat.uid !== 0) return false;
    if ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0) return false;
    if (dirname(parent) === parent) return true;
  }
}

// One file per Node version, architecture, command and copy (its path): V8
// rejects a cache of another Node, a cache holds the functions its first run
// compiled, two copies used in turn must not rewrite one file at every start,
// and a rebuilt copy rewrites its own file instead of adding one.
export function cacheFile(dir: string, node: string, arch: string, command: string | undefined, path: string): string {
  const name = command === 'check' || command === 'gates' || command === 'validate' ? command : 'other';
  return join(dir, `code-${node}-${arch}-${name}-${pathKey(path)}.bin`);
}

// A name for a path, not a defence: the file's header holds the path itself,
// and two paths with one name only share a file, each rewriting it for the
// other. FNV-1a, not node:crypto, which every start would then have to load.
function pathKey(path: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

const MONTH_MS = 30 * 24 * 3600 * 1000;
// With one file per copy, Node and command, a few copies on two Nodes stay
// well under it; each file is about half a megabyte.
const MAX_CACHE_FILES = 32;

// Run when a cache is written: removes every temporary file a start left
// when it died between writing and renaming (a start that is writing one now
// only loses its write), the caches not written for a month, and the oldest
// ones beyond MAX_CACHE_FILES. Never throws: it runs in an exit handler.
export function pruneCaches(dir: string, keep: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const kept: { file: string; mtime: number }[] = [];
  for (const name of names) {
    const file = join(dir, name);
    if (file === keep || !name.startsWith('code-')) continue;
    try {
      if (name.endsWith('.tmp')) rmSync(file);
      else if (name.endsWith('.bin')) {
        const mtime = statSync(file).mtimeMs;
        if (now - mtime > MONTH_MS) rmSync(file);
        else kept.push({ file, mtime });
      }
    } catch {
      // Best effort, one file at a time: a file another start removed first
      // must not keep the rest; one that stays is only disk space.
    }
  }
  kept.sort((x, y) => y.mtime - x.mtime);
  for (const { file } of kept.slice(MAX_CACHE_FILES - 1)) {
    try {
      rmSync(file);
    } catch {
      // As above.
    }
  }
}

// A cache file: a header line naming the format, both lengths (V8's data's
// at a fixed width, so the header's length is known before it is read) and
// the copy's path; the bytes the program was read from (the key: V8 itself
// checks only the source's length); then V8's data twice. The second copy is
// the checksum: V8 runs damaged data (SIGTRAP, or worse), and comparing two
// copies costs nothing measurable where a hash needs node:crypto.
const MAGIC = 'gsd-check code cache 2';

function header(path: string, source: Buffer, cacheLength: number): Buffer {
  return Buffer.from(`${MAGIC} ${source.length} ${String(cacheLength).padStart(12, '0')} ${path}\n`);
}

// The cache when it was made from these very bytes by the copy at `path`, and
// is whole; else undefined. Only a regular file is read, opened without
// following a link and without waiting (a FIFO there would block every start
// in open(); a link to /dev/zero would be read for ever), and only one no
// larger than a cache of this program can be.
export function readCache(file: string, path: string, source: Buffer): Buffer | undefined {
  const start = header(path, source, 0).length + source.length;
  const data = readWhole(file, start + 2 * maxCacheData(source));
  if (data === undefined) return undefined;
  const cacheLength = (data.length - start) / 2;
  if (!Number.isInteger(cacheLength) || cacheLength <= 0) return undefined;
  const head = header(path, source, cacheLength);
  const cache = data.subarray(start, start + cacheLength);
  return data.subarray(0, head.length).equals(head) && data.subarray(head.length, start).equals(source) && cache.equals(data.subarray(start + cacheLength))
    ? cache
    : undefined;
}

// V8's data for a script is its compiled functions: a small multiple of the
// source at most (docs/explanation/security.md has the measured ratio).
export const maxCacheData = (source: Buffer): number => 4 * source.length;

// The whole of the regular file at `file` when it holds at most `limit`
// bytes, else undefined.
function readWhole(file: string, limit: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > limit) return undefined;
    const data = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < data.length) {
      const got = readSync(fd, data, filled, data.length - filled, filled);
      if (got === 0) return undefined;
      filled += got;
    }
    return data;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

// Written whole or not at all: to a file of this process's, then renamed, so
// a concurrent start never reads half a cache. Never throws: it runs in an
// exit handler, where a throw would replace the exit status.
export function writeCache(file: string, path: string, source: Buffer, cache: Buffer, pid: number): void {
  const temporary = `${file}.${pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([header(path, source, cache.length), source, cache, cache]), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Left for the next prune.
    }
  }
}
