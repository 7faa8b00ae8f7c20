import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { workstreamNameProblem, resolveWorkstream, sessionKey } from '../../src/project/workstream.ts';
import { project } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

const withWorkstreams = (t: import('node:test').TestContext, workstreams: string[] = []) =>
  project(t, { '.planning': null, ...Object.fromEntries(workstreams.map((name) => [`.planning/workstreams/${name}`, null])) });

const uid = process.getuid!();

// The workstream, when no warning came with it.
const resolved = (flag: string | undefined, root: string, env: Record<string, string> = {}) => {
  const result = resolveWorkstream(flag, root, env, uid);
  if (!result.ok) return `${result.failure.reason}: ${result.failure.message}`;
  assert.deepEqual(result.value.warnings, []);
  return result.value.workstream;
};

const RULE = 'a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")';

test("GSD's name rule: a letter or digit first, then letters, digits, dot, underscore, hyphen; never ..", () => {
  for (const name of ['a', 'A1', 'milestone-2', 'v1.2_beta', '9']) assert.equal(workstreamNameProblem(name), undefined, name);
  for (const name of ['', 'my ws', '-a', '.a', '_a', 'a/b', 'a\\b', 'a..b', '..', 'é', 'a$b']) assert.notEqual(workstreamNameProblem(name), undefined, name);
});

test('--ws over GSD_WORKSTREAM over the pointer; each trimmed', (t) => {
  const root = withWorkstreams(t, ['alpha', 'beta', 'gamma']);
  writeFileSync(join(root, '.planning/active-workstream'), 'gamma\n');
  // --ws comes trimmed and checked from the command line (cli/eval-options.ts).
  assert.deepEqual(resolved('alpha', root, { GSD_WORKSTREAM: 'beta' }), { name: 'alpha', source: '--ws' });
  assert.deepEqual(resolved(undefined, root, { GSD_WORKSTREAM: '  beta\t' }), { name: 'beta', source: 'GSD_WORKSTREAM' });
  assert.deepEqual(resolved(undefined, root, { GSD_WORKSTREAM: '   ' }), { name: 'gamma', source: 'pointer' });
  assert.deepEqual(resolved(undefined, root), { name: 'gamma', source: 'pointer' });
  // Named on the command line or in the environment, a workstream need not exist yet.
  assert.deepEqual(resolved('new-one', root), { name: 'new-one', source: '--ws' });
});

test('an invalid name from GSD_WORKSTREAM is refused, naming where it came from', (t) => {
  const root = withWorkstreams(t);
  assert.equal(resolved(undefined, root, { GSD_WORKSTREAM: 'my ws' }), `usage: GSD_WORKSTREAM "my ws": ${RULE}`);
  assert.equal(resolved(undefined, root, { GSD_WORKSTREAM: '../x' }), `usage: GSD_WORKSTREAM "../x": ${RULE}`);
  // --ws decides alone: a bad GSD_WORKSTREAM beside it is not read.
  assert.deepEqual(resolved('ok', root, { GSD_WORKSTREAM: 'my ws' }), { name: 'ok', source: '--ws' });
});

test('a pointer that names no existing workstream, or no valid name, is no pointer', (t) => {
  const root = withWorkstreams(t, ['alpha']);
  for (const text of ['gone\n', 'my ws', '../alpha', '\n  \n', '']) {
    writeFileSync(join(root, '.planning/active-workstream'), text);
    assert.equal(resolved(undefined, root), undefined, JSON.stringify(text));
  }
  writeFileSync(join(root, '.planning/active-workstream'), '  alpha  \n');
  assert.deepEqual(resolved(undefined, root), { name: 'alpha', source: 'pointer' });
});

test('a pointer names a workstream whatever is there, as GSD tests it: a regular file, a link to a directory; not a link to nothing', (t) => {
  const root = withWorkstreams(t, ['alpha']);
  writeFileSync(join(root, '.planning/workstreams/ws9'), 'a file\n');
  symlinkSync('alpha', join(root, '.planning/workstreams/linked'));
  symlinkSync('nothing', join(root, '.planning/workstreams/dangling'));
  for (const [name, expected] of [
    ['ws9', { name: 'ws9', source: 'pointer' }],
    ['linked', { name: 'linked', source: 'pointer' }],
    ['dangling', undefined],
  ] as const) {
    writeFileSync(join(root, '.planning/active-workstream'), `${name}\n`);
    assert.deepEqual(resolved(undefined, root), expected, name);
  }
});

test("an agent session's own pointer comes first; a session without one reads the shared pointer", (t) => {
  const root = withWorkstreams(t, ['alpha', 'beta']);
  const tmp = tempDir(t);
  writeFileSync(join(root, '.planning/active-workstream'), 'alpha\n');
  const env = { TMPDIR: `${tmp}/`, CLAUDE_CODE_SESSION_ID: 'abc 123' };
  assert.equal(sessionKey(env), 'claude-code-session-id-abc_123');
  assert.deepEqual(resolved(undefined, root, env), { name: 'alpha', source: 'pointer' });
  const project16 = createHash('sha1').update(join(root, '.planning')).digest('hex').slice(0, 16);
  const dir = join(tmp, 'gsd-workstream-sessions', project16);
  // Modes given, whatever the umask: a pointer others may write is ignored.
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  writeFileSync(join(dir, 'claude-code-session-id-abc_123'), 'beta\n', { mode: 0o644 });
  assert.deepEqual(resolved(undefined, root, env), { name: 'beta', source: 'pointer' });
  // The temporary directory as Node's os.tmpdir() finds it: TMPDIR, TMP or
  // TEMP, the first set, a trailing slash dropped.
  const session = { CLAUDE_CODE_SESSION_ID: 'abc 123' };
  for (const tmpEnv of [{ TMPDIR: tmp }, { TMP: tmp }, { TEMP: `${tmp}/` }, { TMPDIR: tmp, TMP: '/nowhere' }, { TMP: tmp, TEMP: '/nowhere' }]) {
    assert.deepEqual(resolved(undefined, root, { ...session, ...tmpEnv }), { name: 'beta', source: 'pointer' }, JSON.stringify(tmpEnv));
  }
  // Keyed by the real path of .planning: the same pointer through a link.
  const link = join(tempDir(t), 'link');
  symlinkSync(root, link);
  assert.deepEqual(resolved(undefined, link, env), { name: 'beta', source: 'pointer' });
  // An empty pointer of the session's own is none: the shared one counts.
  writeFileSync(join(dir, 'claude-code-session-id-abc_123'), ' \n');
  assert.deepEqual(resolved(undefined, root, env), { name: 'alpha', source: 'pointer' });
  // Without a session, pointers of sessions are not looked at.
  assert.deepEqual(resolved(undefined, root, { TMPDIR: tmp }), { name: 'alpha', source: 'pointer' });
  // A session whose own pointer is stale does not fall back to another's choice.
  writeFileSync(join(dir, 'claude-code-session-id-abc_123'), 'gone\n');
  assert.equal(resolved(undefined, root, env), undefined);
});

test("the session key: GSD's variables in its order, then the terminal", () => {
  assert.equal(sessionKey({}), undefined);
  assert.equal(sessionKey({ TMUX_PANE: '%3', GSD_SESSION_KEY: ' k/1 ' }), 'gsd-session-key-k_1');
  assert.equal(sessionKey({ GSD_SESSION_KEY: '///', TMUX_PANE: '%3' }), 'tmux-pane-3');
  assert.equal(sessionKey({ TTY: '/dev/pts/4' }), 'tty-pts_4');
  assert.equal(sessionKey({ SSH_TTY: 'x'.repeat(200) }), `tty-${'x'.repeat(160)}`);
});

// A project with workstreams alpha (shared pointer) and beta (the session's
// own pointer, under a temp directory of the test's), every mode given.
function sessionProject(t: import('node:test').TestContext) {
  const root = withWorkstreams(t, ['alpha', 'beta']);
  writeFileSync(join(root, '.planning/active-workstream'), 'alpha\n');
  const tmp = tempDir(t);
  const sessions = join(tmp, 'gsd-workstream-sessions');
  const project = join(sessions, createHash('sha1').update(join(root, '.planning')).digest('hex').slice(0, 16));
  mkdirSync(project, { recursive: true, mode: 0o755 });
  chmodSync(sessions, 0o755);
  chmodSync(project, 0o755);
  const pointer = join(project, 'tmux-pane-3');
  writeFileSync(pointer, 'beta\n', { mode: 0o644 });
  const env = { TMPDIR: tmp, TMUX_PANE: '%3' };
  const resolve = (as: number | undefined = uid) => {
    const result = resolveWorkstream(undefined, root, env, as);
    assert.ok(result.ok);
    return { name: result.value.workstream?.name, warnings: result.value.warnings };
  };
  // Not resolve(undefined), which would be resolve() by its default.
  const resolveUnowned = () => {
    const result = resolveWorkstream(undefined, root, env, undefined);
    assert.ok(result.ok);
    return { name: result.value.workstream?.name, warnings: result.value.warnings };
  };
  return { root, sessions, project, pointer, resolve, resolveUnowned };
}

test('a session pointer that others may write, or that sits in a directory they may write, is ignored with a warning', (t) => {
  const { sessions, project, pointer, resolve } = sessionProject(t);
  assert.deepEqual(resolve(), { name: 'beta', warnings: [] });
  for (const [path, mode, who] of [
    [pointer, 0o664, 'its group'],
    [pointer, 0o646, 'others'],
    [project, 0o775, 'its group'],
    [project, 0o1777, 'its group and others'],
    [sessions, 0o757, 'others'],
  ] as const) {
    const before = path === pointer ? 0o644 : 0o755;
    chmodSync(path, mode);
    assert.deepEqual(
      resolve(),
      { name: 'alpha', warnings: [`the session pointer ${pointer} is ignored: ${path} may be written by ${who}`] },
      `${path} ${mode.toString(8)}`,
    );
    chmodSync(path, before);
  }
  // Readable by all is not writable by all: 0o600 and 0o711 are fine too.
  chmodSync(pointer, 0o600);
  chmodSync(project, 0o711);
  assert.deepEqual(resolve(), { name: 'beta', warnings: [] });
});

test("a session pointer, or a directory on its way, that is another user's is ignored with a warning; root's counts", (t) => {
  const { sessions, project, pointer, resolve } = sessionProject(t);
  // As root, an entry is given away (chown); as another user, the entries are
  // ours and the run is someone else's (neither their owner nor root).
  const runner = uid === 0 ? 0 : uid + 1;
  const owner = uid === 0 ? 4242 : uid;
  for (const path of [pointer, project, sessions]) {
    if (uid === 0) chownSync(path, owner, owner);
    assert.deepEqual(
      resolve(runner),
      { name: 'alpha', warnings: [`the session pointer ${pointer} is ignored: ${path} belongs to uid ${owner}, not to this user or root`] },
      path,
    );
    if (uid === 0) chownSync(path, 0, 0);
    else break;
  }
  if (uid === 0) {
    // Root's entries count for every user.
    for (const path of [pointer, project, sessions]) chownSync(path, 0, 0);
    assert.deepEqual(resolve(4242), { name: 'beta', warnings: [] });
  }
});

test('a session directory that is a symbolic link is ignored with a warning; a missing pointer is no pointer, without one', (t) => {
  const { sessions, project, pointer, resolve } = sessionProject(t);
  const real = `${project}.real`;
  renameSync(project, real);
  symlinkSync(real, project);
  assert.deepEqual(resolve(), { name: 'alpha', warnings: [`the session pointer ${pointer} is ignored: ${project} is a symbolic link`] });
  // A pointer that is not there warns of nothing, whoever owns the directories.
  chmodSync(sessions, 0o777);
  assert.deepEqual(resolve(), { name: 'alpha', warnings: [`the session pointer ${pointer} is ignored: ${sessions} may be written by its group and others`] });
  const { pointer: other, sessions: otherSessions, resolve: resolveOther } = sessionProject(t);
  chmodSync(otherSessions, 0o777);
  rmSync(other);
  assert.deepEqual(resolveOther(), { name: 'alpha', warnings: [] });
});

test('a FIFO as the session pointer is no pointer and does not block', (t) => {
  const { pointer, resolve } = sessionProject(t);
  rmSync(pointer);
  assert.equal(spawnSync('mkfifo', [pointer]).status, 0);
  assert.deepEqual(resolve(), { name: 'alpha', warnings: [] });
});

test('where the platform has no owners (uid undefined), a session pointer is read as GSD reads it', (t) => {
  const { pointer, resolveUnowned } = sessionProject(t);
  chmodSync(pointer, 0o666);
  assert.deepEqual(resolveUnowned(), { name: 'beta', warnings: [] });
});
