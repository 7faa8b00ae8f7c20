import { close, constants, fstat, open, readlinkSync } from 'node:fs';
import { promisify } from 'node:util';
import { fail, ok, stopped, type Failure, type Result, stopCarriedBy } from '../failure.ts';
import { errorCode, isOutOfDescriptors, realPath, contains } from '../fs/entry.ts';
import { readOpened, readRegular } from '../fs/read.ts';

// Reading what a command is given: a file, standard input or a FIFO, and
// the head of an artifact, which must stay within its directory.

// Predicates, capabilities and configs are kilobytes; a cap keeps a wrong file
// (a log, a device) from filling memory before the JSON parser rejects it.
export const MAX_INPUT_BYTES = 1024 * 1024;
// How long a pipe or FIFO may take to deliver its input: a FIFO nobody writes
// to must end in an error, not a hang.
const READ_TIMEOUT_MS = 30_000;

interface ReadOptions {
  // A getter: merely touching process.stdin opens it.
  readonly stdin: () => NodeJS.ReadableStream & { isTTY?: boolean };
  // A stop signal abandons the read.
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

// Reads a file ("-": standard input) of at most MAX_INPUT_BYTES. A regular
// file is read directly, by the reader of every other regular file
// (fs/read.ts); a pipe or a FIFO through an event-driven socket, with a
// timeout, so that neither a missing writer nor a stop signal leaves
// gsd-check waiting. The caller decodes: a predicate, a capability and
// rendered hooks are strict UTF-8 (utf8Text), a config is read as GSD reads
// one (project/config-file.ts).
export async function readInput(path: string, label: string, options: ReadOptions): Promise<Result<Buffer>> {
  const timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
  if (path !== '-') return readPath(path, label, timeoutMs, options.signal);
  const stdin = options.stdin();
  // A person typing a predicate gets all the time they need.
  return readCapped(stdin, label, stdin.isTTY === true ? Infinity : timeoutMs, options.signal);
}

// How a command reads a file it is given ("-": standard input); `label`
// names it in errors.
export type ReadInput = (path: string, label: string) => Promise<Result<Uint8Array>>;

// A predicate, a capability or rendered hooks: input that must be UTF-8.
// A byte order mark at its start is left out, or kept (`bom: 'keep'`) for
// validate, which tells that GSD's loader cannot parse a file with one.
export async function textInput(read: ReadInput, path: string, label: string, bom: 'drop' | 'keep' = 'drop'): Promise<Result<string>> {
  const bytes = await read(path, label);
  return bytes.ok ? utf8Text(bytes.value, label, bom) : bytes;
}

function utf8Text(bytes: Uint8Array, label: string, bom: 'drop' | 'keep'): Result<string> {
  try {
    return ok(new TextDecoder('utf-8', { fatal: true, ignoreBOM: bom === 'keep' }).decode(bytes));
  } catch {
    return fail('unreadable-file', `${label} is not valid UTF-8`);
  }
}

// How a read that failed, or went past the cap, is said; project/config-file.ts says it the same way.
export const unreadable = (label: string, why: string): { ok: false; failure: Failure } => fail('unreadable-file', `cannot read ${label}: ${why}`);
export const overCap = (label: string): { ok: false; failure: Failure } => fail('unreadable-file', `${label} is larger than ${MAX_INPUT_BYTES} bytes`);

// node:fs/promises would load modules of its own at every start.
const openFile = promisify(open);
const closeFile = promisify(close);
const fstatFile = promisify(fstat);

// Opened without blocking, whatever the path is: a FIFO's open then waits for
// no writer, and what was opened is what is read, so nothing swapped in
// between counts. A FIFO is read through a socket on that same descriptor:
// the kernel wakes it when a writer comes, and a stop or the timeout end the
// wait at once, even once the FIFO's name is gone. (A blocking open, released
// by opening the FIFO's path for writing, hung for ever if the FIFO was
// removed meanwhile.) A terminal or another device (/dev/ptmx, /dev/zero) is
// refused, since a read from it could block a worker thread past any stop.
async function readPath(path: string, label: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<Result<Buffer>> {
  let fd: number | undefined;
  try {
    fd = await openFile(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = await fstatFile(fd);
    if (stats.isFIFO()) {
      // Loaded here only: node:net costs every other start its own time.
      const { Socket } = require('node:net') as typeof import('node:net');
      const socket = new Socket({ fd, readable: true, writable: false });
      fd = undefined; // the socket closes it
      try {
        return await readCapped(socket, label, timeoutMs, signal);
      } finally {
        socket.destroy();
      }
    }
    if (!stats.isFile()) return unreadable(label, stats.isDirectory() ? 'is a directory' : 'is not a regular file, a FIFO or standard input');
    const read = readOpened(fd, MAX_INPUT_BYTES);
    if (!read.ok) return unreadable(label, describeCode(read.failure));
    return read.value.complete ? ok(read.value.bytes) : overCap(label);
  } catch (error) {
    return unreadable(label, describeError(error));
  } finally {
    if (fd !== undefined) await closeFile(fd).catch(() => {});
  }
}

// A stream read to its end, up to the cap and within the time allowed.
function readCapped(stream: NodeJS.ReadableStream, label: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<Result<Buffer>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (result: Result<Buffer>): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      // Over the cap, timed out, failed or stopped: stop reading for good.
      if (!result.ok) (stream as NodeJS.ReadableStream & { destroy?(): void }).destroy?.();
      else stream.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += buffer.length;
      if (total > MAX_INPUT_BYTES) return done(overCap(label));
      chunks.push(buffer);
    };
    const onEnd = (): void => done(ok(Buffer.concat(chunks, total)));
    const onError = (error: unknown): void => done(unreadable(label, describeError(error)));
    const onAbort = (): void => done(stopped(stopCarriedBy(signal)));
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => done(unreadable(label, `${total === 0 ? 'nothing arrived' : 'the input did not end'} within ${timeoutMs / 1000} s`)), timeoutMs)
      : undefined;
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

const MESSAGES: ReadonlyMap<string, string> = new Map([
  ['ENOENT', 'no such file'],
  ['EISDIR', 'is a directory'],
  ['EACCES', 'permission denied'],
  ['ENOTDIR', 'a part of the path is not a directory'],
  // What opening a socket gives (so /dev/stdin, when a parent hands over a
  // socket, as Node's spawnSync with `input` does), or /dev/tty without a
  // terminal.
  ['ENXIO', 'cannot be opened (ENXIO): a socket, or a device with nothing behind it; for standard input, use -'],
]);

// A system error code as a message says it.
export const describeCode = (code: string): string => MESSAGES.get(code) ?? code;

const describeError = (error: unknown): string => describeCode(errorCode(error));

// The first `limit` bytes of the regular file at `path`, which must lie in
// `within` (a real path): frontmatter sits at the top, and a huge artifact
// must not be read whole to find it. Read with readRegular, so swapping the
// file between a search and this read gains nothing: a FIFO is refused
// without blocking, and a link swapped in is judged by where the descriptor
// really points. `readFile` is readRegular, or a stand-in that fails as a
// system can (EMFILE) for tests.
// `show` names a path in a failure's message (project/shown-path.ts).
export function readHead(path: string, limit: number, within: string, readFile: typeof readRegular, show: (path: string) => string): Result<Buffer> {
  const read = readFile(path, limit, (fd) => {
    const opened = descriptorPath(fd) ?? realPath(path);
    return opened === undefined || opened === within || !contains(within, opened) ? 'OUTSIDE' : undefined;
  });
  if (read.ok) return ok(read.value.bytes);
  // Out of descriptors says nothing about the artifact: never a verdict or a
  // skip (see run-point).
  if (isOutOfDescriptors(read.failure)) return fail('resource-limit', `cannot open ${show(path)}: ${read.failure}`);
  if (read.failure === 'NOTREG') return fail('unreadable-file', `cannot read ${show(path)}: not a regular file`);
  if (read.failure === 'OUTSIDE') return fail('unreadable-file', `cannot read ${show(path)}: it now leads outside ${show(within)}`);
  return fail('unreadable-file', `cannot read ${show(path)}: ${read.failure}`);
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
