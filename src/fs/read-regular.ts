import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { errorCode } from './error-code.ts';

export type RegularRead =
  | { readonly ok: true; readonly bytes: Buffer; readonly complete: boolean }
  | { readonly ok: false; readonly code: string };

// At most `limit` bytes of the regular file at `path`, and whether that was
// all of it. Opened first and judged on the descriptor, never stat-then-open:
// a FIFO swapped in does not block the open (O_NONBLOCK) and is refused
// (code NOTREG, like a device or a directory); `/dev/zero` or a huge file
// costs no more than `limit`. `accept` may refuse what was opened, by its
// descriptor, with a code of its own.
export function readRegular(path: string, limit: number, accept?: (fd: number) => string | undefined): RegularRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, code: errorCode(error) };
  }
  try {
    if (!fstatSync(fd).isFile()) return { ok: false, code: 'NOTREG' };
    const refused = accept?.(fd);
    if (refused !== undefined) return { ok: false, code: refused };
    // One byte past the limit tells a file of exactly `limit` from a longer one.
    const buffer = Buffer.allocUnsafe(limit + 1);
    let filled = 0;
    while (filled <= limit) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return { ok: true, bytes: buffer.subarray(0, Math.min(filled, limit)), complete: filled <= limit };
  } catch (error) {
    return { ok: false, code: errorCode(error) };
  } finally {
    closeSync(fd);
  }
}
