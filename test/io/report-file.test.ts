import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { appendToFile, replaceFile, type FileId } from '../../src/io/report-file.ts';
import { tempDir } from '../helpers/support.ts';
import type { Result } from '../../src/failure.ts';

const writer = { pid: 42, streams: [] as FileId[] };

// Why nothing was written, or undefined when it was.
const why = (result: Result<void, string>): string | undefined => (result.ok ? undefined : result.failure);

test('a report is replaced whole and keeps the mode of the file it replaces; a new one gets the usual mode', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'gates.xml');
  writeFileSync(file, 'old');
  chmodSync(file, 0o600);
  assert.equal(why(replaceFile({ path: file, shown: 'gates.xml', within: [dir] }, 'new', writer)), undefined);
  assert.equal(readFileSync(file, 'utf8'), 'new');
  assert.equal(statSync(file).mode & 0o7777, 0o600);
  chmodSync(file, 0o640);
  assert.equal(why(replaceFile({ path: file, shown: 'gates.xml', within: [dir] }, 'newer', writer)), undefined);
  assert.equal(statSync(file).mode & 0o7777, 0o640);
  assert.deepEqual(readdirSync(dir), ['gates.xml'], 'no temporary file left');
});

test('the replaced file keeps a mode the umask would cut, whole; a new one gets what the umask leaves of 0666', (t) => {
  const umask = process.umask(0o022);
  t.after(() => process.umask(umask));
  const dir = tempDir(t);
  const file = join(dir, 'gates.xml');
  writeFileSync(file, 'old');
  for (const mode of [0o666, 0o777, 0o620]) {
    chmodSync(file, mode);
    assert.equal(why(replaceFile({ path: file, shown: 'gates.xml', within: [dir] }, 'new', writer)), undefined);
    assert.equal(statSync(file).mode & 0o7777, mode, mode.toString(8));
  }
  assert.equal(why(replaceFile({ path: join(dir, 'new.xml'), shown: 'new.xml', within: [dir] }, 'new', writer)), undefined);
  assert.equal(statSync(join(dir, 'new.xml')).mode & 0o7777, 0o644);
  assert.deepEqual(readdirSync(dir).sort(), ['gates.xml', 'new.xml']);
});

// The temporary file's name is known ahead (the pid is no secret): anyone
// who can write beside the report can plant a link there.
test("a link planted at the temporary file's name is never written through: the report is refused, and what it leads to stays as it was", (t) => {
  const dir = tempDir(t);
  const outside = tempDir(t);
  const file = join(dir, 'gates.xml');
  writeFileSync(file, 'old');
  chmodSync(file, 0o644);
  writeFileSync(join(outside, 'bashrc'), 'mine\n');
  chmodSync(join(outside, 'bashrc'), 0o600);
  const temp = join(dir, `.gates.xml.${writer.pid}.tmp`);
  symlinkSync(join(outside, 'bashrc'), temp);
  assert.equal(why(replaceFile({ path: file, shown: 'gates.xml', within: [dir] }, 'new', writer)), 'EEXIST');
  assert.equal(readFileSync(join(outside, 'bashrc'), 'utf8'), 'mine\n');
  assert.equal(statSync(join(outside, 'bashrc')).mode & 0o7777, 0o600);
  assert.equal(lstatSync(file).isFile(), true);
  assert.equal(readFileSync(file, 'utf8'), 'old');
  assert.deepEqual(readdirSync(dir), ['gates.xml']);
  // A link that leads nowhere yet: nothing is made where it leads.
  symlinkSync(join(outside, 'autostart.desktop'), temp);
  assert.equal(why(replaceFile({ path: file, shown: 'gates.xml', within: [dir] }, 'new', writer)), 'EEXIST');
  assert.deepEqual(readdirSync(outside), ['bashrc']);
  assert.equal(readFileSync(file, 'utf8'), 'old');
});

test('a report inside the project whose link, or a directory on the way, leads out of it is refused; one written outside as given is not', (t) => {
  const project = tempDir(t);
  const outside = tempDir(t);
  writeFileSync(join(outside, 'bashrc'), 'mine\n');
  mkdirSync(join(project, 'reports'));
  symlinkSync(join(outside, 'bashrc'), join(project, 'reports', 'gates.xml'));
  symlinkSync(outside, join(project, 'linked'));
  const target = (shown: string) => ({ path: join(project, shown), shown, within: [project] });
  assert.equal(why(replaceFile(target('reports/gates.xml'), 'x', writer)), `it leads outside ${project} (to ${join(outside, 'bashrc')})`);
  assert.equal(why(replaceFile(target('linked/new.xml'), 'x', writer)), `it leads outside ${project} (to ${join(outside, 'new.xml')})`);
  assert.equal(readFileSync(join(outside, 'bashrc'), 'utf8'), 'mine\n');
  assert.deepEqual(readdirSync(outside), ['bashrc']);
  // Inside any of the directories given counts (the project, --cwd).
  const cwd = join(outside, 'cwd');
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'real.xml'), 'old');
  symlinkSync(join(cwd, 'real.xml'), join(project, 'reports', 'to-cwd.xml'));
  assert.equal(why(replaceFile({ path: join(project, 'reports', 'to-cwd.xml'), shown: 'x', within: [project, cwd] }, 'x', writer)), undefined);
  // A link that stays inside is followed.
  writeFileSync(join(project, 'kept.xml'), 'old');
  symlinkSync('../kept.xml', join(project, 'reports', 'inner.xml'));
  assert.equal(why(replaceFile(target('reports/inner.xml'), 'inner', writer)), undefined);
  assert.equal(readFileSync(join(project, 'kept.xml'), 'utf8'), 'inner');
  // A path the caller wrote outside the project is the caller's choice.
  assert.equal(why(replaceFile({ path: join(outside, 'chosen.xml'), shown: join(outside, 'chosen.xml'), within: [project] }, 'x', writer)), undefined);
});

test('missing directories inside the project are made, one at a time; outside it, one is named as the caller wrote it, with no errno', (t) => {
  const dir = tempDir(t);
  assert.equal(why(replaceFile({ path: join(dir, 'out', 'x.xml'), shown: 'out/x.xml', within: [dir] }, 'x', writer)), undefined);
  assert.equal(why(replaceFile({ path: join(dir, 'a', 'b', 'x.xml'), shown: 'a/b/x.xml', within: [dir] }, 'ab', writer)), undefined);
  assert.deepEqual([readFileSync(join(dir, 'out', 'x.xml'), 'utf8'), readFileSync(join(dir, 'a', 'b', 'x.xml'), 'utf8')], ['x', 'ab']);
  const elsewhere = tempDir(t);
  assert.equal(
    why(replaceFile({ path: join(elsewhere, 'a', 'b', 'x.xml'), shown: join(elsewhere, 'a', 'b', 'x.xml'), within: [dir] }, 'x', writer)),
    `the directory ${join(elsewhere, 'a', 'b')}/ does not exist (gsd-check makes one only inside the project)`,
  );
  assert.deepEqual(readdirSync(elsewhere), []);
});

test('a directory made through a link planted on the way may not lead out: it is removed, and so is every one made before it', (t) => {
  const project = tempDir(t);
  const outside = tempDir(t);
  symlinkSync(outside, join(project, 'reports'));
  const made = replaceFile({ path: join(project, 'reports', 'gsd', 'x.xml'), shown: 'reports/gsd/x.xml', within: [project] }, 'x', writer);
  assert.equal(why(made), `it leads outside ${project} (to ${join(outside, 'gsd')})`);
  assert.deepEqual(readdirSync(outside), []);
  // One that cannot be made takes back those made before it.
  const long = 'x'.repeat(300);
  assert.equal(
    why(replaceFile({ path: join(project, 'new', long, 'x.xml'), shown: `new/${long}/x.xml`, within: [project] }, 'x', writer)),
    `cannot make the directory new/${long}/: ENAMETOOLONG`,
  );
  assert.equal(existsSync(join(project, 'new')), false);
  // A file on the way: nothing to make a directory in.
  writeFileSync(join(project, 'file'), '');
  assert.equal(why(replaceFile({ path: join(project, 'new', 'file', 'x', 'x.xml'), shown: 'new/file/x/x.xml', within: [project] }, 'x', writer)), undefined);
  assert.equal(
    why(replaceFile({ path: join(project, 'file', 'x', 'x.xml'), shown: 'file/x/x.xml', within: [project] }, 'x', writer)),
    'cannot make the directory file/x/: ENOTDIR',
  );
});

test('the file behind standard output or standard error is never replaced', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'stdout.txt');
  writeFileSync(file, 'the envelope');
  const { dev, ino } = statSync(file);
  for (const name of ['standard output', 'standard error'] as const) {
    const written = replaceFile({ path: file, shown: 'stdout.txt', within: [dir] }, 'x', { pid: 42, streams: [{ dev, ino, name }] });
    assert.equal(why(written), `it is gsd-check's ${name}, where the envelope goes`);
  }
  assert.equal(readFileSync(file, 'utf8'), 'the envelope');
});

test('an append cut short (a full disk) is taken back whole: the file keeps its old length', (t) => {
  const file = join(tempDir(t), 'summary.md');
  writeFileSync(file, 'earlier step\n');
  let calls = 0;
  // Writes part of what it is given, then the disk is full.
  const shortThenFull = (fd: number, buffer: Uint8Array, offset: number, length: number): number => {
    if (calls++ === 0) return writeSync(fd, buffer, offset, Math.min(length, 5));
    throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
  };
  assert.equal(why(appendToFile(file, '| a table |\n| of rows |\n', shortThenFull)), 'ENOSPC');
  assert.equal(readFileSync(file, 'utf8'), 'earlier step\n');
  // Short writes that go on to the end are a whole append.
  // Each write is asked for all that is left, no more.
  const asked: string[] = [];
  const fewAtATime = (fd: number, buffer: Uint8Array, offset: number, length: number): number => {
    asked.push(`${offset}+${length}`);
    return writeSync(fd, buffer, offset, Math.min(length, 3));
  };
  assert.equal(why(appendToFile(file, 'whole\n', fewAtATime)), undefined);
  assert.equal(readFileSync(file, 'utf8'), 'earlier step\nwhole\n');
  assert.deepEqual(asked, ['0+6', '3+3']);
  // A write that makes no progress ends the append, taken back, instead of asking for ever.
  let zeros = 0;
  const noProgress = (fd: number, buffer: Uint8Array, offset: number, length: number): number =>
    zeros++ === 0 ? writeSync(fd, buffer, offset, Math.min(length, 2)) : 0;
  assert.equal(why(appendToFile(file, 'never\n', noProgress)), 'the write made no progress');
  assert.deepEqual([readFileSync(file, 'utf8'), zeros], ['earlier step\nwhole\n', 2]);
  // /dev/full: nothing is written, and there is nothing to take back.
  assert.equal(why(appendToFile('/dev/full', 'x')), 'ENOSPC');
});

test('what a report makes gets the usual modes: a summary file 0666, a folder 0777, less what the umask takes', (t) => {
  const umask = process.umask(0o022);
  t.after(() => process.umask(umask));
  const dir = tempDir(t);
  assert.equal(why(appendToFile(join(dir, 'summary.md'), 'x')), undefined);
  assert.equal(statSync(join(dir, 'summary.md')).mode & 0o7777, 0o644);
  assert.equal(why(replaceFile({ path: join(dir, 'reports', 'gsd', 'x.xml'), shown: 'reports/gsd/x.xml', within: [dir] }, 'x', writer)), undefined);
  assert.deepEqual(
    ['reports', 'reports/gsd'].map((folder) => statSync(join(dir, folder)).mode & 0o7777),
    [0o755, 0o755],
  );
});

test('a report that cannot be written after its folders were made takes them back; one whose folder is a link to nothing says the folder is missing', (t) => {
  const project = tempDir(t);
  // A name the file system takes, but not with the temporary file's prefix and suffix added.
  const name = `${'y'.repeat(250)}.xml`;
  assert.equal(why(replaceFile({ path: join(project, 'new', 'deeper', name), shown: `new/deeper/${name}`, within: [project] }, 'x', writer)), 'ENAMETOOLONG');
  assert.deepEqual(readdirSync(project), []);
  // Folders that were there stay.
  mkdirSync(join(project, 'kept'));
  assert.equal(why(replaceFile({ path: join(project, 'kept', 'new', name), shown: `kept/new/${name}`, within: [project] }, 'x', writer)), 'ENAMETOOLONG');
  assert.deepEqual(readdirSync(project), ['kept']);
  assert.deepEqual(readdirSync(join(project, 'kept')), []);
  symlinkSync(join(project, 'nowhere'), join(project, 'reports'));
  assert.equal(
    why(replaceFile({ path: join(project, 'reports', 'x.xml'), shown: 'reports/x.xml', within: [project] }, 'x', writer)),
    'the directory reports/ does not exist',
  );
  // A folder that is a loop of links is there, and says so: not a missing one.
  symlinkSync(join(project, 'loop'), join(project, 'loop'));
  assert.equal(why(replaceFile({ path: join(project, 'loop', 'x.xml'), shown: 'loop/x.xml', within: [project] }, 'x', writer)), 'ELOOP');
  assert.deepEqual(readdirSync(project).sort(), ['kept', 'loop', 'reports']);
});
