import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isWorkstreamName, resolveWorkstream, sessionKey } from '../../src/project/workstream.ts';
import { project } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

const withWorkstreams = (t: import('node:test').TestContext, workstreams: string[] = []) =>
  project(t, { '.planning': null, ...Object.fromEntries(workstreams.map((name) => [`.planning/workstreams/${name}`, null])) });

const resolved = (flag: string | undefined, root: string, env: Record<string, string> = {}) => {
  const result = resolveWorkstream(flag, root, env);
  return result.ok ? result.value : `${result.failure.reason}: ${result.failure.message}`;
};

const RULE = 'a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")';

test("GSD's name rule: a letter or digit first, then letters, digits, dot, underscore, hyphen; never ..", () => {
  for (const name of ['a', 'A1', 'milestone-2', 'v1.2_beta', '9']) assert.equal(isWorkstreamName(name), true, name);
  for (const name of ['', 'my ws', '-a', '.a', '_a', 'a/b', 'a\\b', 'a..b', '..', 'é', 'a$b']) assert.equal(isWorkstreamName(name), false, name);
});

test('--ws over GSD_WORKSTREAM over the pointer; each trimmed', (t) => {
  const root = withWorkstreams(t, ['alpha', 'beta', 'gamma']);
  writeFileSync(join(root, '.planning/active-workstream'), 'gamma\n');
  assert.deepEqual(resolved(' alpha ', root, { GSD_WORKSTREAM: 'beta' }), { name: 'alpha', source: '--ws' });
  assert.deepEqual(resolved(undefined, root, { GSD_WORKSTREAM: '  beta\t' }), { name: 'beta', source: 'GSD_WORKSTREAM' });
  assert.deepEqual(resolved(undefined, root, { GSD_WORKSTREAM: '   ' }), { name: 'gamma', source: 'pointer' });
  assert.deepEqual(resolved(undefined, root), { name: 'gamma', source: 'pointer' });
  // Named on the command line or in the environment, a workstream need not exist yet.
  assert.deepEqual(resolved('new-one', root), { name: 'new-one', source: '--ws' });
});

test('an invalid name from --ws or GSD_WORKSTREAM is refused, naming where it came from', (t) => {
  const root = withWorkstreams(t);
  assert.equal(resolved('my ws', root), `usage: --ws "my ws": ${RULE}`);
  assert.equal(resolved('  ', root), 'usage: --ws needs a workstream name');
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
  for (const [name, expected] of [['ws9', { name: 'ws9', source: 'pointer' }], ['linked', { name: 'linked', source: 'pointer' }], ['dangling', undefined]] as const) {
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
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'claude-code-session-id-abc_123'), 'beta\n');
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
