// The command line and what it prints: exit statuses, error forms, --pick,
// --json-errors and GSD_JSON_ERRORS, placeholders, and the command runner's
// rows of the differences table.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { command } from '../case.mjs';

const TRUE = command('true');
const inProject = (c) => ({ tree: { 'p/.planning': {} }, cwd: 'p', ...c });
const oneJsonLine = (text) => {
  assert.match(text, /^\{.*\}\n?$/);
  return JSON.parse(text);
};

// GSD's global flags (gsd-tools.cjs): --project-dir, --ws and the workstream
// rules, --exit-contract and GSD_EXIT_CONTRACT, --pick with brackets.
const ASSERT_WS = (name) => command(`test "$GSD_WORKSTREAM" = '${name}'`);

// A project whose shared pointer names gamma and whose session pointers live
// under its own temp directory; no variable of the machine's names a session.
const SESSION_VARIABLES = [
  'GSD_SESSION_KEY',
  'CODEX_THREAD_ID',
  'CLAUDE_SESSION_ID',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_SSE_PORT',
  'OPENCODE_SESSION_ID',
  'GEMINI_SESSION_ID',
  'CURSOR_SESSION_ID',
  'WINDSURF_SESSION_ID',
  'TERM_SESSION_ID',
  'WT_SESSION',
  'TMUX_PANE',
  'ZELLIJ_SESSION_NAME',
  'TTY',
  'SSH_TTY',
];
const SESSION = {
  tree: { 'p/.planning/active-workstream': 'gamma\n', 'p/.planning/workstreams/gamma': {}, 'p/.planning/workstreams/beta': {}, tmp: {} },
  cwd: 'p',
  args: ['--predicate', command('test "$GSD_WORKSTREAM" = beta'), '--raw'],
  env: (root) => ({ ...Object.fromEntries(SESSION_VARIABLES.map((v) => [v, ''])), TMPDIR: join(root, 'tmp') }),
};
// GSD's folder of session pointers for the project p under `root`: named by
// the first 16 hex digits of the SHA-1 of its planning directory's real path.
const sessionPointers = (root) =>
  `tmp/gsd-workstream-sessions/${createHash('sha1')
    .update(join(root, 'p', '.planning'))
    .digest('hex')
    .slice(0, 16)}`;
const shellQuoted = (word) => `'${word.replace(/'/g, "'\\''")}'`;
// Runs a tool after the session pointers' folder is made no one else's to
// write, whatever the umask, and then after `then` (a shell command).
const sessionsPrivate =
  (then = 'true') =>
  (argv) => ['sh', '-c', `chmod -R go-w "$TMPDIR/gsd-workstream-sessions" && ${then} && exec "$@"`, 'sh', ...argv];
const which = (name) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, name)));

const GLOBAL_FLAG_CASES = [
  {
    name: '--project-dir is the project root, from anywhere',
    tree: { 'p/.planning': {}, elsewhere: {} },
    cwd: 'elsewhere',
    args: ['--predicate', command(), '--project-dir', '../p', '--raw'],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'p'),
  },
  {
    name: '--project-dir skips the search up: a directory inside a project is not one',
    tree: { 'p/.planning': {}, 'p/src': {} },
    cwd: 'p',
    args: ['--predicate', command(), '--project-dir', 'src', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: Invalid --project-dir: .*\/p\/src \(no \.planning\/ directory found/);
      assert.match(check.stderr, /^gsd-check: --project-dir .*\/p\/src has no \.planning directory; it must name the project root itself/);
    },
  },
  ...[
    ['missing', 'no such directory'],
    ['file', 'not a directory'],
  ].map(([given, what]) => ({
    name: `--project-dir ${given === 'file' ? 'that is a file' : 'that does not exist'}: a usage error in both, as --json-errors says`,
    tree: { 'p/.planning': {}, 'p/file': 'not a directory\n' },
    cwd: 'p',
    args: ['--predicate', command(), '--project-dir', given, '--json-errors', '--raw'],
    gsd: 'error',
    expect: (gsd, check) => {
      const theirs = oneJsonLine(gsd.stderr);
      assert.equal(theirs.reason, 'usage');
      assert.match(theirs.message, new RegExp(`^Invalid --project-dir: .*/p/${given} \\(path does not exist or is not a directory\\)$`));
      const ours = oneJsonLine(check.stderr);
      assert.equal(ours.reason, 'usage');
      assert.match(ours.message, new RegExp(`^--project-dir .*/p/${given}: ${what}$`));
    },
  })),
  {
    name: '--project-dir over --cwd',
    tree: { 'p/.planning': {}, 'q/.planning': {} },
    args: ['--predicate', command(), '--cwd', 'q', '--project-dir', 'p', '--raw'],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'p'),
  },
  inProject({
    name: '--ws: the workstream reaches the command as GSD_WORKSTREAM',
    args: ['--predicate', ASSERT_WS('alpha'), '--ws', 'alpha', '--raw'],
    env: { GSD_WORKSTREAM: 'beta' },
    gsd: 'pass',
  }),
  inProject({
    name: 'GSD_WORKSTREAM is trimmed and passed on',
    args: ['--predicate', ASSERT_WS('beta'), '--raw'],
    env: { GSD_WORKSTREAM: '  beta\t' },
    gsd: 'pass',
  }),
  inProject({
    name: 'an invalid GSD_WORKSTREAM is refused',
    args: ['--predicate', TRUE, '--raw'],
    env: { GSD_WORKSTREAM: 'my ws' },
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.equal(gsd.stderr, 'Error: Invalid workstream name: must be alphanumeric, hyphens, underscores, or dots\n');
      assert.equal(
        check.stderr,
        'gsd-check: GSD_WORKSTREAM "my ws": a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")\n',
      );
    },
  }),
  inProject({
    name: 'an invalid --ws is refused',
    args: ['--predicate', TRUE, '--ws', '../x', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
  }),
  inProject({
    name: 'a malformed --ws and a --cwd that is not a directory: each tool names what it checks first',
    args: ['--predicate', TRUE, '--ws', '../x', '--cwd', 'nowhere', '--raw'],
    gsd: 'error',
    differs: 'D64',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: Invalid --cwd: .*nowhere\n$/);
      assert.equal(
        check.stderr,
        'gsd-check: --ws "../x": a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..") (see gsd-check --help)\n',
      );
    },
  }),
  inProject({
    name: 'the active-workstream pointer names the workstream when nothing else does',
    tree: { 'p/.planning/active-workstream': 'gamma\n', 'p/.planning/workstreams/gamma': {} },
    args: ['--predicate', ASSERT_WS('gamma'), '--raw'],
    gsd: 'pass',
  }),
  inProject({
    name: 'GSD_WORKSTREAM over the pointer',
    tree: { 'p/.planning/active-workstream': 'gamma\n', 'p/.planning/workstreams/gamma': {} },
    args: ['--predicate', ASSERT_WS('delta'), '--raw'],
    env: { GSD_WORKSTREAM: 'delta' },
    gsd: 'pass',
  }),
  inProject({
    name: 'a pointer to a workstream that is gone, or to no valid name, is no pointer',
    tree: { 'p/.planning/active-workstream': 'gone\n' },
    args: ['--predicate', command('test -z "${GSD_WORKSTREAM+set}"'), '--raw'],
    gsd: 'pass',
  }),
  {
    name: "a session's own pointer, keyed by TTY: read by both over the project's",
    ...SESSION,
    env: (root) => ({ ...SESSION.env(root), TTY: '/dev/pts/9' }),
    tree: (root) => ({ ...SESSION.tree, [`${sessionPointers(root)}/tty-pts_9`]: 'beta\n' }),
    // Whatever the umask: gsd-check reads only a pointer no one else may write (D58).
    wrap: sessionsPrivate(),
    gsd: 'pass',
  },
  {
    name: 'a session pointer others may write: GSD reads it, gsd-check ignores it with a warning',
    ...SESSION,
    env: (root) => ({ ...SESSION.env(root), TTY: '/dev/pts/9' }),
    tree: (root) => ({ ...SESSION.tree, [`${sessionPointers(root)}/tty-pts_9`]: 'beta\n' }),
    wrap: sessionsPrivate('find "$TMPDIR/gsd-workstream-sessions" -type f -exec chmod o+w {} +'),
    gsd: 'pass',
    differs: 'D58',
    check: 'block',
    expect: (gsd, check) => {
      const pointer = join(check.root, sessionPointers(check.root), 'tty-pts_9');
      assert.equal(gsd.stderr, '');
      assert.equal(check.stderr, `gsd-check: warning: the session pointer ${pointer} is ignored: ${pointer} may be written by others\n`);
    },
  },
  {
    name: 'a terminal and no session variable: GSD asks the terminal its name for the session pointer, gsd-check asks nothing',
    ...SESSION,
    // Under a terminal (util-linux `script`), the session pointer written
    // for the name `tty` gives there, as `gsd workstream use` would.
    wrap: (argv) => [
      'script',
      '-qec',
      `mkdir -p "$POINTERS" && echo beta > "$POINTERS/tty-$(tty | sed 's,^/dev/,,; s,[^A-Za-z0-9._-]\\+,_,g')" && exec ${argv.map(shellQuoted).join(' ')}`,
      '/dev/null',
    ],
    env: (root) => ({ ...SESSION.env(root), POINTERS: join(root, sessionPointers(root)) }),
    skip: which('script') ? false : 'needs util-linux script for a terminal',
    gsd: 'pass',
    differs: 'D24',
    check: 'block',
  },
  inProject({
    name: '--ws with spaces: GSD exports them, gsd-check trims',
    args: ['--predicate', ASSERT_WS('alpha'), '--ws', ' alpha ', '--raw'],
    gsd: 'block',
    differs: 'D24',
    check: 'pass',
  }),
  inProject({
    name: 'the pointer from a subdirectory, outside git: GSD looks in the start directory',
    tree: { 'p/.planning/active-workstream': 'gamma\n', 'p/.planning/workstreams/gamma': {}, 'p/sub': {} },
    cwd: 'p/sub',
    args: ['--predicate', ASSERT_WS('gamma'), '--raw'],
    gsd: 'block',
    differs: 'D24',
    check: 'pass',
  }),
  inProject({
    name: '--exit-contract=v2 changes nothing: no envelope of check predicate is DEGRADED',
    args: ['--predicate', command('exit 1'), '--exit-contract=v2', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => assert.deepEqual([gsd.status, check.status], [0, 0]),
  }),
  inProject({
    name: '--exit-contract=v2: a check that fails exits 64 (EX_USAGE) in GSD, 2 in gsd-check',
    args: ['--predicate', JSON.stringify({ kind: 'nope' }), '--exit-contract=v2', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => assert.deepEqual([gsd.status, check.status], [64, 2]),
  }),
  inProject({
    name: 'GSD_EXIT_CONTRACT=v2, and an empty one (unset)',
    args: ['--predicate', TRUE, '--raw'],
    env: { GSD_EXIT_CONTRACT: '' },
    gsd: 'pass',
  }),
  inProject({
    name: 'an exit contract that is not v1 or v2 is refused, from the flag or the environment',
    args: ['--predicate', TRUE, '--raw'],
    env: { GSD_EXIT_CONTRACT: 'v3' },
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: resolveContractVersion: unrecognized exit-contract version "v3" \(expected 'v1' or 'v2'\)\n/);
      assert.equal(check.stderr, 'gsd-check: GSD_EXIT_CONTRACT "v3" is not an exit contract; v1 or v2 (see gsd-check --help)\n');
    },
  }),
  inProject({
    name: '--exit-contract=v3 is refused',
    args: ['--predicate', TRUE, '--exit-contract=v3', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
  }),
  inProject({
    name: '--exit-contract in the spaced form is read and checked',
    args: ['--predicate', TRUE, '--exit-contract', 'v3', '--raw'],
    gsd: 'pass',
    differs: 'D25',
    check: 'error',
  }),
  inProject({
    name: '--pick with brackets: a list item of the details',
    args: [
      '--predicate',
      JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact: 'NOPE.md', field: 'x', equals: 0 }),
      '--pick',
      'details.searched[-1]',
    ],
    gsd: 'error', // GSD's details have no `searched`: field not found
    differs: 'D22',
    check: 'error', // a bare value, not an envelope
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: --pick "details\.searched\[-1\]": field not found/);
      assert.deepEqual([check.status, check.stdout], [0, `${check.root}/p\n`]);
    },
  }),
  inProject({
    name: '--pick with brackets on a single value is refused before the command runs',
    args: ['--predicate', command('touch ran'), '--pick', 'block[0]'],
    gsd: 'error',
    differs: 'D12',
    check: 'error',
    observe: ['p/ran'],
    expect: (gsd, check) => {
      assert.deepEqual([gsd.seen['p/ran'], check.seen['p/ran']], [true, false]);
      assert.equal(check.stderr, 'gsd-check: --pick block[0]: block is a single value, with nothing below it (see gsd-check --help)\n');
    },
  }),
];

export const CLI_CASES = [
  inProject({
    name: 'a predicate that is not JSON: exit 1 and Error: in GSD, exit 2 and gsd-check: here',
    args: ['--predicate', 'nope', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.deepEqual([gsd.status, gsd.stdout, gsd.stderr], [1, '', 'Error: predicate --predicate value must be valid JSON\n']);
      assert.deepEqual([check.status, check.stdout], [2, '']);
      assert.match(check.stderr, /^gsd-check: --predicate is not valid JSON: .*\n$/);
    },
  }),
  inProject({
    name: 'an unknown kind',
    args: ['--predicate', JSON.stringify({ kind: 'nope' }), '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.equal(gsd.status, 1);
      assert.equal(check.status, 2);
      assert.equal(check.stderr, 'gsd-check: unknown predicate kind "nope"; known kinds: command-exit-zero, artifact-frontmatter-equals\n');
    },
  }),
  inProject({
    name: '--json-errors: one JSON line each, reasons of their own',
    args: ['--predicate', 'nope', '--json-errors', '--raw'],
    gsd: 'error',
    differs: 'D11',
    check: 'error',
    expect: (gsd, check) => {
      assert.deepEqual(oneJsonLine(gsd.stderr), { ok: false, reason: 'usage', message: 'predicate --predicate value must be valid JSON' });
      const line = oneJsonLine(check.stderr);
      assert.deepEqual([line.ok, line.reason], [false, 'invalid-json']);
    },
  }),
  inProject({
    name: 'GSD_JSON_ERRORS=1 acts as --json-errors',
    args: ['--predicate', JSON.stringify({ kind: 'nope' }), '--raw'],
    env: { GSD_JSON_ERRORS: '1' },
    gsd: 'error',
    expect: (gsd, check) => {
      assert.equal(oneJsonLine(gsd.stderr).ok, false);
      assert.deepEqual(oneJsonLine(check.stderr), {
        ok: false,
        reason: 'unknown-kind',
        message: 'unknown predicate kind "nope"; known kinds: command-exit-zero, artifact-frontmatter-equals',
      });
    },
  }),
  inProject({
    name: 'GSD_JSON_ERRORS other than 1 changes nothing',
    args: ['--predicate', 'nope', '--raw'],
    env: { GSD_JSON_ERRORS: 'true' },
    gsd: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: /);
      assert.match(check.stderr, /^gsd-check: /);
    },
  }),
  inProject({
    name: '--pick block prints the bare value; gsd-check ends the line',
    args: ['--predicate', TRUE, '--pick', 'block'],
    gsd: 'error', // no envelope on stdout: the bare value
    differs: 'D12',
    check: 'error',
    expect: (gsd, check) => {
      assert.deepEqual([gsd.status, gsd.stdout], [0, 'false']);
      assert.deepEqual([check.status, check.stdout], [0, 'false\n']);
    },
  }),
  inProject({
    name: '--pick of a field the envelope cannot have is refused before the command runs',
    args: ['--predicate', command(), '--pick', 'details.exitcode'],
    gsd: 'error',
    differs: 'D12',
    check: 'error',
    expect: (gsd, check) => {
      assert.equal(gsd.status, 1);
      assert.equal(gsd.ranIn, 'p', 'GSD ran the command, then failed on the field');
      assert.equal(check.ranIn, null, 'gsd-check refused before running anything');
      assert.deepEqual(
        [check.status, check.stderr],
        [2, 'gsd-check: --pick details.exitcode: no such field in a command-exit-zero envelope; did you mean details.exitCode? (see gsd-check --help)\n'],
      );
    },
  }),
  inProject({
    name: 'an unknown flag',
    args: ['--predicate', TRUE, '--bogus', 'x', '--raw'],
    gsd: 'pass',
    differs: 'D13',
    check: 'error',
    expect: (gsd, check) => assert.equal(check.stderr, 'gsd-check: unknown flag --bogus (see gsd-check --help)\n'),
  }),
  inProject({
    name: 'a flag value that starts with --',
    args: ['--predicate', command('test -z "${PHASE_NUMBER}"'), '--phase-number', '--raw'],
    gsd: 'pass',
    differs: 'D13',
    check: 'error',
  }),
  inProject({
    name: 'a misspelled field (timeOut)',
    args: ['--predicate', command('true', { timeOut: 1 }), '--raw'],
    gsd: 'pass',
    differs: 'D14',
    check: 'error',
    expect: (gsd, check) => assert.equal(check.stderr, 'gsd-check: invalid predicate: predicate.timeOut: unknown field; did you mean "timeout"?\n'),
  }),
  inProject({
    name: 'an inherited name as kind (constructor)',
    args: ['--predicate', JSON.stringify({ kind: 'constructor' }), '--raw'],
    gsd: 'error',
    differs: 'D14',
    check: 'error',
    expect: (gsd, check) => {
      assert.deepEqual([gsd.status, JSON.parse(gsd.stdout)], [0, { kind: 'constructor' }], 'GSD answers with the predicate itself');
      assert.equal(check.status, 2);
    },
  }),
  inProject({
    name: 'a predicate that gives a key twice',
    args: ['--predicate', '{"kind":"command-exit-zero","command":"exit 1","command":"true"}', '--raw'],
    gsd: 'pass',
    differs: 'D15',
    check: 'error',
  }),
  inProject({
    name: '${PHASE_DIR} is the phase directory made absolute against the project root',
    tree: { 'p/.planning/phases/04-ship': {} },
    args: ['--predicate', command('printf %s "${PHASE_DIR}" > "$COMPAT_RAN_IN"'), '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'p/.planning/phases/04-ship'),
  }),
  inProject({
    name: 'the three placeholders, and the empty ones',
    args: [
      '--predicate',
      command('test "${PHASE_NUMBER}|${PHASE_REQ_IDS}|${PHASE_DIR}" = "04|REQ-01,REQ-02|"'),
      '--phase-number',
      '04',
      '--phase-req-ids',
      'REQ-01,REQ-02',
      '--raw',
    ],
    gsd: 'pass',
  }),
  inProject({
    name: 'a placeholder inside single quotes stays literal',
    args: ['--predicate', command("test '${PHASE_NUMBER}' = 04"), '--phase-number', '04', '--raw'],
    gsd: 'pass',
    differs: 'D16',
    check: 'block',
  }),
  inProject({
    name: 'a phase directory is never run as code',
    args: ['--predicate', command('echo ${PHASE_DIR}'), '--phase-dir', '$(touch pwned)', '--raw'],
    gsd: 'pass',
    differs: 'D16',
    check: 'pass',
    observe: ['p/pwned'],
    expect: (gsd, check) => {
      assert.equal(gsd.seen['p/pwned'], true, 'GSD pasted the value into the shell text and ran it');
      assert.equal(check.seen['p/pwned'], false);
    },
  }),
  inProject({
    name: 'a phase number that is not one is refused',
    args: ['--predicate', command('echo ${PHASE_NUMBER}'), '--phase-number', '$(touch pwned)', '--raw'],
    gsd: 'pass',
    differs: 'D16',
    check: 'error',
    observe: ['p/pwned'],
    expect: (gsd, check) => {
      assert.equal(gsd.seen['p/pwned'], true);
      assert.equal(check.seen['p/pwned'], false);
      assert.match(check.stderr, /^gsd-check: --phase-number "\$\(touch pwned\)" is not a phase number; /);
    },
  }),
  inProject({
    name: 'requirement text is data: $(touch pwned) is passed on, never run',
    args: ['--predicate', command('test "${PHASE_REQ_IDS}" = \'$(touch pwned)\' || test -e pwned'), '--phase-req-ids', '$(touch pwned)', '--raw'],
    gsd: 'pass',
    differs: 'D16',
    check: 'pass',
    observe: ['p/pwned'],
    expect: (gsd, check) => {
      assert.equal(gsd.seen['p/pwned'], true);
      assert.equal(check.seen['p/pwned'], false);
    },
  }),
  ...[
    ["the roadmap's requirement text, as plan-phase passes it", 'REQ-01 (partial), AUTH/01'],
    ['a requirement text of n/a', 'n/a'],
    ['requirement ids with spaces and brackets', '[REQ-01, REQ-02] TBD'],
  ].map(([name, text]) =>
    inProject({
      name,
      args: ['--predicate', command(`test "\${PHASE_REQ_IDS}" = '${text}'`), '--phase-req-ids', text, '--raw'],
      gsd: 'pass',
    }),
  ),
  inProject({
    name: 'requirement text with a control character or over 4096 characters is refused',
    args: ['--predicate', TRUE, '--phase-req-ids', 'REQ-01\nREQ-02', '--raw'],
    gsd: 'pass',
    differs: 'D16',
    check: 'error',
    expect: (_gsd, check) =>
      assert.equal(
        check.stderr,
        'gsd-check: --phase-req-ids "REQ-01\\nREQ-02" holds a control character; requirement ids are one line of text (see gsd-check --help)\n',
      ),
  }),
  inProject({
    name: '${PHASE_DIR} of a linked phase directory is its real path',
    tree: { 'p/.planning/phases/04-ship': {}, 'p/.planning/phases/current': { link: '04-ship' } },
    args: ['--predicate', command('printf %s "${PHASE_DIR}" > "$COMPAT_RAN_IN"'), '--phase-dir', '.planning/phases/current', '--raw'],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'p/.planning/phases/04-ship'),
  }),
  {
    name: '${PHASE_DIR} through a linked project root is the real path',
    tree: { 'real/.planning/phases/04-ship': {}, link: { link: 'real' } },
    args: ['--predicate', command('printf %s "${PHASE_DIR}" > "$COMPAT_RAN_IN"'), '--cwd', 'link', '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'real/.planning/phases/04-ship'),
  },
  {
    name: '${PHASE_DIR} that is a link to nothing',
    tree: { 'p/.planning/phases/04-ship': { link: 'gone' } },
    cwd: 'p',
    args: ['--predicate', TRUE, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.equal(gsd.stderr, 'Error: path escapes its allowed directory: .planning/phases/04-ship\n');
      assert.equal(check.stderr, 'gsd-check: --phase-dir .planning/phases/04-ship is a symbolic link to nothing\n');
    },
  },
  inProject({
    name: 'the end of the output, not the head',
    args: ['--predicate', command(`echo first >&2; head -c 3000 /dev/zero | tr '\\0' x >&2; echo LAST >&2; exit 1`), '--raw'],
    gsd: 'block',
    differs: 'D17',
    check: 'block',
    expect: (gsd, check) => {
      assert.match(gsd.envelope.message, /^command exited 1: first\nxxx/);
      assert.doesNotMatch(gsd.envelope.message, /LAST/);
      assert.match(check.envelope.message, /xxxLAST$/);
      assert.doesNotMatch(check.envelope.message, /first/);
    },
  }),
  inProject({
    name: 'over 1 MiB of output from a passing command',
    args: ['--predicate', command('head -c 2000000 /dev/zero'), '--raw'],
    gsd: 'block',
    differs: 'D17',
    check: 'pass',
  }),
  inProject({
    name: 'a death by signal',
    args: ['--predicate', command('kill -9 $$'), '--raw'],
    gsd: 'block',
    differs: 'D18',
    check: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'command exited 1');
      assert.equal(check.envelope.message, 'command killed by SIGKILL');
    },
  }),
  inProject({
    name: 'a death by a signal Node cannot name',
    args: ['--predicate', command('kill -s RTMIN $$'), '--raw'],
    gsd: 'block',
    differs: 'D18',
    check: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'command exited 1');
      assert.equal(check.envelope.message, 'command killed by SIGRTMIN');
    },
  }),
  inProject({
    name: 'an exit status of 128+N',
    args: ['--predicate', command('exit 130'), '--raw'],
    gsd: 'block',
    differs: 'D18',
    check: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'command exited 130');
      assert.equal(check.envelope.message, 'command killed by SIGINT');
    },
  }),
  inProject({
    name: 'a timeout under a millisecond',
    args: ['--predicate', command('sleep 1', { timeout: 0.0001 }), '--raw'],
    gsd: 'pass',
    differs: 'D19',
    check: 'block',
  }),
  inProject({
    name: 'a timeout: the declared number and what the command printed',
    args: ['--predicate', command('echo waiting for port 5432; sleep 5', { timeout: 0.4 }), '--raw'],
    gsd: 'block',
    differs: 'D19',
    check: 'block',
    expect: (gsd, check) => {
      assert.match(gsd.envelope.message, /^command timed out after 0s: /);
      assert.equal(check.envelope.message, 'command timed out after 0.4s: waiting for port 5432');
    },
  }),
  inProject({
    name: 'a background child holding the output open',
    args: ['--predicate', command('sleep 3 & exit 0', { timeout: 1 }), '--raw'],
    gsd: 'block',
    differs: 'D20',
    check: 'pass',
  }),
  inProject({
    name: 'ANSI codes in the output',
    args: ['--predicate', command("printf '\\033[31mred\\033[0m' >&2; exit 1"), '--raw'],
    gsd: 'block',
    differs: 'D21',
    check: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'command exited 1: \u001b[31mred\u001b[0m');
      assert.equal(check.envelope.message, 'command exited 1: red');
    },
  }),
  inProject({
    name: '--raw: one compact line',
    args: ['--predicate', TRUE, '--raw'],
    gsd: 'pass',
    differs: 'D22',
    check: 'pass',
    expect: (gsd, check) => {
      assert.match(gsd.stdout, /^\{\n {2}"block": false,/);
      assert.match(check.stdout, /^\{"block":false,"message":"command exited 0","details":\{.*\}\}\n$/);
    },
  }),
  inProject({
    name: 'the details of a command envelope',
    args: ['--predicate', command('exit 3'), '--raw'],
    gsd: 'block',
    differs: 'D22',
    check: 'block',
    expect: (gsd, check) => {
      assert.deepEqual(gsd.envelope.details, { kind: 'command-exit-zero', exitCode: 3, signal: null });
      assert.deepEqual(Object.keys(check.envelope.details), [
        'kind',
        'command',
        'cwd',
        'timeout',
        'exitCode',
        'signal',
        'timedOut',
        'durationMs',
        'stdoutBytes',
        'stderrBytes',
        'tailTruncated',
      ]);
    },
  }),
  inProject({
    name: '--cwd that is not a directory',
    args: ['--predicate', TRUE, '--cwd', 'nowhere', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: Invalid --cwd: /);
      assert.match(check.stderr, /^gsd-check: --cwd nowhere: no such directory\n$/);
    },
  }),
  ...GLOBAL_FLAG_CASES,
];
