import { readlinkSync } from 'node:fs';
import { fail, ok, type Result } from '../failure.ts';
import { isOutOfDescriptors } from '../fs/error-code.ts';
import { readRegular } from '../fs/read-regular.ts';
import { realPath } from '../fs/entry.ts';
import { contains } from '../fs/entry.ts';

// The first `limit` bytes of the regular file at `path`, which must lie in
// `within` (a real path): frontmatter sits at the top, and a huge artifact
// must not be read whole to find it. Read with readRegular, so swapping the
// file between a search and this read gains nothing: a FIFO is refused
// without blocking, and a link swapped in is judged by where the descriptor
// really points. `readFile` is readRegular, or a stand-in that fails as a
// system can (EMFILE) for tests.
export function readHead(path: string, limit: number, within: string, readFile: typeof readRegular = readRegular): Result<Buffer> {
  const read = readFile(path, limit, (fd) => {
    const opened = descriptorPath(fd) ?? realPath(path);
    return opened === undefined || opened === within || !contains(within, opened) ? 'OUTSIDE' : undefined;
  });
  if (read.ok) return ok(read.bytes);
  // Out of descriptors says nothing about the artifact: never a verdict or a
  // skip (see run-point).
  if (isOutOfDescriptors(read.code)) return fail('resource-limit', `cannot open ${path}: ${read.code}`);
  if (read.code === 'NOTREG') return fail('unreadable-file', `cannot read ${path}: not a regular file`);
  if (read.code === 'OUTSIDE') return fail('unreadable-file', `cannot read ${path}: it now leads outside ${within}`);
  return fail('unreadable-file', `cannot read ${path}: ${read.code}`);
}

// Where an open descriptor really points, on systems that say (Linux's
// /proc); elsewhere the caller falls back to the path's real path.
function descriptorPath(fd: number): string | undefined {
  try {
    const target = readlinkSync(`/proc/self/fd/${fd}`);
    return target.startsWith('/') ? target : undefined;
  } catch {
    return undefined;
  }
}
