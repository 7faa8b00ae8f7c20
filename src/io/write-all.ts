import { writeSync } from 'node:fs';
import { errorCode } from '../fs/error-code.ts';

// Writes to a descriptor at once, without the stream objects behind
// process.stdout and process.stderr, which every start would pay to make
// (bench/run.mjs measures a start). A descriptor that would block (a full non-blocking pipe) is left to
// such a stream, which waits for it; any other error is returned.

export type WriteResult =
  | { readonly status: 'written' }
  | { readonly status: 'blocked'; readonly rest: Uint8Array }
  | { readonly status: 'failed'; readonly code: string };

export type Write = (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

export function writeAll(fd: number, text: string, write: Write = writeSync): WriteResult {
  const bytes = Buffer.from(text);
  let at = 0;
  while (at < bytes.length) {
    let written: number;
    try {
      written = write(fd, bytes, at, bytes.length - at);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EAGAIN') return { status: 'blocked', rest: bytes.subarray(at) };
      return { status: 'failed', code };
    }
    // No progress and no error: hand the rest to a stream rather than spin.
    if (written <= 0) return { status: 'blocked', rest: bytes.subarray(at) };
    at += written;
  }
  return { status: 'written' };
}
