import { writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { errorCode } from '../fs/entry.ts';

// Writing stdout and stderr whole, however the descriptor behaves.

export type OutputFd = 1 | 2;

// Writes `text` to stdout (1) or stderr (2); `failed` hears the code of a
// write that failed.
type Emit = (fd: OutputFd, text: string, failed: (code: string) => void) => void;

// Output goes out with writeAll, not through process.stdout and
// process.stderr, which are made (`streamOf`) only when a descriptor would
// block; from then on that descriptor's writes follow through its stream.
// Text leaves in the order it was emitted, across both descriptors: while a
// streamed write is in flight, later text waits for it, so that stderr handed
// the same full pipe as stdout (`2>&1`) cannot land inside the rest of stdout.
export function makeEmitter(streamOf: (fd: OutputFd) => Writable, write?: Write): Emit {
  const streamed = new Set<OutputFd>();
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const emit: Emit = (fd, text, failed) => {
    if (inFlight > 0) {
      waiting.push(() => emit(fd, text, failed));
      return;
    }
    let rest: string | Uint8Array = text;
    if (!streamed.has(fd)) {
      const result = writeAll(fd, text, write);
      if (result.status === 'written') return;
      if (result.status === 'failed') return failed(result.code);
      rest = result.rest;
      streamed.add(fd);
      // Errors are handled in the write's callback; this keeps an unhandled
      // 'error' event from crashing the process.
      streamOf(fd).on('error', () => {});
    }
    inFlight++;
    streamOf(fd).write(rest, (error) => {
      inFlight--;
      if (error !== null && error !== undefined) failed(errorCode(error));
      while (inFlight === 0 && waiting.length > 0) waiting.shift()!();
    });
  };
  return emit;
}

// A write's progress, not a Result: a descriptor that would block is no
// failure (the rest goes through a stream), and a failed write is a system
// code that the caller words, as for fs/read.ts's RegularRead.
type WriteResult =
  | { readonly status: 'written' }
  | { readonly status: 'blocked'; readonly rest: Uint8Array }
  | { readonly status: 'failed'; readonly code: string };

type Write = (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

// Writes to a descriptor at once, without the stream objects behind
// process.stdout and process.stderr, which every start would pay to make. A
// descriptor that would block (a full non-blocking pipe) is left to such a
// stream, which waits for it; any other error is returned.
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
