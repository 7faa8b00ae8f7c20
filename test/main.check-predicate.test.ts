// `check predicate` through the shipped artefact, spawned as a user would:
// exit status, stdout and stderr.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { CONCURRENTLY, describe, test } from './helpers/bounded.ts';
import { artifact, project } from './helpers/project.ts';
import { catches, cli, ended, ENV, killSurvivors, marker, predicate, running, survivors, tempDir, until } from './helpers/support.ts';

const check = (fields: Record<string, unknown>, ...flags: string[]) => ['check', 'predicate', '--predicate', predicate(fields), ...flags];

describe('check predicate', CONCURRENTLY, () => {
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
    const picked = async (count: number) =>
      (await cli(check({ command: `head -c ${count} /dev/zero | tr '\\0' x` }, '--pick', 'details.tailTruncated'))).stdout;
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
    // Long enough for sh to start and print on a loaded machine: the tail is kept, not the time.
    assert.equal(await pick({ command: 'echo partial; sleep 30', timeout: 2 }), 'command timed out after 2s: partial\n');
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
      [
        ['check', 'predicate', '--phase-dir', '--raw'],
        'gsd-check: --phase-dir needs a value, got the flag --raw; for a value that starts with "-", write --phase-dir=--raw (see gsd-check --help)\n',
      ],
      [['check', 'predicate'], 'gsd-check: --predicate or --predicate-file is required (see gsd-check --help)\n'],
      [['check', 'predicate', '--predicate', '{}', '--timeout', '1'], 'gsd-check: unknown flag --timeout (see gsd-check --help)\n'],
      [['check', 'predicate', '--predicate', '{}', 'stray'], 'gsd-check: unexpected argument "stray" (see gsd-check --help)\n'],
      // No flag has a negated form: this one would have cancelled --exit-code.
      [
        ['check', 'predicate', '--predicate', predicate({ command: 'exit 1' }), '--exit-code', '--no-exit-code'],
        'gsd-check: unknown flag --no-exit-code; did you mean --exit-code? (see gsd-check --help)\n',
      ],
      [['check', 'predicate', '--predicate', predicate({ command: 'true' }), '--no-raw'], 'gsd-check: unknown flag --no-raw (see gsd-check --help)\n'],
      [['--no-help'], 'gsd-check: unknown flag --no-help (see gsd-check --help)\n'],
      // Nor a value after a space: "false" is an argument, not --exit-code's value.
      [
        ['check', 'predicate', '--predicate', predicate({ command: 'exit 1' }), '--exit-code', 'false'],
        'gsd-check: unexpected argument "false" (see gsd-check --help)\n',
      ],
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
    const stdin = await cli(['check', 'predicate', '--predicate-file', '-', '--pick', 'message'], { input: predicate({ command: 'echo "it\'s"; exit 6' }) });
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
    const full = await cli(check({ command }, '--phase-number', '07', '--phase-dir', 'p d', '--phase-req-ids', 'R1,R2', '--pick', 'message', '--cwd', dir), {
      env,
    });
    assert.equal(full.stdout, `command exited 1: n=07 d=${dir}/p d r=R1,R2 h=kept\n`);
    const none = await cli(check({ command }, '--pick', 'message', '--cwd', dir), { env });
    assert.equal(none.stdout, 'command exited 1: n= d= r= h=kept\n');
    // So in gates run, for command gates and for the query command.
    mkdirSync(join(dir, '.planning/phases/07-release'), { recursive: true });
    writeFileSync(
      join(dir, 'cap.json'),
      JSON.stringify({
        id: 'c',
        gates: [
          { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command } }, blocking: true, onError: 'halt' },
          { point: 'ship:pre', check: { query: 'q' }, blocking: false, onError: 'halt' },
        ],
      }),
    );
    const answer = `printf '{"block":true,"message":"%s"}' "n=\${PHASE_NUMBER-unset} d=\${PHASE_DIR-unset} r=\${PHASE_REQ_IDS-unset}"`;
    const gates = await cli(
      ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--query-command', answer, '--phase-number', '07', '--cwd', dir, '--raw'],
      { env },
    );
    assert.deepEqual(
      JSON.parse(gates.stdout).details.gates.map((g: { envelope: { message: string } }) => g.envelope.message),
      ['command exited 1: n=07 d= r= h=kept', 'n=07 d= r='],
    );
    // With no phase at all, GSD's loop never runs them: gates run says so before anything runs.
    // An empty --phase-number is none, as in a workflow whose PHASE_NUMBER is unset.
    for (const empty of [[], ['--phase-number=']]) {
      const unphased = await cli(
        ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--query-command', answer, '--cwd', dir, '--raw', ...empty],
        {
          env,
        },
      );
      assert.deepEqual(
        [unphased.status, unphased.stdout, unphased.stderr],
        [
          2,
          '',
          "gsd-check: no phase selected: ship:pre's gate c#0 runs a command that reads PHASE_NUMBER and PHASE_DIR (and 1 more gate); give --current-phase (the one STATE.md names), --phase-number or --phase-dir (see gsd-check --help)\n",
        ],
        empty.join(' '),
      );
    }
    const reached = await cli(['gates', 'run', '--reached', '--capability', 'cap.json', '--cwd', dir, '--phase-number='], { env });
    assert.deepEqual(
      [reached.status, reached.stdout, reached.stderr],
      [
        2,
        '',
        "gsd-check: no phase selected: --reached reads the points GSD's loop has reached for it; give --current-phase (the one STATE.md names), --phase-number or --phase-dir (see gsd-check --help)\n",
      ],
    );
    // The one visible difference from pasting text: single quotes keep the placeholder.
    const single = await cli(check({ command: "echo '${PHASE_DIR}'; exit 1" }, '--phase-dir', 'x', '--pick', 'message', '--cwd', dir));
    assert.equal(single.stdout, 'command exited 1: ${PHASE_DIR}\n');
    // details.command is the command as written: what sh ran, with the values in its environment.
    const shown = await cli(check({ command: "test -d ${PHASE_DIR} && echo '${PHASE_DIR}'" }, '--phase-dir', 'x', '--pick', 'details.command', '--cwd', dir));
    assert.equal(shown.stdout, "test -d ${PHASE_DIR} && echo '${PHASE_DIR}'\n");
  });

  for (const [name, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ] as const) {
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

  test('a second signal during the grace period kills the command at once', async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    let child: import('node:child_process').ChildProcess | undefined;
    const termed = join(tempDir(t), 'termed');
    // The sleep ignores SIGTERM; sh notes the group's SIGTERM in a file.
    const command = `(trap '' TERM; exec sleep 30.${mark}) & trap 'touch ${termed}' TERM; wait; wait`;
    const pending = cli(check({ command }, '--kill-after', '30'), { onSpawn: (c) => (child = c) });
    await until(() => running(`sleep 30.${mark}`).length === 1 && catches(child!.pid!, 'SIGTERM'), 'the command runs under a stop handler');
    child!.kill('SIGTERM');
    await until(() => existsSync(termed), 'gsd-check passed SIGTERM on to the group');
    assert.equal(running(`sleep 30.${mark}`).length, 1, 'the command ignores SIGTERM and waits for its grace');
    const second = Date.now();
    child!.kill('SIGINT');
    const result = await pending;
    assert.equal(result.status, 128 + 15);
    // Ended by the second signal, not by the 30 s grace running out.
    assert.ok(Date.now() - second < 30_000);
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
      const result = await cli(check({ command: 'echo "${GSD_WORKSTREAM-unset}" >&2; exit 1' }, '--pick', 'message', ...args), {
        cwd: join(base, 'p'),
        env: { ...env, ...extra },
      });
      return `${result.status} ${result.stdout}${result.stderr}`;
    };
    assert.equal(await message([]), '0 command exited 1: unset\n');
    assert.equal(await message(['--ws', 'alpha'], { GSD_WORKSTREAM: 'beta' }), '0 command exited 1: alpha\n');
    assert.equal(await message([], { GSD_WORKSTREAM: ' beta ' }), '0 command exited 1: beta\n');
    writeFileSync(join(base, 'p/.planning/active-workstream'), 'gamma\n');
    assert.equal(await message([]), '0 command exited 1: gamma\n');
    assert.equal(
      await message([], { GSD_WORKSTREAM: 'my ws' }),
      '2 gsd-check: GSD_WORKSTREAM "my ws": a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")\n',
    );
    assert.equal(await message(['--exit-contract=v2']), '0 command exited 1: gamma\n');
    assert.equal(await message([], { GSD_EXIT_CONTRACT: 'v2' }), '0 command exited 1: gamma\n');
    assert.equal(await message(['--exit-contract=v3']), '2 gsd-check: --exit-contract "v3" is not an exit contract; v1 or v2 (see gsd-check --help)\n');
    assert.equal(
      await message([], { GSD_EXIT_CONTRACT: 'v3' }),
      '2 gsd-check: GSD_EXIT_CONTRACT "v3" is not an exit contract; v1 or v2 (see gsd-check --help)\n',
    );
  });

  test('a session pointer someone else could have written does not choose the workstream: a halt stays a halt, with one warning', async (t) => {
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
    assert.deepEqual(await run(), {
      status: 0,
      signal: null,
      stdout: 'true\n',
      stderr: `gsd-check: warning: the session pointer ${pointer} is ignored: ${pointer} ${why}\n`,
    });
  });

  test('requirement text as the roadmap holds it, and ${PHASE_DIR} as its real path', async (t) => {
    const base = project(t, { 'real/.planning/phases/04-ship': null });
    symlinkSync('04-ship', join(base, 'real/.planning/phases/current'));
    symlinkSync('real', join(base, 'link'));
    const env = { PATH: ENV.PATH, HOME: join(base, 'home') };
    const result = await cli(
      check(
        { command: 'echo "${PHASE_DIR}|${PHASE_REQ_IDS}" >&2; exit 1' },
        '--cwd',
        join(base, 'link'),
        '--phase-dir',
        '.planning/phases/current',
        '--phase-req-ids',
        'REQ-01 (partial), AUTH/01',
        '--pick',
        'message',
      ),
      { env },
    );
    assert.deepEqual(result, {
      status: 0,
      signal: null,
      stdout: `command exited 1: ${join(base, 'real/.planning/phases/04-ship')}|REQ-01 (partial), AUTH/01\n`,
      stderr: '',
    });
  });
});
