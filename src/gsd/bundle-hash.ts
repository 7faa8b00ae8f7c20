import { lstatSync, readdirSync } from 'node:fs';
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

// GSD refuses a bundle past these rather than hash it.
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
const MAX_ENTRIES = 100_000;
const CACHE_DIRS = ['__pycache__', '.pytest_cache'];
const CACHE_FILE_SUFFIXES = ['.pyc', '.pyo'];

interface Entry {
  readonly path: Buffer;
  // The path from the folder, `/`-joined, as GSD hashes it.
  readonly rel: Buffer;
  readonly kind: 'dir' | 'file';
}

// Why no hash could be had: the first thing GSD would refuse the folder for.
export function bundleContentHash(folder: string): Result<string, string> {
  const root = resolve(folder);
  const entries: Entry[] = [];
  const collected = collect(Buffer.from(root), Buffer.alloc(0), basename(root), entries, { bytes: 0, count: 0 });
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
    const read = readRegular(entry.path, MAX_TOTAL_BYTES);
    if (!read.ok) return refused(`cannot read ${entry.rel.toString()}: ${read.failure}`);
    if (!read.value.complete) return refused(`it holds more than ${MAX_TOTAL_BYTES} bytes`);
    hash.update(Buffer.from([0x01]));
    hash.update(uint32(entry.rel.length));
    hash.update(entry.rel);
    hash.update(uint64(read.value.bytes.length));
    hash.update(read.value.bytes);
  }
  return ok(`sha512-${hash.digest('base64')}`);
}

function collect(dir: Buffer, rel: Buffer, dirName: string, out: Entry[], seen: { bytes: number; count: number }): Result<void, string> {
  let names: Buffer[];
  try {
    names = readdirSync(dir, { encoding: 'buffer' });
  } catch (error) {
    return refused(`cannot read the directory ${shown(rel)}: ${errorCode(error)}`);
  }
  seen.count += names.length;
  if (seen.count > MAX_ENTRIES) return refused(`it has more than ${MAX_ENTRIES} entries`);
  names.sort(Buffer.compare);
  for (const name of names) {
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
    if (seen.bytes > MAX_TOTAL_BYTES) return refused(`it holds more than ${MAX_TOTAL_BYTES} bytes`);
    const cached = dirName === '__pycache__' && CACHE_FILE_SUFFIXES.some((suffix) => name.toString('latin1').endsWith(suffix));
    if (!cached) out.push({ path, rel: relPath, kind: 'file' });
  }
  return ok(undefined);
}

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
