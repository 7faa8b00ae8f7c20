import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { ok, refused, type Result } from '../failure.ts';
import { errorCode } from './entry.ts';

// Bounded reads of regular files (no FIFO, no device, no more than a cap),
// and the open-file limit that bounds how many run at once.

type ReadAt = (fd: number, buffer: Uint8Array, offset: number, length: number, position: null) => number;

// Fails with a system error code, not a Failure: which reason a failed read
// is (a resource limit for EMFILE, an unreadable file else, no artifact at
// all) and how it is worded depend on what the caller was reading, so the
// caller makes the Failure.
type RegularRead = Result<{ readonly bytes: Buffer; readonly complete: boolean }, string>;

// At most `limit` bytes of the regular file at `path`, and whether that was
// all of it. Opened first and judged on the descriptor, never stat-then-open:
// a FIFO swapped in does not block the open (O_NONBLOCK) and is refused
// (code NOTREG, like a device or a directory); `/dev/zero` or a huge file
// costs no more than `limit`. `accept` may refuse what was opened, by its
// descriptor, with a code of its own. `read` is passed in only by tests: a
// file on disk never gives the short reads that /proc files and network file
// systems do.
export function readRegular(path: string | Buffer, limit: number, accept?: (fd: number) => string | undefined, read: ReadAt = readSync): RegularRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return refused(errorCode(error));
  }
  try {
    return readOpened(fd, limit, accept, read);
  } finally {
    closeSync(fd);
  }
}

// readRegular's read of a descriptor already open (without blocking), which
// the caller closes: for a caller that must first see whether it is a FIFO.
export function readOpened(fd: number, limit: number, accept?: (fd: number) => string | undefined, read: ReadAt = readSync): RegularRead {
  try {
    if (!fstatSync(fd).isFile()) return refused('NOTREG');
    const refusal = accept?.(fd);
    if (refusal !== undefined) return refused(refusal);
    // One byte past the limit tells a file of exactly `limit` from a longer one.
    const buffer = Buffer.allocUnsafe(limit + 1);
    let filled = 0;
    while (filled <= limit) {
      const got = read(fd, buffer, filled, buffer.length - filled, null);
      if (got === 0) break;
      filled += got;
    }
    return ok({ bytes: buffer.subarray(0, Math.min(filled, limit)), complete: filled <= limit });
  } catch (error) {
    return refused(errorCode(error));
  }
}

// The small text files of a project's layout (`.git` files, `commondir`,
// `gitdir`, session pointers): past this size they are not what they
// claim to be.
const SMALL_FILE_BYTES = 256 * 1024;

// Reads a small regular file whole (see readRegular: no FIFO, no device, no
// more than the cap, and what `accept` refuses), or answers undefined.
export function readSmallFile(path: string, accept?: (fd: number) => string | undefined): string | undefined {
  const read = readRegular(path, SMALL_FILE_BYTES, accept);
  return read.ok && read.value.complete ? read.value.bytes.toString('utf8') : undefined;
}

// The soft limit on open descriptors, or undefined for none: from the
// process's limits file on Linux, else from Node's diagnostic report, which
// costs a few milliseconds and so is asked for only when the file is missing.
export function openFileLimit(limitsFile: () => string, report: () => unknown): number | undefined {
  let text: string | undefined;
  try {
    text = limitsFile();
  } catch {
    // No /proc: ask the report.
  }
  if (text !== undefined) {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(text);
    if (match !== null) return match[1] === 'unlimited' ? undefined : Number(match[1]);
  }
  const soft = (report() as { userLimits?: { open_files?: { soft?: unknown } } } | undefined)?.userLimits?.open_files?.soft;
  return typeof soft === 'number' ? soft : undefined;
}
