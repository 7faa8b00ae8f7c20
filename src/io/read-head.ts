import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { fail, ok, type Result } from '../failure.ts';
import { realPath } from '../fs/real-path.ts';
import { contains } from '../project/contains.ts';

// The first `limit` bytes of the regular file at `path`, which must lie in
// `within` (a real path): frontmatter sits at the top, and a huge artifact
// must not be read whole to find it. Opened first, checked after on what was
// opened, so that swapping the file between a search and this read gains
// nothing: a FIFO does not block the open (O_NONBLOCK) and is refused by
// fstat; a link swapped in is judged by where the descriptor really points.
export function readHead(path: string, limit: number, within: string): Result<Buffer> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = codeOf(error);
    // Out of descriptors says nothing about the artifact: never a verdict
    // or a skip (see run-point).
    if (code === 'EMFILE' || code === 'ENFILE') return fail('resource-limit', `cannot open ${path}: ${code}`);
    return fail('unreadable-file', `cannot read ${path}: ${code}`);
  }
  try {
    if (!fstatSync(fd).isFile()) return fail('unreadable-file', `cannot read ${path}: not a regular file`);
    const opened = descriptorPath(fd) ?? realPath(path);
    if (opened === undefined || opened === within || !contains(within, opened)) {
      return fail('unreadable-file', `cannot read ${path}: it now leads outside ${within}`);
    }
    const buffer = Buffer.allocUnsafe(limit);
    let filled = 0;
    while (filled < limit) {
      const read = readSync(fd, buffer, filled, limit - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return ok(buffer.subarray(0, filled));
  } catch (error) {
    return fail('unreadable-file', `cannot read ${path}: ${codeOf(error)}`);
  } finally {
    closeSync(fd);
  }
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

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}
