import { type Dir, lstatSync, opendirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ok, refused, type Result } from '../failure.ts';
import { errorCode } from '../fs/entry.ts';
import { readRegular } from '../fs/read.ts';

// The content hash GSD 1.14 binds a project capability's consent to
// (capability-consent.cjs's bundleContentHash): every entry of the
// capability's folder by its raw name bytes, byte order, directories and
// files tagged apart, Python's caches left out. A record whose hash is not
// this folder's today is no consent, so the hash is GSD's to the byte;
// compat/test/bundle-hash.test.mjs holds it to GSD's own function.

// GSD refuses a bundle past these rather than hash it; tests give smaller
// ones, as GSD's own tests do, rather than plant a hundred thousand files.
interface BundleLimits {
  readonly bytes: number;
  readonly entries: number;
}
const GSD_LIMITS: BundleLimits = { bytes: 16 * 1024 * 1024, entries: 100_000 };
const CACHE_DIRS = ['__pycache__', '.pytest_cache'];
const CACHE_FILE_SUFFIXES = ['.pyc', '.pyo'];

interface Entry {
  readonly path: Buffer;
  // The path from the folder, `/`-joined, as GSD hashes it.
  readonly rel: Buffer;
  readonly kind: 'dir' | 'file';
}

// Why no hash could be had: the first thing GSD would refuse the folder for.
export function bundleContentHash(folder: string, limits: BundleLimits = GSD_LIMITS): Result<string, string> {
  const root = resolve(folder);
  const entries: Entry[] = [];
  const collected = collect(Buffer.from(root), Buffer.alloc(0), basename(root), entries, { bytes: 0, count: 0, limits });
  if (!collected.ok) return collected;
  // No two entries share a path, so the path alone orders them.
  entries.sort((a, b) => Buffer.compare(a.rel, b.rel));
  // Loaded here, not at the start of every command: node:crypto brings node:stream.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const hash = createHash('sha512');
  hash.update(uint64(entries.length));
  for (const entry of entries) {
    if (entry.kind === 'dir') {
      hash.update(Buffer.from([0x02]));
      hash.update(uint32(entry.rel.length));
      hash.update(entry.rel);
      continue;
    }
    const read = readRegular(entry.path, limits.bytes);
    if (!read.ok) return refused(`cannot read ${entry.rel.toString()}: ${read.failure}`);
    if (!read.value.complete) return refused(tooLarge(limits));
    hash.update(Buffer.from([0x01]));
    hash.update(uint32(entry.rel.length));
    hash.update(entry.rel);
    hash.update(uint64(read.value.bytes.length));
    hash.update(read.value.bytes);
  }
  return ok(`sha512-${hash.digest('base64')}`);
}

interface Walk {
  bytes: number;
  count: number;
  readonly limits: BundleLimits;
}

function collect(dir: Buffer, rel: Buffer, dirName: string, out: Entry[], seen: Walk): Result<void, string> {
  const listed = names(dir, rel, seen);
  if (!listed.ok) return listed;
  for (const name of listed.value) {
    const path = join(dir, name);
    const relPath = join(rel, name);
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      return refused(`cannot read ${relPath.toString()}: ${errorCode(error)}`);
    }
    if (stat.isSymbolicLink()) return refused(`${relPath.toString()} is a symbolic link`);
    if (stat.isDirectory()) {
      // A cache directory is walked for its sizes but is no entry of its own.
      if (!CACHE_DIRS.includes(name.toString('latin1'))) out.push({ path, rel: relPath, kind: 'dir' });
      const inner = collect(path, relPath, name.toString('latin1'), out, seen);
      if (!inner.ok) return inner;
      continue;
    }
    if (!stat.isFile()) return refused(`${relPath.toString()} is not a regular file`);
    seen.bytes += stat.size;
    if (seen.bytes > seen.limits.bytes) return refused(tooLarge(seen.limits));
    const cached = dirName === '__pycache__' && CACHE_FILE_SUFFIXES.some((suffix) => name.toString('latin1').endsWith(suffix));
    if (!cached) out.push({ path, rel: relPath, kind: 'file' });
  }
  return ok(undefined);
}

// A directory's names in byte order, counted as they are read: as GSD's walk
// does, a directory of more entries than the whole bundle may hold is
// refused at the first one past, not read whole first.
function names(dir: Buffer, rel: Buffer, seen: Walk): Result<Buffer[], string> {
  const unreadable = (error: unknown) => refused(`cannot read the directory ${shown(rel)}: ${errorCode(error)}`);
  let handle: Dir;
  try {
    // Node gives the names as bytes for 'buffer', which its types leave out.
    handle = opendirSync(dir, { encoding: 'buffer' as BufferEncoding });
  } catch (error) {
    return unreadable(error);
  }
  try {
    const found: Buffer[] = [];
    for (;;) {
      let entry;
      try {
        entry = handle.readSync();
      } catch (error) {
        return unreadable(error);
      }
      if (entry === null) return ok(found.sort(Buffer.compare));
      seen.count += 1;
      if (seen.count > seen.limits.entries) return refused(`it has more than ${seen.limits.entries} entries`);
      found.push(entry.name as unknown as Buffer);
    }
  } finally {
    try {
      handle.closeSync();
    } catch {
      // The names are read; a directory that will not close changes none.
    }
  }
}

const tooLarge = (limits: BundleLimits): string => `it holds more than ${limits.bytes} bytes`;
const join = (parent: Buffer, name: Buffer): Buffer => (parent.length === 0 ? Buffer.from(name) : Buffer.concat([parent, Buffer.from('/'), name]));
const shown = (rel: Buffer): string => (rel.length === 0 ? 'itself' : rel.toString());

function uint32(n: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n >>> 0);
  return bytes;
}

function uint64(n: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(n));
  return bytes;
}
