import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

// Where V8's code cache of the program lives: a directory of this user's,
// never a shared one, since whoever can write a cache file chooses the code
// that runs. Each start reads it; the first start of a program build (per Node,
// architecture and command) writes it.

// The cache directory, or undefined when none can be trusted: no POSIX owner
// to check (Windows), no absolute home, or a directory on the way that another
// user could change.
export function cacheDirectory(env: Readonly<Record<string, string | undefined>>, uid: number | undefined): string | undefined {
  if (uid === undefined || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : home && isAbsolute(home) && home !== '/' ? join(home, '.cache') : undefined;
  if (base === undefined) return undefined;
  const wanted = join(base, 'gsd-check');
  try {
    mkdirSync(wanted, { recursive: true, mode: 0o700 });
    const dir = realpathSync.native(wanted);
    return isPrivate(dir, uid) ? dir : undefined;
  } catch {
    return undefined;
  }
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

// One file per Node version, architecture, command and program build: V8
// rejects a cache of another Node, a cache holds the functions its first run
// compiled, and two builds used in turn (two vendored copies) must not
// rewrite one file at every start.
export function cacheFile(dir: string, node: string, arch: string, command: string | undefined, programId: string): string {
  const name = command === 'check' || command === 'gates' || command === 'validate' ? command : 'other';
  return join(dir, `code-${node}-${arch}-${name}-${programId.slice(0, 16)}.bin`);
}

const MONTH_MS = 30 * 24 * 3600 * 1000;

// Removes the caches of other builds or Nodes not written for a month, so
// upgrades do not pile up files; run only when a cache is written.
export function pruneCaches(dir: string, keep: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(dir, name);
    if (file === keep || !name.startsWith('code-') || !name.endsWith('.bin')) continue;
    try {
      if (now - statSync(file).mtimeMs > MONTH_MS) rmSync(file);
    } catch {
      // Best effort, one file at a time: a cache another start removed first
      // must not keep the rest; one that stays is only disk space.
    }
  }
}

// The cache when it was made from this very program (V8 itself only checks
// the source's length), else undefined.
export function readCache(file: string, programId: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const header = Buffer.from(`${programId}\n`);
  return data.length > header.length && data.subarray(0, header.length).equals(header) ? data.subarray(header.length) : undefined;
}

// Written whole or not at all: to a file of this process's, then renamed, so
// a concurrent start never reads half a cache.
export function writeCache(file: string, programId: string, cache: Buffer, pid: number): void {
  const temporary = `${file}.${pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${programId}\n`), cache]), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}
