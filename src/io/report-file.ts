import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { ok, refused, type Result } from '../failure.ts';
import { canonicalPath, contains, entryKind, errorCode, systemCode } from '../fs/entry.ts';

// Writing a report file (`--report junit=`) and appending to one
// (GITHUB_STEP_SUMMARY): whole or not at all, and only where the caller
// meant. Each fails with why it wrote nothing, in words for a message.

// A report to replace: the path it is written to, the name the user gave (for
// messages), and the directories it must stay inside once its links are
// followed, when it is written inside one of them.
export interface ReportTarget {
  readonly path: string;
  readonly shown: string;
  readonly within: readonly string[];
}

// A file by its device and inode: what standard output and standard error
// are, so that a report never replaces the file the envelope goes to.
export interface FileId {
  readonly dev: number;
  readonly ino: number;
  readonly name: 'standard output' | 'standard error';
}

type WriteAt = (fd: number, buffer: Uint8Array, offset: number, length: number, position: null) => number;

// Written beside the file, then renamed over it: a reader (a CI's report
// collector) sees the old file or the new one, never half of one. Only a
// regular file is replaced, the one a symbolic link leads to where the path
// is a link: renaming over a device, a pipe or the link itself destroys it.
// A path inside the project whose link, or a directory on the way, leads out
// of it is refused: a repository could commit `reports -> ~/.ssh` and choose
// what the report replaces. The replaced file keeps its mode.
export function replaceFile(target: ReportTarget, text: string, writer: { readonly pid: number; readonly streams: readonly FileId[] }): Result<void, string> {
  const stream = streamAt(target.path, writer.streams);
  if (stream !== undefined) return refused(`it is gsd-check's ${stream}, where the envelope goes`);
  if (entryKind(target.path) === 'other') return refused('not a regular file');
  const real = canonicalPath(target.path);
  if (real === undefined) return refused('a symbolic link that leads nowhere');
  const inside = target.within.filter((dir) => contains(dir, target.path));
  if (inside.length > 0 && !target.within.some((dir) => contains(dir, real))) return refused(`it leads outside ${inside[0]} (to ${real})`);
  const mode = modeOf(real);
  const temp = join(dirname(real), `.${basename(real)}.${writer.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode ?? 0o666);
    // The mode given to open is cut by the umask; the old file's is kept whole.
    if (mode !== undefined) fchmodSync(fd, mode);
    writeAll(fd, text, writeSync);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, real);
    return ok(undefined);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    quietly(() => rmSync(temp, { force: true }));
    return refused(systemCode(error) === 'ENOENT' && entryKind(dirname(real)) === undefined ? `the directory ${shownDirectory(target.shown)} does not exist` : errorCode(error));
  }
}

// Appended to as a shell's >> would, but opened without waiting (a pipe with
// no reader is an error, ENXIO, not a wait for one), and whole or not at all:
// a write cut short (a full disk) is truncated back to the old length, so no
// half a table stays in the step summary. `write` is passed in only by tests:
// a disk is not filled to order.
export function appendToFile(path: string, text: string, write: WriteAt = writeSync): Result<void, string> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
  } catch (error) {
    return refused(errorCode(error));
  }
  let before: number | undefined;
  try {
    const stats = fstatSync(fd);
    before = stats.isFile() ? stats.size : undefined;
    writeAll(fd, text, write);
    return ok(undefined);
  } catch (error) {
    if (before !== undefined) quietly(() => ftruncateSync(fd, before));
    return refused(errorCode(error));
  } finally {
    closeQuietly(fd);
  }
}

// writeSync may write less than it was given (a signal, a disk nearly
// full): the rest is written until all of it is, or it throws.
function writeAll(fd: number, text: string, write: WriteAt): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) {
    const wrote = write(fd, bytes, done, bytes.length - done, null);
    if (wrote <= 0) throw new Error('the write made no progress');
    done += wrote;
  }
}

function streamAt(path: string, streams: readonly FileId[]): FileId['name'] | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  return streams.find((stream) => stream.dev === stats.dev && stream.ino === stats.ino)?.name;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

// `out/x.xml` → `out/`: the directory as the user wrote it.
function shownDirectory(shown: string): string {
  const dir = dirname(shown);
  return dir.endsWith(sep) ? dir : `${dir}${sep}`;
}

function closeQuietly(fd: number): void {
  quietly(() => closeSync(fd));
}

function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // Cleaning up after a failure that is already being reported.
  }
}
