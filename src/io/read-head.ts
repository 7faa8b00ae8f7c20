import { closeSync, openSync, readSync } from 'node:fs';

// The first `limit` bytes of a file: frontmatter sits at the top, and a huge
// artifact must not be read whole to find it.
export function readHead(path: string, limit: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(limit);
    let filled = 0;
    while (filled < limit) {
      const read = readSync(fd, buffer, filled, limit - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}
