import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { ok, refused, type Result } from '../failure.ts';
import { canonicalPath, contains, entryKind, errorCode, realPath, systemCode } from '../fs/entry.ts';

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
// what the report replaces. The replaced file keeps its mode. Its missing
// directories are made, as pytest and jest-junit make them, only inside
// the project and by the same rule, and removed again if nothing is written.
export function replaceFile(target: ReportTarget, text: string, writer: { readonly pid: number; readonly streams: readonly FileId[] }): Result<void, string> {
  const stream = streamAt(target.path, writer.streams);
  if (stream !== undefined) return refused(`it is gsd-check's ${stream}, where the envelope goes`);
  if (entryKind(target.path) === 'other') return refused('not a regular file');
  const inside = target.within.filter((dir) => contains(dir, target.path));
  const made = makeDirectories(dirname(target.path), inside.length > 0 ? target.within : [], target.shown);
  if (!made.ok) return made;
  const written = replaceWithin(target, inside, text, writer.pid);
  if (!written.ok) for (const dir of made.value.toReversed()) quietly(() => rmdirSync(dir));
  return written;
}

function replaceWithin(target: ReportTarget, inside: readonly string[], text: string, pid: number): Result<void, string> {
  const real = canonicalPath(target.path);
  if (real === undefined) return refused('a symbolic link that leads nowhere');
  if (inside.length > 0 && !target.within.some((dir) => contains(dir, real))) return refused(`it leads outside ${inside[0]} (to ${real})`);
  const mode = modeOf(real);
  const temp = join(dirname(real), `.${basename(real)}.${pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
    // The mode given to open (none: open's 0666) is cut by the umask; the old
    // file's is kept whole.
    if (mode !== undefined) fchmodSync(fd, mode);
    writeAll(fd, text, writeSync);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, real);
    return ok(undefined);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    quietly(() => rmSync(temp, { force: true }));
    return refused(
      systemCode(error) === 'ENOENT' && entryKind(dirname(real)) === undefined
        ? `the directory ${shownDirectory(target.shown)} does not exist`
        : errorCode(error),
    );
  }
}

// The directories of `dir` that do not exist, made one at a time, each
// checked once made: its real path must stay inside one of `within`, so a
// link planted on the way cannot lead the report out. With no `within` (a
// report outside the project) none is made.
function makeDirectories(dir: string, within: readonly string[], shown: string): Result<string[], string> {
  const missing: string[] = [];
  for (let at = dir; !present(at); at = dirname(at)) {
    if (dirname(at) === at) break;
    missing.unshift(at);
  }
  if (missing.length === 0) return ok([]);
  if (within.length === 0) return refused(`the directory ${shownDirectory(shown)} does not exist (gsd-check makes one only inside the project)`);
  const made: string[] = [];
  const undo = (why: string): Result<string[], string> => {
    for (const each of made.toReversed()) quietly(() => rmdirSync(each));
    return refused(why);
  };
  for (const each of missing) {
    try {
      mkdirSync(each, 0o777);
      made.push(each);
    } catch (error) {
      if (systemCode(error) !== 'EEXIST') return undo(`cannot make the directory ${shownDirectory(shown)}: ${errorCode(error)}`);
    }
    const real = realPath(each);
    if (real === undefined || !within.some((root) => contains(root, real))) return undo(`it leads outside ${within[0]} (to ${real ?? each})`);
  }
  return ok(made);
}

// Whether anything is there, a link that leads nowhere included.
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
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
