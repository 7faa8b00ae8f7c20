// The shipped artefact given hostile or unlucky input and surroundings: a
// full disk, values nested past the stack, a lone "-", a project root it may
// not enter, a capability built to blow up messages, a deleted directory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONCURRENTLY, describe, test } from './helpers/bounded.ts';
import { feature } from './helpers/manifest.ts';
import { project } from './helpers/project.ts';
import { cli, predicate, tempDir, unprivileged } from './helpers/support.ts';

const nested = (depth: number): string => `${'['.repeat(depth)}0${']'.repeat(depth)}`;
const deepPredicate = `{"kind":"artifact-frontmatter-equals","artifact":"SECURITY.md","field":"threats_open","equals":${nested(5000)}}`;
const DEEP_ISSUE = 'nests deeper than 64 levels';

describe('inputs', CONCURRENTLY, () => {
  test('the envelope cannot be written (stdout on /dev/full): exit 74 and a line on stderr', async (t) => {
    const toFull = (argv: string[]): [string, string[]] => ['sh', ['-c', 'exec "$0" "$@" > /dev/full', ...argv]];
    const dir = tempDir(t);
    writeFileSync(join(dir, 'cap.json'), JSON.stringify(feature({ gates: [] })));
    for (const args of [['check', 'predicate', '--predicate', predicate({ command: 'true' })], ['validate', 'cap.json'], ['--help']]) {
      const result = await cli(args, { cwd: dir, wrap: toFull });
      assert.deepEqual([result.status, result.stdout, result.stderr], [74, '', 'gsd-check: cannot write the output: ENOSPC\n'], args[0]);
    }
  });

  test('a value nested 5,000 deep: exit 2 in check predicate, an issue in validate, a halted gate in gates run; no trace', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'p.json'), deepPredicate);
    const checked = await cli(['check', 'predicate', '--predicate-file', 'p.json', '--json-errors'], { cwd: dir });
    assert.deepEqual([checked.status, checked.stdout], [2, '']);
    assert.deepEqual(JSON.parse(checked.stderr), {
      ok: false,
      reason: 'invalid-predicate',
      message: `invalid predicate: predicate.equals: ${DEEP_ISSUE}`,
      issues: [{ path: 'predicate.equals', message: DEEP_ISSUE }],
    });

    const gate = (check: string) => `{"point":"ship:pre","check":{"predicate":${check}},"blocking":true,"onError":"halt"}`;
    writeFileSync(
      join(dir, 'cap.json'),
      `${JSON.stringify(feature({ gates: undefined })).slice(0, -1)},"gates":[${gate(deepPredicate)},${gate(predicate({ command: 'true' }))}]}`,
    );
    assert.deepEqual(await cli(['validate', 'cap.json'], { cwd: dir }), {
      status: 1,
      signal: null,
      stdout: `cap.json: gates[0].check.predicate.equals: ${DEEP_ISSUE}\n`,
      stderr: '',
    });
    const run = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--raw'], { cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /RangeError|internal error|\n {4}at /);
    const gates = JSON.parse(run.stdout).details.gates as { status: string; error?: string }[];
    assert.deepEqual(
      gates.map((g) => [g.status, g.error]),
      [
        ['halt', `invalid predicate: gates[0].check.predicate.equals: ${DEEP_ISSUE}`],
        ['pass', undefined],
      ],
    );
  });

  test("gates run with deep JSON anywhere (a query answer, a hooks entry, a typed config value, a capability's when): an envelope, never an internal error", async (t) => {
    const dir = project(t, { '.planning/phases/01-deep': null });
    const deep = nested(50_000);
    const hook = (fields: Record<string, string>) => {
      const entry = { capId: 'c', kind: 'gate', check: '{"query":"q"}', blocking: 'false', onError: '"skip"', ...fields };
      return `{"point":"ship:pre","activeHooks":[{${Object.entries(entry)
        .map(([k, v]) => `"${k}":${k === 'capId' || k === 'kind' ? `"${v}"` : v}`)
        .join(',')}}]}`;
    };
    writeFileSync(join(dir, 'answer.json'), `{"block":false,"x":${nested(100_000)}}`);
    const answered = ['--query-command', 'cat answer.json'];
    const cases: [string, string, string[], string][] = [
      ['a query answer 100,000 deep', hook({}), answered, 'skipped'],
      ['blocking 50,000 deep', hook({ blocking: deep }), answered, 'halt'],
      ['when 50,000 deep', hook({ when: deep }), ['--query-command', 'echo {\\"block\\":false}'], 'pass'],
      ['onError 50,000 deep', hook({ onError: deep }), answered, 'halt'],
    ];
    for (const [what, hooks, flags, status] of cases) {
      writeFileSync(join(dir, 'hooks.json'), hooks);
      const run = await cli(['gates', 'run', '--point', 'ship:pre', '--hooks', 'hooks.json', '--phase-number', '01', '--raw', ...flags], { cwd: dir });
      assert.equal(run.status, 0, `${what}: ${run.stderr}`);
      assert.doesNotMatch(run.stderr, /internal error|RangeError/, what);
      assert.equal(JSON.parse(run.stdout).details.gates[0].status, status, what);
    }
    const capability = (when: string) =>
      `{"id":"c","config":{"workflow.x":{"type":"boolean","default":true}},"gates":[{"point":"ship:pre","when":${when},"check":{"query":"q"},"blocking":false,"onError":"skip"}]}`;
    writeFileSync(join(dir, '.planning', 'config.json'), `{"workflow":{"x":${deep}}}`);
    for (const [what, when, status] of [
      ['a typed config value 50,000 deep', '"workflow.x"', 'skipped'],
      ["a capability's when 50,000 deep", deep, 'inactive'],
    ] as const) {
      writeFileSync(join(dir, 'cap.json'), capability(when));
      const run = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-number', '01', '--raw'], { cwd: dir });
      assert.equal(run.status, 0, `${what}: ${run.stderr}`);
      assert.doesNotMatch(run.stderr, /internal error|RangeError/, what);
      assert.ok(run.stderr.length < 1000, `${what}: ${run.stderr.length} characters on stderr`);
      assert.equal(JSON.parse(run.stdout).details.gates[0].status, status, what);
    }
  });

  test('validate a.json - b.json: - is standard input, and b.json is validated too', async (t) => {
    const dir = tempDir(t);
    const good = JSON.stringify(feature({ gates: [] }));
    writeFileSync(join(dir, 'good.json'), good);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(feature({ gates: [null] })));
    assert.deepEqual(await cli(['validate', 'good.json', '-', 'bad.json'], { cwd: dir, input: good }), {
      status: 1,
      signal: null,
      stdout:
        'good.json: valid (0 gates)\n-: valid (0 gates)\nbad.json: gates[0]: must be an object, got null\nbad.json: GSD 1.14.0 would not load this capability (for gates[0]), so its gate would not be enforced\n',
      stderr: '',
    });
    const twice = await cli(['validate', '-', '-'], { cwd: dir, input: '{}' });
    assert.deepEqual(
      [twice.status, twice.stdout, twice.stderr],
      [2, '', 'gsd-check: validate reads standard input (-) once; give - at most once (see gsd-check --help)\n'],
    );
  });

  test('a project root we may not enter or list: exit 2, bad-cwd, never a verdict', async (t) => {
    const wrap = unprivileged(t);
    if (wrap === undefined) return;
    const dir = tempDir(t);
    chmodSync(dir, 0o755);
    const locked = join(dir, 'locked');
    mkdirSync(join(locked, '.planning'), { recursive: true });
    chmodSync(locked, 0);
    try {
      await lockedOut(dir, locked, wrap);
    } finally {
      // Before the temp dir is removed: a user other than root could not.
      chmodSync(locked, 0o755);
    }
  });

  async function lockedOut(dir: string, locked: string, wrap: (argv: string[]) => [string, string[]]): Promise<void> {
    const expected = `gsd-check: --cwd ${locked}: permission denied (cannot list or enter it)\n`;
    const checked = await cli(['check', 'predicate', '--cwd', locked, '--predicate', predicate({ command: 'true' })], { cwd: dir, wrap });
    assert.deepEqual([checked.status, checked.stdout, checked.stderr], [2, '', expected]);
    const json = await cli(['check', 'predicate', '--cwd', locked, '--json-errors', '--predicate', predicate({ command: 'true' })], { cwd: dir, wrap });
    assert.equal(JSON.parse(json.stderr).reason, 'bad-cwd');
    writeFileSync(
      join(dir, 'cap.json'),
      JSON.stringify({ gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'skip' }] }),
    );
    chmodSync(join(dir, 'cap.json'), 0o644);
    const run = await cli(['gates', 'run', '--point', 'ship:pre', '--cwd', locked, '--capability', join(dir, 'cap.json')], { cwd: dir, wrap });
    assert.deepEqual([run.status, run.stdout, run.stderr], [2, '', expected]);
  }

  test('validate: undeclared `when`s against a huge config give bounded messages', async (t) => {
    const dir = tempDir(t);
    const config = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`workflow.key_${i}`, { type: 'boolean', default: true, description: 'd' }]));
    const gate = { point: 'ship:pre', check: { query: 'q' }, when: 'nowhere.near', blocking: false, onError: 'skip' };
    writeFileSync(join(dir, 'cap.json'), JSON.stringify(feature({ config, steps: [], contributions: [], gates: Array(500).fill(gate) })));
    const result = await cli(['validate', 'cap.json'], { cwd: dir });
    const lines = result.stdout.trimEnd().split('\n');
    // The first 100 issues, a count of the rest, and the line that says GSD
    // would not load it, for the first five gates and 495 more.
    assert.deepEqual([result.status, lines.length], [1, 102]);
    assert.equal(lines[100], 'cap.json: and 400 more issues, not told');
    assert.equal(
      lines[0],
      'cap.json: gates[0].when: "nowhere.near" is not a key of the capability\'s config (keys: workflow.key_0, workflow.key_1, workflow.key_2, workflow.key_3, workflow.key_4 and 4995 more)',
    );
    // Every key listed for every gate was 500 x 5,000 names: 45 MB.
    assert.ok(result.stdout.length < 100_000, `${result.stdout.length} characters`);
  });

  test('validate from a deleted directory: absolute paths still work; relative ones are a bad-cwd, not a crash', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'cap.json'), JSON.stringify(feature({ gates: [] })));
    const gone = join(dir, 'gone');
    mkdirSync(gone);
    const fromGone = (argv: string[]): [string, string[]] => ['sh', ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, ...argv]];
    assert.deepEqual(await cli(['validate', join(dir, 'cap.json')], { wrap: fromGone }), {
      status: 0,
      signal: null,
      stdout: `${join(dir, 'cap.json')}: valid (0 gates)\n`,
      stderr: '',
    });
    mkdirSync(gone);
    const relative = await cli(['validate', 'cap.json', '--json-errors'], { wrap: fromGone });
    assert.deepEqual([relative.status, relative.stdout], [2, '']);
    assert.deepEqual(JSON.parse(relative.stderr), {
      ok: false,
      reason: 'bad-cwd',
      message: 'the current directory no longer exists; give cap.json as an absolute path',
    });
  });

  test('an absolute --cwd works from a deleted current directory; a relative one is bad-cwd', async (t) => {
    const dir = tempDir(t);
    const gone = join(dir, 'gone');
    const fromGone = (argv: string[]): [string, string[]] => ['sh', ['-c', 'mkdir "$1" && cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, ...argv]];
    const absolute = await cli(['check', 'predicate', '--cwd', dir, '--predicate', predicate({ command: 'pwd' }), '--pick', 'details.cwd'], { wrap: fromGone });
    assert.deepEqual([absolute.status, absolute.stdout, absolute.stderr], [0, `${dir}\n`, '']);
    const relative = await cli(['check', 'predicate', '--cwd', '.', '--predicate', predicate({ command: 'true' })], { wrap: fromGone });
    assert.deepEqual([relative.status, relative.stdout, relative.stderr], [2, '', 'gsd-check: the current directory no longer exists\n']);
  });

  test('gates run follows the one path rule: an absolute --cwd from a deleted directory, and - as standard input for every file argument', async (t) => {
    const cap = JSON.stringify({
      id: 'c',
      gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' }],
    });
    const dir = project(t, { '.planning': null, 'cap.json': cap, 'conf.json': '{}' });
    const gone = join(dir, 'gone');
    const fromGone = (argv: string[]): [string, string[]] => ['sh', ['-c', 'mkdir "$1" && cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, ...argv]];
    const run = ['gates', 'run', '--point', 'ship:pre', '--pick', 'message'];
    for (const files of [
      ['--capability', 'cap.json', '--config', 'conf.json'],
      ['--capability', join(dir, 'cap.json')],
    ]) {
      const absolute = await cli([...run, '--cwd', dir, ...files], { wrap: fromGone });
      assert.deepEqual([absolute.status, absolute.stdout, absolute.stderr], [0, 'ship:pre: passed (1 pass)\n', ''], files.join(' '));
    }
    const relative = await cli([...run, '--cwd', '.', '--capability', 'cap.json'], { wrap: fromGone });
    assert.deepEqual([relative.status, relative.stdout, relative.stderr], [2, '', 'gsd-check: the current directory no longer exists\n']);
    // A file named "-" in the directory is not what --capability - reads.
    writeFileSync(join(dir, '-'), '{"id":"the file named -","gates":[]}');
    const stdin = await cli([...run, '--capability', '-'], { cwd: dir, input: cap });
    assert.deepEqual([stdin.status, stdin.stdout, stdin.stderr], [0, 'ship:pre: passed (1 pass)\n', '']);
    const configIn = await cli([...run, '--capability', 'cap.json', '--config', '-'], { cwd: dir, input: '{"a.b":1}' });
    assert.deepEqual([configIn.status, configIn.stdout], [0, 'ship:pre: passed (1 pass)\n']);
    assert.match(configIn.stderr, /^gsd-check: warning: --config - has flat dotted keys/);
    const twice = await cli([...run, '--capability', '-', '--config', '-'], { cwd: dir, input: cap });
    assert.deepEqual(
      [twice.status, twice.stdout, twice.stderr],
      [2, '', 'gsd-check: gates run reads standard input (-) once; give - at most once (see gsd-check --help)\n'],
    );
  });

  test('--predicate-file is taken from --cwd, like --capability and --config', async (t) => {
    const dir = tempDir(t);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'p.json'), predicate({ command: 'exit 3' }));
    const result = await cli(['check', 'predicate', '--cwd', 'sub', '--predicate-file', 'p.json', '--pick', 'message'], { cwd: dir });
    assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'command exited 3\n', '']);
  });

  test('stdout a non-blocking pipe that its reader lets fill (300 KB of envelope): the rest goes through the stream of stdout, all of it arrives, exit 0', async (t) => {
    const dir = project(t, { '.planning/phases/01-x': null });
    // Thirty failing gates, each with a tail of control bytes escaped six-fold.
    const gate = (i: number) => ({
      capId: `g${i}`,
      kind: 'gate',
      check: { predicate: { kind: 'command-exit-zero', command: "head -c 3000 /dev/zero | tr '\\0' '\\1'; exit 1" } },
      blocking: false,
      onError: 'halt',
    });
    writeFileSync(join(dir, 'hooks.json'), JSON.stringify({ point: 'ship:pre', activeHooks: Array.from({ length: 30 }, (_, i) => gate(i)) }));
    // A parent that hands over its stdout pipe non-blocking (libuv, and so
    // Node, makes a child's stdio blocking: Python does not), and reads nothing
    // until the pipe is full: gsd-check's next direct write would block, so the
    // rest of the envelope must go through process.stdout.
    if (spawnSync('python3', ['-c', '0']).status !== 0) return t.skip('needs python3 to make a non-blocking pipe');
    const stalling = [
      'import fcntl, os, sys, termios, time, struct',
      'r, w = os.pipe()',
      'pid = os.fork()',
      'if pid == 0:',
      '    os.dup2(w, 1); os.close(r); os.close(w); os.set_blocking(1, False); os.execv(sys.argv[1], sys.argv[1:])',
      'os.close(w)',
      'size = fcntl.fcntl(r, 1032)  # F_GETPIPE_SZ',
      'while struct.unpack("i", fcntl.ioctl(r, termios.FIONREAD, b"\\0\\0\\0\\0"))[0] < size: time.sleep(0.01)',
      'while True:',
      '    chunk = os.read(r, 65536)',
      '    if not chunk: break',
      '    os.write(1, chunk)',
      '_, status = os.waitpid(pid, 0)',
      'sys.exit(os.waitstatus_to_exitcode(status))',
    ].join('\n');
    const inherit = (argv: string[]): [string, string[]] => ['python3', ['-c', stalling, ...argv]];
    const result = await cli(['gates', 'run', '--point', 'ship:pre', '--hooks', 'hooks.json', '--phase-number', '01', '--raw'], { cwd: dir, wrap: inherit });
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
    assert.ok(result.stdout.length > 256 * 1024, `${result.stdout.length} bytes`);
    const envelope = JSON.parse(result.stdout) as { message: string; details: { gates: unknown[] } };
    assert.equal(envelope.message, 'ship:pre: passed (30 advisory)');
    assert.equal(envelope.details.gates.length, 30);
  });

  test('a config is one reading whichever way it comes: .planning/config.json, --config naming it, --config -, bytes that are not UTF-8 read as GSD reads them', async (t) => {
    // A gate switched on by a config whose other value holds a byte that is not UTF-8 (\xff).
    const cap = JSON.stringify({
      id: 'c',
      config: { 'workflow.on': { type: 'boolean', default: false } },
      gates: [
        { point: 'ship:pre', when: 'workflow.on', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' },
      ],
    });
    const config = Buffer.concat([Buffer.from('\ufeff{"workflow": {"on": true, "note": "'), Buffer.from([0xff]), Buffer.from('"}}')]);
    const dir = project(t, { '.planning': null, 'cap.json': cap });
    writeFileSync(join(dir, '.planning', 'config.json'), config);
    const run = ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--pick', 'message'];
    for (const [how, extra, input] of [
      ['the default', [], undefined],
      ['--config naming it', ['--config', '.planning/config.json'], undefined],
      ['--config -', ['--config', '-'], config],
    ] as const) {
      const result = await cli([...run, ...extra], { cwd: dir, ...(input === undefined ? {} : { input }) });
      assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'ship:pre: passed (1 pass)\n', ''], how);
    }
  });
});
