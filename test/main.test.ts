// The shipped artefact, spawned as a user would: exit status, stdout and stderr.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { isBuiltin } from 'node:module';
import { join, resolve } from 'node:path';
import { test } from './helpers/bounded.ts';
import { feature } from './helpers/manifest.ts';
import { artifact, project } from './helpers/project.ts';
import { BIN, catches, cli, ended, ENV, killSurvivors, marker, predicate, ROOT, running, survivors, tempDir, until } from './helpers/support.ts';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const check = (fields: Record<string, unknown>, ...flags: string[]) => ['check', 'predicate', '--predicate', predicate(fields), ...flags];

test('--help and --version', async () => {
  // Checked against what docs/reference/cli.md documents, not against the source's own
  // help text, so that a help that loses a flag or a default fails here.
  const help = await cli(['--help']);
  assert.deepEqual([help.status, help.stderr], [0, '']);
  assert.ok(help.stdout.startsWith('Usage:\n  gsd-check check predicate (--predicate <json> | --predicate-file <path>) [options]\n'), help.stdout);
  const documented = ['--predicate <json>', '--predicate-file <path>', '--phase-dir <dir>', '--phase-number <n>', '--phase-req-ids <ids>', '--cwd <dir>',
    '--raw', '--pick <path>', '--exit-code', '--json-errors', '--kill-after <seconds>', '-h, --help', '-V, --version',
    '--point <point>', '--capability <file>', '--hooks <file|->', '--config <path>', '--query-command <sh>', '--query-timeout <seconds>', '--concurrency <n>', '--report <kind>', '--json',
    '--builtin', '--project-dir <dir>', '--ws <name>', '--exit-contract <v1|v2>'];
  for (const flag of documented) assert.ok(help.stdout.includes(`\n  ${flag} `), `--help does not document ${flag}`);
  assert.match(help.stdout, /--kill-after <seconds> +grace between SIGTERM and SIGKILL \(default 3\)/);
  assert.match(help.stdout, /--query-timeout <seconds> +a query command's time limit \(default 30\)/);
  // A command's own help, as `help <command>` prints it.
  const own = await cli(['check', 'predicate', '-h']);
  assert.deepEqual(own, await cli(['help', 'check', 'predicate']));
  assert.ok(own.stdout.startsWith('Usage: gsd-check check predicate (--predicate <json> | --predicate-file <path>) [options]\n'), own.stdout);
  assert.equal(own.stdout.includes('--point <point>'), false);
  assert.deepEqual(await cli(['help']), help);
  const version = await cli(['-V']);
  assert.equal(version.status, 0);
  // The source id, computed afresh from the checkout as a site would: the
  // artefact must be the build of the source beside it.
  const source = `source ${spawnSync(process.execPath, [join(ROOT, 'build-id.mjs'), ROOT], { encoding: 'utf8' }).stdout.trim()}`;
  const expected = `gsd-check ${VERSION} (${source}${process.env.GSD_CHECK_BIN === undefined ? '' : `; standalone build: Node ${process.version} ${process.platform}-${process.arch}`})\n`;
  assert.equal(version.stdout, expected);
  // What the id is, which the one line leaves out, --help says.
  assert.ok(
    help.stdout.includes('\nVersion: --version prints one line, gsd-check <version> (source <id>). The id\nis a hash of the files gsd-check is built from, not a git commit: node\nbuild-id.mjs in the source archive or a checkout prints it.\n'),
    help.stdout,
  );
});

test('a passing command: the envelope, indented, exit 0', async () => {
  const result = await cli(check({ command: 'echo hello' }));
  assert.equal(result.status, 0);
  assert.equal(result.stderr, '');
  const envelope = JSON.parse(result.stdout);
  assert.equal(result.stdout, `${JSON.stringify(envelope, null, 2)}\n`);
  assert.equal(envelope.block, false);
  assert.equal(envelope.message, 'command exited 0');
  assert.equal(envelope.details.exitCode, 0);
  assert.equal(envelope.details.stdoutBytes, 6);
});

test('a timeout of 1e308 seconds is enforced without a word from Node (no TimeoutOverflowWarning)', async () => {
  const result = await cli(check({ command: 'exit 0', timeout: 1e308 }, '--pick', 'block'));
  assert.deepEqual(result, { status: 0, signal: null, stdout: 'false\n', stderr: '' });
});

test('tailTruncated: output of 2000 characters is whole, 2001 is cut though the 64 KiB ring kept it all', async () => {
  const picked = async (count: number) => (await cli(check({ command: `head -c ${count} /dev/zero | tr '\\0' x` }, '--pick', 'details.tailTruncated'))).stdout;
  assert.equal(await picked(2000), 'false\n');
  assert.equal(await picked(2001), 'true\n');
});

test('a blocking command: exit 0, or 1 with --exit-code; --raw is one line', async () => {
  const args = check({ command: "printf '\\033[31mFAIL\\033[0m: 2 tests\\n' >&2; exit 3" }, '--raw');
  const result = await cli(args);
  assert.equal(result.status, 0);
  assert.equal(result.stdout.split('\n').length, 2);
  const envelope = JSON.parse(result.stdout);
  assert.deepEqual([envelope.block, envelope.message], [true, 'command exited 3: FAIL: 2 tests']);
  assert.equal((await cli([...args, '--exit-code'])).status, 1);
  assert.equal((await cli(check({ command: 'true' }, '--exit-code'))).status, 0);
});

test('--pick prints one field', async () => {
  assert.deepEqual(await cli(check({ command: 'exit 4' }, '--pick', 'message')), {
    status: 0,
    signal: null,
    stdout: 'command exited 4\n',
    stderr: '',
  });
  assert.equal((await cli(check({ command: 'exit 4' }, '--pick=details.exitCode'))).stdout, '4\n');
  assert.equal((await cli(check({ command: 'exit 4' }, '--pick', 'block', '--exit-code'))).status, 1);
});

test('--pick of a field the kind never has is refused before the command runs', async (t) => {
  const dir = tempDir(t);
  const ran = join(dir, 'ran');
  assert.deepEqual(await cli(check({ command: `touch ${ran}` }, '--pick', 'details.exitcode', '--cwd', dir)), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: 'gsd-check: --pick details.exitcode: no such field in a command-exit-zero envelope; did you mean details.exitCode? (see gsd-check --help)\n',
  });
  assert.equal(existsSync(ran), false);
});

test('GSD_JSON_ERRORS=1 reports failures as JSON, as --json-errors does', async () => {
  const env = { ...ENV, GSD_JSON_ERRORS: '1' };
  assert.deepEqual(await cli(['check', 'predicate', '--predicate', 'nope'], { env }), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: '{"ok":false,"reason":"invalid-json","message":"--predicate is not valid JSON: unexpected character at line 1, column 1"}\n',
  });
  const usage = await cli(['check', 'predicate'], { env });
  assert.equal(usage.stderr, '{"ok":false,"reason":"usage","message":"--predicate or --predicate-file is required (see gsd-check --help)"}\n');
});

test('messages for timeouts, signals and missing programs, exactly', async (t) => {
  const pick = async (fields: Record<string, unknown>, env?: Record<string, string>) =>
    (await cli(check(fields, '--pick', 'message', '--kill-after', '0.2'), env === undefined ? {} : { env })).stdout;
  assert.equal(await pick({ command: 'echo partial; sleep 5', timeout: 0.3 }), 'command timed out after 0.3s: partial\n');
  assert.equal(await pick({ command: 'true', timeout: 0.0001 }), 'command timed out after 0.0001s\n');
  assert.equal(await pick({ command: 'echo bye; kill -TERM $$' }), 'command killed by SIGTERM: bye\n');
  // Signals Node has no name for: by sh itself, and by the whole group.
  assert.equal(await pick({ command: 'echo bye; kill -s 34 $$; exit 7' }), 'command killed by SIGRTMIN: bye\n');
  assert.equal(await pick({ command: 'kill -s 40 0; exit 7' }), 'command killed by a signal\n');
  assert.equal(await pick({ command: 'no-such-program-gsd' }), 'command exited 127: sh: 1: no-such-program-gsd: not found\n');
  // sh itself missing: a PATH that holds node and nothing else.
  const bin = tempDir(t);
  symlinkSync(process.execPath, join(bin, 'node'));
  assert.equal(await pick({ command: 'true' }, { PATH: bin }), 'command exited 127: sh: not found\n');
});

test('usage errors: exit 2, nothing on stdout, one line naming the problem', async () => {
  const cases: [string[], string][] = [
    [['check', 'predicate', '--phase-dir', '--raw'],
      'gsd-check: --phase-dir needs a value, got the flag --raw; for a value that starts with "-", write --phase-dir=--raw (see gsd-check --help)\n'],
    [['check', 'predicate'], 'gsd-check: --predicate or --predicate-file is required (see gsd-check --help)\n'],
    [['check', 'predicate', '--predicate', '{}', '--timeout', '1'], 'gsd-check: unknown flag --timeout (see gsd-check --help)\n'],
    [['check', 'predicate', '--predicate', '{}', 'stray'], 'gsd-check: unexpected argument "stray" (see gsd-check --help)\n'],
    // No flag has a negated form: this one would have cancelled --exit-code.
    [['check', 'predicate', '--predicate', predicate({ command: 'exit 1' }), '--exit-code', '--no-exit-code'],
      'gsd-check: unknown flag --no-exit-code; did you mean --exit-code? (see gsd-check --help)\n'],
    [['check', 'predicate', '--predicate', predicate({ command: 'true' }), '--no-raw'], 'gsd-check: unknown flag --no-raw (see gsd-check --help)\n'],
    [['--no-help'], 'gsd-check: unknown flag --no-help (see gsd-check --help)\n'],
    // Nor a value after a space: "false" is an argument, not --exit-code's value.
    [['check', 'predicate', '--predicate', predicate({ command: 'exit 1' }), '--exit-code', 'false'],
      'gsd-check: unexpected argument "false" (see gsd-check --help)\n'],
    [[], 'gsd-check: missing command; try: gsd-check check predicate --predicate <json> (see gsd-check --help)\n'],
  ];
  for (const [args, stderr] of cases) {
    assert.deepEqual(await cli(args), { status: 2, signal: null, stdout: '', stderr }, args.join(' '));
  }
});

test('invalid predicates: exit 2 with every issue and its path', async () => {
  assert.deepEqual(await cli(check({ command: '', timeOut: 5 })), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: 'gsd-check: invalid predicate: predicate.timeOut: unknown field; did you mean "timeout"?\n  predicate.command: must not be empty\n',
  });
  assert.deepEqual(await cli(['check.predicate', '--predicate', '{"kind":"constructor"}']), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: 'gsd-check: unknown predicate kind "constructor"; known kinds: command-exit-zero, artifact-frontmatter-equals\n',
  });
  const timeout = await cli(['check', 'predicate', '--predicate', '{"kind":"command-exit-zero","command":"true","timeout":1e999}']);
  assert.equal(timeout.stderr, 'gsd-check: invalid predicate: predicate.timeout: must be a positive finite number of seconds, got Infinity\n');
  assert.deepEqual(await cli(['check', 'predicate', '--predicate', '{"kind":"command-exit-zero","command":"rm -rf x","command":"true"}']), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: 'gsd-check: --predicate gives the key "command" twice (at predicate.command): which one counts is ambiguous\n',
  });
  const json = await cli(['check', 'predicate', '--predicate', '{"kind":', '--json-errors']);
  assert.equal(json.status, 2);
  assert.equal(JSON.parse(json.stderr).reason, 'invalid-json');
  const usage = await cli(['check', '--nope', '--json-errors']);
  assert.deepEqual(JSON.parse(usage.stderr), { ok: false, reason: 'usage', message: 'unknown flag --nope (see gsd-check --help)' });
});

test('a bad --cwd is a check failure', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'file'), '');
  assert.deepEqual(await cli(check({ command: 'true' }, '--cwd', join(dir, 'file'))), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: `gsd-check: --cwd ${join(dir, 'file')}: not a directory\n`,
  });
});

test('the predicate from a file or from standard input', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'p.json'), predicate({ command: 'exit 5' }));
  assert.equal((await cli(['check', 'predicate', '--predicate-file', join(dir, 'p.json'), '--pick', 'message'])).stdout, 'command exited 5\n');
  const stdin = await cli(['check', 'predicate', '--predicate-file', '-', '--pick', 'message'], { input: predicate({ command: "echo \"it's\"; exit 6" }) });
  assert.equal(stdin.stdout, "command exited 6: it's\n");
});

test('the command runs in the project root', async (t) => {
  const dir = project(t, { '.planning/phases/01-a': null });
  const result = await cli(check({ command: 'pwd' }, '--cwd', join(dir, '.planning/phases/01-a'), '--raw'));
  const envelope = JSON.parse(result.stdout);
  assert.equal(envelope.details.cwd, dir);
  // the message shows no output on a pass; run a failing pwd to see it
  const failing = await cli(check({ command: 'pwd; exit 1' }, '--cwd', join(dir, '.planning/phases/01-a'), '--pick', 'message'));
  assert.equal(failing.stdout, `command exited 1: ${dir}\n`);
});

test('phase values are data: metacharacters reach the command as characters, never run', async (t) => {
  const dir = tempDir(t);
  const canary = join(dir, 'pwned');
  const values = [
    `; touch ${canary}`,
    `$(touch ${canary})`,
    `\`touch ${canary}\``,
    `'; touch ${canary}; '`,
    `"; touch ${canary}; "`,
    `| touch ${canary}`,
    `\n touch ${canary}`,
  ];
  const commands = [
    'printf %s "${PHASE_DIR}" > out; exit 9',
    'printf %s ${PHASE_DIR} > out; exit 9',
    'x=${PHASE_DIR}; printf %s "$x" > out; exit 9',
    'printf %s "pre${PHASE_DIR}post" > out; exit 9',
  ];
  for (const value of values) {
    for (const command of commands) {
      const result = await cli(check({ command }, `--phase-dir=${value}`, '--cwd', dir, '--pick', 'details.exitCode'));
      assert.equal(result.stdout, '9\n', `${command} with ${JSON.stringify(value)}: ${result.stderr}`);
      assert.equal(existsSync(canary), false, `${command} with ${JSON.stringify(value)} ran the value`);
    }
    const quoted = await cli(check({ command: 'printf %s "${PHASE_DIR}" > out' }, `--phase-dir=${value}`, '--cwd', dir, '--raw'));
    assert.equal(JSON.parse(quoted.stdout).block, false);
    // As in GSD 1.14, the phase directory reaches the command made absolute
    // against the project root: the value, whole, after the root.
    assert.equal(readFileSync(join(dir, 'out'), 'utf8'), resolve(dir, value));
  }
});

test('placeholders: all three, missing ones empty, inherited ones overridden, others left to sh', async (t) => {
  const dir = tempDir(t);
  // ${X-unset} tells a variable set empty from one not set at all.
  const command = 'echo "n=${PHASE_NUMBER-unset} d=${PHASE_DIR-unset} r=${PHASE_REQ_IDS-unset} h=${GSD_TEST_OTHER}"; exit 1';
  const env = { ...ENV, PHASE_NUMBER: 'inherited', PHASE_DIR: '/inherited', PHASE_REQ_IDS: 'inherited', GSD_TEST_OTHER: 'kept' };
  const full = await cli(check({ command }, '--phase-number', '07', '--phase-dir', 'p d', '--phase-req-ids', 'R1,R2', '--pick', 'message', '--cwd', dir), { env });
  assert.equal(full.stdout, `command exited 1: n=07 d=${dir}/p d r=R1,R2 h=kept\n`);
  const none = await cli(check({ command }, '--pick', 'message', '--cwd', dir), { env });
  assert.equal(none.stdout, 'command exited 1: n= d= r= h=kept\n');
  // So in gates run, for command gates and for the query command.
  writeFileSync(join(dir, 'cap.json'), JSON.stringify({ id: 'c', gates: [
    { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command } }, blocking: true, onError: 'halt' },
    { point: 'ship:pre', check: { query: 'q' }, blocking: false, onError: 'halt' },
  ] }));
  const answer = `printf '{"block":true,"message":"%s"}' "n=\${PHASE_NUMBER-unset} d=\${PHASE_DIR-unset} r=\${PHASE_REQ_IDS-unset}"`;
  const gates = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--query-command', answer, '--phase-number', '07', '--cwd', dir, '--raw'], { env });
  assert.deepEqual(JSON.parse(gates.stdout).details.gates.map((g: { envelope: { message: string } }) => g.envelope.message), [
    'command exited 1: n=07 d= r= h=kept',
    'n=07 d= r=',
  ]);
  // With no phase at all, GSD's loop never runs them: gates run says so before anything runs.
  const unphased = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--query-command', answer, '--cwd', dir, '--raw'], { env });
  assert.deepEqual([unphased.status, unphased.stdout, unphased.stderr], [
    2,
    '',
    "gsd-check: no phase selected: ship:pre's gate c#0 runs a command that reads PHASE_NUMBER and PHASE_DIR (and 1 more gate); give --current-phase (the one STATE.md names), --phase-number or --phase-dir (see gsd-check --help)\n",
  ]);
  // The one visible difference from pasting text: single quotes keep the placeholder.
  const single = await cli(check({ command: "echo '${PHASE_DIR}'; exit 1" }, '--phase-dir', 'x', '--pick', 'message', '--cwd', dir));
  assert.equal(single.stdout, 'command exited 1: ${PHASE_DIR}\n');
  // details.command is the command as written: what sh ran, with the values in its environment.
  const shown = await cli(check({ command: "test -d ${PHASE_DIR} && echo '${PHASE_DIR}'" }, '--phase-dir', 'x', '--pick', 'details.command', '--cwd', dir));
  assert.equal(shown.stdout, "test -d ${PHASE_DIR} && echo '${PHASE_DIR}'\n");
});

for (const [name, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
  test(`${name} to gsd-check ends the command's group, then exits ${128 + number}`, async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    let child: import('node:child_process').ChildProcess | undefined;
    const pending = cli(check({ command: `sleep 30.${mark} & sleep 30.${mark}` }), { onSpawn: (c) => (child = c) });
    await until(() => running(`sleep 30.${mark}`).length === 2, 'the command is running');
    child!.kill(name);
    const result = await pending;
    assert.deepEqual(result, {
      status: 128 + number,
      signal: null,
      stdout: '',
      stderr: `gsd-check: stopped by ${name}; any command it started was ended\n`,
    });
    assert.deepEqual(survivors(mark), []);
  });
}

test('gates run: a stop signal ends every running gate\'s group', async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  const dir = tempDir(t);
  const sleeper = { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: `sleep 30.${mark}` } }, blocking: true, onError: 'halt' };
  writeFileSync(join(dir, 'cap.json'), JSON.stringify({ gates: [sleeper, sleeper] }));
  let child: import('node:child_process').ChildProcess | undefined;
  const pending = cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--concurrency', '2'], { cwd: dir, onSpawn: (c) => (child = c) });
  await until(() => running(`sleep 30.${mark}`).length === 2, 'both gates are running');
  child!.kill('SIGTERM');
  const result = await pending;
  assert.deepEqual([result.status, result.stdout, result.stderr], [143, '', "gsd-check: stopped by SIGTERM; any command it started was ended\n"]);
  assert.deepEqual(survivors(mark), []);
});

test('a second signal during the grace period kills the command at once', async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  let child: import('node:child_process').ChildProcess | undefined;
  const started = Date.now();
  const termed = join(tempDir(t), 'termed');
  // The sleep ignores SIGTERM; sh notes the group's SIGTERM in a file.
  const command = `(trap '' TERM; exec sleep 30.${mark}) & trap 'touch ${termed}' TERM; wait; wait`;
  const pending = cli(check({ command }, '--kill-after', '30'), { onSpawn: (c) => (child = c) });
  await until(() => running(`sleep 30.${mark}`).length === 1 && catches(child!.pid!, 'SIGTERM'), 'the command runs under a stop handler');
  child!.kill('SIGTERM');
  await until(() => existsSync(termed), 'gsd-check passed SIGTERM on to the group');
  assert.equal(running(`sleep 30.${mark}`).length, 1, 'the command ignores SIGTERM and waits for its grace');
  child!.kill('SIGINT');
  const result = await pending;
  assert.equal(result.status, 128 + 15);
  assert.ok(Date.now() - started < 10_000);
  await ended(mark);
});

test('a lot of output, NUL bytes and invalid UTF-8 never change the exit code', async () => {
  const size = 64 * 1024 * 1024;
  const pass = await cli(check({ command: `head -c ${size} /dev/zero` }, '--raw'));
  const envelope = JSON.parse(pass.stdout);
  assert.deepEqual([envelope.block, envelope.message, envelope.details.stdoutBytes], [false, 'command exited 0', size]);
  const fail = await cli(check({ command: `head -c ${size} /dev/zero; printf '\\377end'; exit 5` }, '--raw'));
  const blocked = JSON.parse(fail.stdout);
  assert.equal(blocked.details.exitCode, 5);
  assert.equal(blocked.details.tailTruncated, true);
  // The last 2000 characters of output, each NUL then shown as the escape \x00.
  assert.equal(blocked.message, `command exited 5: ${'\\x00'.repeat(1996)}\ufffdend`);
});

test('artifact-frontmatter-equals on a real project', async (t) => {
  const root = project(t, {
    '.planning/phases/03-auth/03-SECURITY.md': '---\r\nthreats_open: 2\r\n---\r\n# Threats\r\n',
    '.planning/WINDOWS.md': '---\nopen_count: [\n---\n',
  });
  const phase = join(root, '.planning/phases/03-auth');
  const gate = (fields: Record<string, unknown>, ...flags: string[]) =>
    cli(['check', 'predicate', '--predicate', JSON.stringify({ kind: 'artifact-frontmatter-equals', ...fields }), ...flags], { cwd: phase });
  const security = { artifact: 'SECURITY.md', field: 'threats_open' };
  assert.deepEqual(await gate({ ...security, equals: 0 }, '--phase-dir', '.planning/phases/03-auth', '--pick', 'message'), {
    status: 0,
    signal: null,
    stdout: 'Frontmatter field "threats_open" in .planning/phases/03-auth/03-SECURITY.md is 2, expected 0\n',
    stderr: '',
  });
  assert.equal((await gate({ ...security, equals: 0 }, '--phase-dir', '.planning/phases/03-auth', '--exit-code')).status, 1);
  assert.equal((await gate({ ...security, equals: '2' }, '--phase-dir', '.planning/phases/03-auth', '--pick', 'block')).stdout, 'false\n');
  // Without --phase-dir the project root is searched: the phase file is not there.
  assert.equal((await gate({ ...security, equals: 2 }, '--pick', 'message')).stdout, `Artifact matching SECURITY.md not found in ${root}\n`);
  // With the phase number alone, as GSD's workflows call it, the phase directory is found.
  assert.equal((await gate({ ...security, equals: 2 }, '--phase-number', '3', '--pick', 'block')).stdout, 'false\n');
  assert.deepEqual(await gate({ artifact: 'WINDOWS.md', field: 'open_count', equals: 0 }), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: `gsd-check: .planning/WINDOWS.md: invalid YAML in the frontmatter at line 3: unexpected end of the stream within a flow collection\n`,
  });
  const escape = await gate({ artifact: '../../../etc/passwd', field: 'x', equals: 0 });
  assert.deepEqual([escape.status, escape.stderr], [2, 'gsd-check: invalid predicate: predicate.artifact: must be a file name, not a path\n']);
});

test('gates run: the two-step contract over real gates, in declaration order', async (t) => {
  const root = project(t, {
    '.planning/config.json': { workflow: { extra: true } },
    '.planning/phases/02-api/02-SECURITY.md': artifact({ threats_open: 0 }),
    'caps/sec/cap.json': {
      id: 'security',
      config: { 'workflow.extra': { type: 'boolean', default: false }, 'workflow.never': { type: 'boolean', default: false } },
      gates: [
        { point: 'ship:pre', check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } }, blocking: true, onError: 'halt' },
        { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'test "$GSD_CAP_DIR" = "$(pwd)/caps/sec"' } }, when: 'workflow.extra', blocking: true, onError: 'halt' },
        { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'echo lint warnings; exit 1' } }, blocking: false, onError: 'halt' },
        { point: 'ship:pre', check: { query: 'phase.ready' }, blocking: true, onError: 'skip' },
        { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'false' } }, when: 'workflow.never', blocking: true, onError: 'halt' },
      ],
    },
  });
  const args = ['gates', 'run', '--point', 'ship:pre', '--capability', 'caps/sec/cap.json', '--phase-dir', '.planning/phases/02-api', '--raw'];
  const result = await cli(args, { cwd: root });
  assert.equal(result.status, 0, result.stderr);
  const envelope = JSON.parse(result.stdout);
  assert.deepEqual(
    envelope.details.gates.map((g: { index: number; status: string }) => [g.index, g.status]),
    [[0, 'pass'], [1, 'pass'], [2, 'advisory'], [3, 'skipped'], [4, 'inactive']],
  );
  assert.equal(envelope.block, false);
  assert.equal(envelope.message, 'ship:pre: passed (2 pass, 1 advisory, 1 skipped, 1 inactive)');
  // Not a terminal: stderr only tells what failed (the skipped query gate).
  assert.match(
    result.stderr,
    /^gsd-check: ship:pre security#3 \[query phase\.ready\] skipped \(\d+ ms\): query phase\.ready: no query command: give --query-command \(or GSD_CHECK_QUERY_COMMAND\), or put gsd-tools on PATH\n$/,
  );

  writeFileSync(join(root, '.planning/phases/02-api/02-SECURITY.md'), '---\nthreats_open: 2\n---\n');
  const halted = await cli([...args, '--exit-code', '--pick', 'message'], { cwd: root });
  assert.deepEqual([halted.status, halted.stdout], [
    1,
    'ship:pre: halted by security#0 (security#0: Frontmatter field "threats_open" in .planning/phases/02-api/02-SECURITY.md is 2, expected 0); 1 advisory\n',
  ]);

  const missingConfig = await cli([...args, '--config', 'nope.json'], { cwd: root });
  assert.deepEqual([missingConfig.status, missingConfig.stdout, missingConfig.stderr], [2, '', 'gsd-check: cannot read --config nope.json: no such file\n']);
  const badCapability = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'nope.json'], { cwd: root });
  assert.deepEqual([badCapability.status, badCapability.stderr], [2, 'gsd-check: cannot read capability file nope.json: no such file\n']);
});

test('gates run: gates of one point run in parallel, each in its own group', async (t) => {
  const root = tempDir(t);
  const log = join(root, 'log');
  const wanted = join(root, 'wanted');
  const step = (name: string) => ({
    point: 'verify:pre',
    // Each gate ends once `wanted` gates have started (or after 30 s): in
    // parallel all three start first, whatever the machine's load.
    check: { predicate: { kind: 'command-exit-zero', command: `echo "start ${name}" >> ${log}; i=0; while [ "$(grep -c start ${log})" -lt "$(cat ${wanted})" ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i + 1)); done; echo "end ${name}" >> ${log}` } },
    blocking: true,
    onError: 'halt',
  });
  writeFileSync(join(root, 'cap.json'), JSON.stringify({ id: 'c', gates: [step('a'), step('b'), step('c')] }));
  const run = async (concurrency: string) => {
    writeFileSync(log, '');
    writeFileSync(wanted, concurrency);
    const result = await cli(['gates', 'run', '--point', 'verify:pre', '--capability', 'cap.json', '--concurrency', concurrency, '--pick', 'block'], { cwd: root });
    assert.equal(result.stdout, 'false\n', result.stderr);
    return readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' ')[0]);
  };
  // In parallel every gate starts before any ends; one at a time they alternate.
  assert.deepEqual(await run('3'), ['start', 'start', 'start', 'end', 'end', 'end']);
  assert.deepEqual(await run('1'), ['start', 'end', 'start', 'end', 'start', 'end']);
});

test('validate: exit 0 for capability files GSD loads, 1 with every issue, 2 for an unreadable file', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'good.json'), JSON.stringify(feature({})));
  assert.deepEqual(await cli(['validate', 'good.json'], { cwd: dir }), { status: 0, signal: null, stdout: 'good.json: valid (1 gate)\n', stderr: '' });
  // Copies of GSD's own, as gsd-check's fixtures are: GSD keeps its own.
  const fixtures = join(ROOT, 'test/fixtures/capabilities');
  const copies = await cli(['validate', 'security.json', 'broken-windows.json', 'tdd.json', '--json'], { cwd: fixtures });
  assert.equal(copies.status, 1);
  assert.deepEqual(
    JSON.parse(copies.stdout).files.map((f: { gsdLoads: boolean; gates: number; issues: { path: string }[] }) => [f.gsdLoads, f.gates, f.issues.map((i) => i.path)]),
    [
      [false, 3, ['id', 'config["workflow.security_enforcement"]']],
      [false, 2, ['id', 'config["workflow.windows_enforce"]']],
      [false, 2, ['id', 'config["workflow.tdd_mode"]']],
    ],
  );
  writeFileSync(join(dir, 'bad.json'), JSON.stringify(feature({ gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'x', timeOut: 1 } }, blocking: true, onError: 'halt' }, null] })));
  assert.deepEqual(await cli(['validate', 'bad.json'], { cwd: dir }), {
    status: 1,
    signal: null,
    stdout: 'bad.json: gates[0].check.predicate.timeOut: unknown field; did you mean "timeout"?\nbad.json: gates[1]: must be an object, got null\nbad.json: GSD 1.14.0 would not load this capability (for gates[1]), so none of its 2 gates would be enforced\n',
    stderr: '',
  });
  const json = await cli(['validate', 'bad.json', '--json'], { cwd: dir });
  assert.deepEqual([json.status, JSON.parse(json.stdout).valid, JSON.parse(json.stdout).files[0].gsdLoads], [1, false, false]);
  assert.deepEqual(await cli(['validate', 'missing.json'], { cwd: dir }), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: 'gsd-check: cannot read capability file missing.json: no such file\n',
  });
});

test("validate: a manifest of only an id, a version and gates is one GSD 1.14 would not load, and says so", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'x.json'), JSON.stringify({ id: 'x', version: '1.0.0', gates: [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }] }));
  const result = await cli(['validate', 'x.json'], { cwd: dir });
  assert.deepEqual([result.status, result.stderr], [1, '']);
  assert.equal(result.stdout.split('\n').at(-2), 'x.json: GSD 1.14.0 would not load this capability (for role, title, description, tier, requires and 6 more), so its gate would not be enforced');
  // engines.gsd is read against GSD 1.14.0.
  writeFileSync(join(dir, 'y.json'), JSON.stringify(feature({ engines: { gsd: '>=2.0.0' } })));
  assert.deepEqual(await cli(['validate', 'y.json'], { cwd: dir }), {
    status: 1,
    signal: null,
    stdout: 'y.json: engines.gsd: ">=2.0.0" excludes GSD 1.14.0, the GSD gsd-check checks against\ny.json: GSD 1.14.0 would not load this capability (for engines.gsd), so its gate would not be enforced\n',
    stderr: '',
  });
  // At GSD's layout, the id is the folder's name; elsewhere (standard input too) it is not held to one.
  const installed = '.gsd/capabilities/release/capability.json';
  mkdirSync(join(dir, '.gsd/capabilities/release'), { recursive: true });
  writeFileSync(join(dir, installed), JSON.stringify(feature({})));
  assert.deepEqual(await cli(['validate', installed, '-'], { cwd: dir, input: JSON.stringify(feature({})) }), {
    status: 1,
    signal: null,
    stdout: `${installed}: id: must be the name of its folder, "release", got "release-checks"\n${installed}: GSD 1.14.0 would not load this capability (for id), so its gate would not be enforced\n-: valid (1 gate)\n`,
    stderr: '',
  });
});

test('schema: the committed schemas/ file by name, the names without one, a usage error for another', async () => {
  const names = ['predicate', 'gate', 'capability', 'render-hooks'];
  assert.deepEqual(await cli(['schema']), { status: 0, signal: null, stdout: `${names.join('\n')}\n`, stderr: '' });
  for (const name of names) {
    const stdout = readFileSync(join(ROOT, 'schemas', `${name}.schema.json`), 'utf8');
    assert.deepEqual(await cli(['schema', name]), { status: 0, signal: null, stdout, stderr: '' }, name);
  }
  assert.deepEqual(await cli(['schema', 'gates']), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: 'gsd-check: no schema named "gates"; one of: predicate, gate, capability, render-hooks (see gsd-check --help)\n',
  });
});

test('a reader that closes stdout before the envelope: no crash, exit 74, not 0 (no envelope was delivered)', async () => {
  const result = await cli(check({ command: 'exit 3' }), { onSpawn: (child) => child.stdout?.destroy() });
  assert.equal(result.status, 74);
  assert.equal(result.stderr, 'gsd-check: cannot write the output: EPIPE\n');
});

test('the artefact: a shebang, its run bit, only Node built-ins, and it runs alone', async (t) => {
  if (process.env.GSD_CHECK_BIN !== undefined) return t.skip('checks the bundled file, not another build');
  const text = readFileSync(BIN, 'utf8');
  assert.ok(text.startsWith('#!/usr/bin/env node\n'));
  assert.ok((statSync(BIN).mode & 0o111) !== 0);
  // The program is embedded in a comment after the launcher (src/embedded-program.ts).
  const required = [...text.matchAll(/\brequire\(\\?["']([^"'\\]+)\\?["']\)/g)].map((m) => m[1]!);
  assert.ok(required.includes('node:child_process'), 'the embedded program is scanned too');
  assert.ok(required.length > 0);
  for (const name of required) assert.ok(isBuiltin(name), `requires ${name}`);

  const dir = tempDir(t);
  copyFileSync(BIN, join(dir, 'gsd-check'));
  // The copy is what runs: the repository around the original cannot help it.
  const alone = await cli(check({ command: 'exit 3' }, '--pick', 'message'), { cwd: dir }, join(dir, 'gsd-check'));
  assert.equal(alone.stdout, 'command exited 3\n');
});

test('gates run --hooks -: GSD\'s rendered gates from standard input, queries answered by a command', async (t) => {
  const root = project(t, { '.planning/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 0 }) });
  const hooks = JSON.stringify({
    point: 'ship:pre',
    activeHooks: [
      { capId: 'security', kind: 'gate', when: 'workflow.security_enforcement', check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } }, blocking: true, onError: 'halt' },
      { capId: 'ui', kind: 'gate', check: { query: 'ui.plan-gate' }, blocking: true, onError: 'halt' },
      { capId: 'notes', kind: 'step', body: 'not a gate' },
    ],
  });
  // The query command sees the query and the phase as variables, never as text.
  const answer = 'test "$GSD_QUERY|$PHASE_NUMBER" = "ui.plan-gate|04" && echo \'{"block":false,"frontend":false}\'';
  const run = (env: Record<string, string | undefined>, ...flags: string[]) =>
    cli(['gates', 'run', '--point', 'ship:pre', '--hooks', '-', '--phase-number', '04', '--raw', ...flags], { cwd: root, input: hooks, env: { ...ENV, ...env } });
  const result = await run({}, '--query-command', answer);
  assert.equal(result.status, 0, result.stderr);
  const envelope = JSON.parse(result.stdout);
  assert.deepEqual([envelope.block, envelope.message], [false, 'ship:pre: passed (2 pass)']);
  assert.deepEqual(envelope.details.gates.map((g: { capability: string; status: string }) => [g.capability, g.status]), [['security', 'pass'], ['ui', 'pass']]);
  assert.deepEqual(envelope.details.gates[1].envelope.details, { kind: 'query', query: 'ui.plan-gate', command: answer, exitCode: 0, answer: { block: false, frontend: false } });
  // The same from the environment; a failing answer halts, naming the query.
  // (ui's two gates are at plan:pre and execute:wave:post in GSD's registry:
  // one rendered at ship:pre is counted after them.)
  const fromEnv = await run({ GSD_CHECK_QUERY_COMMAND: 'echo nope; exit 3' });
  assert.deepEqual(JSON.parse(fromEnv.stdout).message, 'ship:pre: halted by ui#2 (ui#2: query ui.plan-gate: the query command exited 3: nope)');
  // Hooks rendered for another point are refused.
  const other = await cli(['gates', 'run', '--point', 'plan:pre', '--hooks', '-'], { cwd: root, input: hooks });
  assert.deepEqual([other.status, other.stderr], [2, 'gsd-check: the hooks on standard input: rendered for point "ship:pre", not for --point plan:pre\n']);
});

test('gates run: with gsd-tools on PATH and no query command, GSD\'s own form answers', async (t) => {
  const root = tempDir(t);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  // A stand-in gsd-tools that records how it was called.
  writeFileSync(join(bin, 'gsd-tools'), `#!/bin/sh\nprintf '%s|' "$@" > ${join(root, 'called')}\necho '{"block":true,"message":"ui spec missing"}'\n`);
  chmodSync(join(bin, 'gsd-tools'), 0o755);
  writeFileSync(join(root, 'cap.json'), JSON.stringify({ id: 'ui', gates: [{ point: 'plan:pre', check: { query: 'ui.plan-gate' }, blocking: false, onError: 'halt' }] }));
  const result = await cli(['gates', 'run', '--point', 'plan:pre', '--capability', 'cap.json', '--phase-number', '4', '--pick', 'message'], {
    cwd: root,
    env: { ...ENV, PATH: `${bin}:${ENV.PATH}` },
  });
  assert.deepEqual([result.status, result.stdout], [0, 'plan:pre: passed (1 advisory)\n']);
  assert.equal(readFileSync(join(root, 'called'), 'utf8'), 'check|ui.plan-gate|4|--raw|');
});

test('gates run: the gsd-tools found on PATH is the one run, never one a relative PATH entry finds in the project', async (t) => {
  const root = tempDir(t);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'gsd-tools'), `#!/bin/sh\necho '{"block":true,"message":"the real gsd-tools"}'\n`);
  chmodSync(join(bin, 'gsd-tools'), 0o755);
  // Planted in the repository, where a relative PATH entry finds it from the project root.
  mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
  writeFileSync(join(root, 'node_modules/.bin/gsd-tools'), `#!/bin/sh\necho '{"block":false,"message":"planted"}'\n`);
  chmodSync(join(root, 'node_modules/.bin/gsd-tools'), 0o755);
  mkdirSync(join(root, '.planning'));
  writeFileSync(join(root, 'cap.json'), JSON.stringify({ id: 'ui', gates: [{ point: 'plan:pre', check: { query: 'ui.plan-gate' }, blocking: true, onError: 'halt' }] }));
  const result = await cli(['gates', 'run', '--point', 'plan:pre', '--capability', 'cap.json', '--phase-number', '4', '--pick', 'message'], {
    cwd: root,
    env: { ...ENV, PATH: `node_modules/.bin:${bin}:${ENV.PATH}` },
  });
  assert.deepEqual([result.status, result.stdout], [0, 'plan:pre: halted by ui#0 (ui#0: the real gsd-tools)\n']);
});

test('no line can be forged from data: a failure without issues on stderr, a message through --pick', async (t) => {
  const forged = '/x\u001b[2K\ngsd-check: forged';
  for (const argv of [check({ command: 'true' }, '--cwd', forged), ['gates', 'run', '--point', 'ship:pre', '--capability', 'c.json', '--cwd', forged]]) {
    const result = await cli(argv, { cwd: tempDir(t) });
    assert.deepEqual([result.status, result.stdout, result.stderr], [2, '', 'gsd-check: --cwd /x\\x1b[2K\\ngsd-check: forged: no such directory\n'], argv[0]);
  }
  const picked = await cli(check({ command: "printf 'tail\\ngsd-check: ship:pre passed'; exit 1" }, '--pick', 'message'), { cwd: tempDir(t) });
  assert.deepEqual([picked.status, picked.stdout], [0, 'command exited 1: tail\\ngsd-check: ship:pre passed\n']);
});

test('text from outside never reaches the terminal raw, and a file that is not JSON is not quoted', async (t) => {
  const root = project(t, { '.planning': null, 'SECURITY.md': '---\nthreats_open: "\\e[2J\\rPASS"\n---\n' });
  const artifact = JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 });
  const message = await cli(['check', 'predicate', '--predicate', artifact, '--pick', 'message'], { cwd: root });
  assert.equal(message.stdout, 'Frontmatter field "threats_open" in SECURITY.md is \\x1b[2J\\rPASS, expected 0\n');
  // A capability id with a newline and ESC cannot forge a line on stderr.
  writeFileSync(join(root, 'cap.json'), JSON.stringify({ id: 'x\n\u001b[1Agsd-check: ship:pre all passed', gates: [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }] }));
  const gates = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-number', '01', '--pick', 'message'], { cwd: root, env: { ...ENV, PATH: '/usr/bin:/bin' } });
  assert.equal(gates.stderr.split('\n').length, 2, gates.stderr);
  assert.ok(gates.stderr.includes('x\\n\\x1b[1Agsd-check: ship:pre all passed#0'), gates.stderr);
  assert.equal(gates.stdout.split('\n').length, 2);
  // A secret passed to the wrong flag is not echoed back.
  writeFileSync(join(root, 'p.json'), 'AWS_SECRET_ACCESS_KEY=abc123');
  const secret = await cli(['check', 'predicate', '--predicate-file', 'p.json'], { cwd: root });
  assert.deepEqual([secret.status, secret.stderr], [2, 'gsd-check: the predicate file is not valid JSON: unexpected character at line 1, column 1\n']);
});

test('gates run on a terminal: a progress line per gate on stderr; off a terminal, none for gates that ran', async (t) => {
  if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) return t.skip('needs util-linux script for a terminal');
  const dir = tempDir(t);
  const gate = { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' };
  writeFileSync(join(dir, 'cap.json'), JSON.stringify({ id: 'cap', gates: [gate] }));
  const args = ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json'];
  const quoted = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  // Under script(1) all three are a terminal; stdout goes to /dev/null inside
  // it, so what script passes on is stderr's.
  const onTerminal = await cli(args, { cwd: dir, wrap: (argv) => ['script', ['-qec', `exec ${argv.map(quoted).join(' ')} >/dev/null`, '/dev/null']] });
  assert.equal(onTerminal.status, 0);
  assert.match(onTerminal.stdout, /^gsd-check: ship:pre cap#0 \[predicate command-exit-zero\] pass \(\d+ ms\)\r?\n$/);
  const offTerminal = await cli(args, { cwd: dir });
  assert.deepEqual([offTerminal.status, offTerminal.stderr], [0, '']);
});

test("GSD's global flags: --project-dir, --ws, the workstream exported, --exit-contract", async (t) => {
  const base = project(t, { 'p/.planning/workstreams/gamma': null, 'p/src': null, elsewhere: null });
  const env = { PATH: ENV.PATH, HOME: join(base, 'home') };
  const said = (args: string[], extra: Record<string, string> = {}, cwd = join(base, 'elsewhere')) =>
    cli(check({ command: 'printf "%s|%s" "$PWD" "${GSD_WORKSTREAM-unset}"' }, '--pick', 'details.cwd', ...args), { cwd, env: { ...env, ...extra } });
  assert.deepEqual(await said(['--project-dir', '../p']), { status: 0, signal: null, stdout: `${join(base, 'p')}\n`, stderr: '' });
  assert.deepEqual(await said(['--project-dir', join(base, 'p/src')]), {
    status: 2,
    signal: null,
    stdout: '',
    stderr: `gsd-check: --project-dir ${join(base, 'p/src')} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)\n`,
  });
  const message = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await cli(check({ command: 'echo "${GSD_WORKSTREAM-unset}" >&2; exit 1' }, '--pick', 'message', ...args), { cwd: join(base, 'p'), env: { ...env, ...extra } });
    return `${result.status} ${result.stdout}${result.stderr}`;
  };
  assert.equal(await message([]), '0 command exited 1: unset\n');
  assert.equal(await message(['--ws', 'alpha'], { GSD_WORKSTREAM: 'beta' }), '0 command exited 1: alpha\n');
  assert.equal(await message([], { GSD_WORKSTREAM: ' beta ' }), '0 command exited 1: beta\n');
  writeFileSync(join(base, 'p/.planning/active-workstream'), 'gamma\n');
  assert.equal(await message([]), '0 command exited 1: gamma\n');
  assert.equal(await message([], { GSD_WORKSTREAM: 'my ws' }), '2 gsd-check: GSD_WORKSTREAM "my ws": a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")\n');
  assert.equal(await message(['--exit-contract=v2']), '0 command exited 1: gamma\n');
  assert.equal(await message([], { GSD_EXIT_CONTRACT: 'v2' }), '0 command exited 1: gamma\n');
  assert.equal(await message(['--exit-contract=v3']), '2 gsd-check: --exit-contract "v3" is not an exit contract; v1 or v2 (see gsd-check --help)\n');
  assert.equal(await message([], { GSD_EXIT_CONTRACT: 'v3' }), '2 gsd-check: GSD_EXIT_CONTRACT "v3" is not an exit contract; v1 or v2 (see gsd-check --help)\n');
});

test("a session pointer someone else could have written does not choose the workstream: a halt stays a halt, with one warning", async (t) => {
  const root = project(t, {
    '.planning/active-workstream': 'strict\n',
    '.planning/workstreams/strict/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 2 }),
    '.planning/workstreams/done/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 0 }),
  });
  const tmp = tempDir(t);
  const sessions = join(tmp, 'gsd-workstream-sessions');
  const folder = join(sessions, createHash('sha1').update(join(root, '.planning')).digest('hex').slice(0, 16));
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  chmodSync(sessions, 0o755);
  chmodSync(folder, 0o755);
  const pointer = join(folder, 'tmux-pane-3');
  writeFileSync(pointer, 'done\n', { mode: 0o644 });
  const env = { PATH: ENV.PATH, HOME: join(root, 'home'), TMPDIR: tmp, TMUX_PANE: '%3' };
  const run = () => cli(['gates', 'run', '--point', 'ship:pre', '--builtin', '--phase-number', '04', '--pick', 'block'], { cwd: root, env });
  // Our own pointer chooses.
  assert.deepEqual(await run(), { status: 0, signal: null, stdout: 'false\n', stderr: '' });
  // Another user's (as root: given to uid 4242), or one others may write.
  const planted = process.getuid?.() === 0 ? () => spawnSync('chown', ['4242:4242', pointer]) : () => chmodSync(pointer, 0o666);
  planted();
  const why = process.getuid?.() === 0 ? 'belongs to uid 4242, not to this user or root' : 'may be written by its group and others';
  assert.deepEqual(await run(), { status: 0, signal: null, stdout: 'true\n', stderr: `gsd-check: warning: the session pointer ${pointer} is ignored: ${pointer} ${why}\n` });
});

test('requirement text as the roadmap holds it, and ${PHASE_DIR} as its real path', async (t) => {
  const base = project(t, { 'real/.planning/phases/04-ship': null });
  symlinkSync('04-ship', join(base, 'real/.planning/phases/current'));
  symlinkSync('real', join(base, 'link'));
  const env = { PATH: ENV.PATH, HOME: join(base, 'home') };
  const result = await cli(
    check({ command: 'echo "${PHASE_DIR}|${PHASE_REQ_IDS}" >&2; exit 1' }, '--cwd', join(base, 'link'), '--phase-dir', '.planning/phases/current', '--phase-req-ids', 'REQ-01 (partial), AUTH/01', '--pick', 'message'),
    { env },
  );
  assert.deepEqual(result, { status: 0, signal: null, stdout: `command exited 1: ${join(base, 'real/.planning/phases/04-ship')}|REQ-01 (partial), AUTH/01\n`, stderr: '' });
});

test('gates run --builtin: GSD 1.14\'s own ship:pre gates; --pick takes list items in brackets', async (t) => {
  const root = project(t, { '.planning/phases/04-ship/04-SECURITY.md': artifact({ threats_open: 2 }) });
  const env = { PATH: ENV.PATH, HOME: join(root, 'home') };
  const run = (...args: string[]) => cli(['gates', 'run', '--point', 'ship:pre', '--builtin', '--phase-number', '04', ...args], { cwd: root, env });
  assert.deepEqual(await run('--pick', 'details.gates[-1].envelope.message'), {
    status: 0,
    signal: null,
    stdout: 'Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0\n',
    stderr: '',
  });
  assert.equal((await run('--pick', 'details.gates[0].status')).stdout, 'inactive\n');
  assert.equal((await run('--pick', 'details.gates[0].capability')).stdout, 'broken-windows\n');
  assert.equal((await run('--pick', 'details.gates[2]')).stderr, 'gsd-check: --pick details.gates[2]: the envelope has no such field\n');
  assert.equal((await run('--pick', 'details.point[0]')).stderr, 'gsd-check: --pick details.point[0]: details.point is a single value, with nothing below it (see gsd-check --help)\n');
  assert.equal((await run('--hooks', '-')).stderr, 'gsd-check: --hooks and --builtin cannot be used together: rendered hooks are already resolved by GSD (see gsd-check --help)\n');
});
