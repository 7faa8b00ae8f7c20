import { close, open, read } from 'node:fs';
import { promisify } from 'node:util';
import { fail, ok, type Result } from '../failure.ts';

// Predicates, capabilities and configs are kilobytes; a cap keeps a wrong file (a log, a
// device) from filling memory before the JSON parser rejects it.
export const MAX_INPUT_BYTES = 1024 * 1024;

// Reads a text file ("-": standard input) of at most MAX_INPUT_BYTES of UTF-8.
// `stdin` is a getter: merely touching process.stdin opens it.
export async function readTextFile(path: string, label: string, stdin: () => NodeJS.ReadableStream): Promise<Result<string>> {
  const bytes = path === '-' ? await readStream(stdin()) : await readFile(path);
  if (!bytes.ok) return fail('unreadable-file', `cannot read ${label}: ${bytes.failure.message}`);
  if (bytes.value === undefined) return fail('unreadable-file', `${label} is larger than ${MAX_INPUT_BYTES} bytes`);
  try {
    return ok(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes.value));
  } catch {
    return fail('unreadable-file', `${label} is not valid UTF-8`);
  }
}

// `undefined` means the input is over the cap.
type Bytes = Result<Buffer | undefined>;

// node:fs/promises would load eleven more modules at start-up (~2 ms).
const openFile = promisify(open);
const readChunk = promisify(read);
const closeFile = promisify(close);

async function readFile(path: string): Promise<Bytes> {
  let fd: number | undefined;
  try {
    fd = await openFile(path, 'r');
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const { bytesRead } = await readChunk(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) return ok(Buffer.concat(chunks, total));
      total += bytesRead;
      if (total > MAX_INPUT_BYTES) return ok(undefined);
      chunks.push(buffer.subarray(0, bytesRead));
    }
  } catch (error) {
    return fail('unreadable-file', describeError(error));
  } finally {
    if (fd !== undefined) await closeFile(fd).catch(() => {});
  }
}

function readStream(stream: NodeJS.ReadableStream): Promise<Bytes> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (result: Bytes): void => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += buffer.length;
      if (total > MAX_INPUT_BYTES) return done(ok(undefined));
      chunks.push(buffer);
    };
    const onEnd = (): void => done(ok(Buffer.concat(chunks, total)));
    const onError = (error: unknown): void => done(fail('unreadable-file', describeError(error)));
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
]);

function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return MESSAGES.get(code) ?? code;
  return String(error);
}
