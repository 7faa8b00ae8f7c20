// gates run --report and the terminal table, through the shipped artefact:
// the files and lines a CI or a person reads, and piped output unchanged.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONCURRENTLY, describe, test, type TestContext } from './helpers/bounded.ts';
import { project } from './helpers/project.ts';
import { cli, ENV, predicate, tempDir } from './helpers/support.ts';
import { workflowCommands } from './helpers/workflow-commands.ts';
import { readJunit, values } from './helpers/junit-consumer.ts';

const GATES = [
  { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' },
  { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: "echo 'threats: 2' >&2; exit 3" } }, blocking: true, onError: 'halt' },
  { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'exit 1' } }, blocking: false, onError: 'halt' },
  { point: 'ship:pre', when: 'workflow.extra', check: { predicate: { kind: 'command-exit-zero', command: 'true' } }, blocking: true, onError: 'halt' },
];
const RUN = ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json'];
// Times differ run to run; everything else is compared exactly.
const timeless = (text: string): string =>
  text
    .replace(/\d+ ms/g, 'N ms')
    .replace(/time="[\d.]+"/g, 'time="N"')
    .replace(/"durationMs":\d+/g, '"durationMs":N');

const gated = (t: TestContext): string => project(t, { '.planning': null, 'cap.json': { id: 'sec', gates: GATES } });

describe('reports', CONCURRENTLY, () => {
  test('--report junit=<file>: a report the consumer reads, stdout and stderr exactly as without it', async (t) => {
    const dir = gated(t);
    mkdirSync(join(dir, 'reports'));
    const plain = await cli([...RUN, '--raw'], { cwd: dir });
    const reported = await cli([...RUN, '--raw', '--report', 'junit=reports/gates.xml'], { cwd: dir });
    assert.deepEqual([reported.status, timeless(reported.stdout), reported.stderr], [plain.status, timeless(plain.stdout), plain.stderr]);
    const doc = readJunit(readFileSync(join(dir, 'reports/gates.xml'), 'utf8'));
    assert.deepEqual(values(doc, '//testcase/@name'), [
      'sec#0 [predicate command-exit-zero]',
      'sec#1 [predicate command-exit-zero]',
      'sec#2 [predicate command-exit-zero]',
      'sec#3 [predicate command-exit-zero]',
    ]);
    assert.deepEqual(values(doc, '/testsuites/testsuite/@*[name()="tests" or name()="failures" or name()="errors" or name()="skipped"]'), ['4', '1', '0', '1']);
    assert.deepEqual(values(doc, '//failure/@message'), ['command exited 3: threats: 2']);
    assert.deepEqual(values(doc, '//system-out'), ['advisory: command exited 1']);
    assert.deepEqual(values(doc, '//skipped/@message'), ['inactive: workflow.extra is null (set nowhere)']);
    doc.dispose();
    // Replaced whole, through a temporary file that is gone afterwards.
    await cli([...RUN, '--report', 'junit=gates.xml', '--cwd', 'reports'], { cwd: dir });
    assert.deepEqual(readdirSync(join(dir, 'reports')).sort(), ['gates.xml']);
  });

  test('a report that cannot be written: exit 74 and one line saying so; the envelope is still printed', async (t) => {
    const dir = gated(t);
    const plain = await cli([...RUN, '--raw'], { cwd: dir });
    // Its folder is made inside the project, as pytest's and jest-junit's are; not outside it.
    const made = await cli([...RUN, '--raw', '--report', 'junit=reports/gsd/gates.xml'], { cwd: dir });
    assert.deepEqual([made.status, made.stderr], [0, '']);
    assert.match(readFileSync(join(dir, 'reports', 'gsd', 'gates.xml'), 'utf8'), /^<\?xml /);
    rmSync(join(dir, 'reports'), { recursive: true });
    const elsewhere = join(tempDir(t), 'missing', 'gates.xml');
    const failed = await cli([...RUN, '--raw', '--report', `junit=${elsewhere}`], { cwd: dir });
    assert.equal(failed.status, 74);
    assert.equal(timeless(failed.stdout), timeless(plain.stdout));
    assert.equal(
      failed.stderr,
      `gsd-check: cannot write the JUnit report ${elsewhere}: the directory ${dirname(elsewhere)}/ does not exist (gsd-check makes one only inside the project)\n`,
    );
    // Written, but not renamed over a directory: the temporary file is removed.
    mkdirSync(join(dir, 'taken'));
    const taken = await cli([...RUN, '--raw', '--report', 'junit=taken'], { cwd: dir });
    assert.deepEqual([taken.status, taken.stderr], [74, 'gsd-check: cannot write the JUnit report taken: EISDIR\n']);
    assert.deepEqual(readdirSync(join(dir, 'taken')), []);
    const summary = await cli([...RUN, '--pick', 'block', '--exit-code', '--report', 'github'], {
      cwd: dir,
      env: { ...ENV, GITHUB_STEP_SUMMARY: join(dir, 'no', 'summary.md') },
    });
    assert.deepEqual([summary.status, summary.stdout], [74, 'true\n']);
    assert.ok(summary.stderr.endsWith(`gsd-check: cannot append to GITHUB_STEP_SUMMARY ${join(dir, 'no', 'summary.md')}: ENOENT\n`), summary.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['.planning', 'cap.json', 'taken']);
  });

  // Renaming a report over what is there replaces it: a device, a pipe or a
  // symbolic link would be destroyed, /dev/null for everyone when run as root.
  test('a report is never renamed over what is not a regular file; through a symbolic link it replaces the file the link leads to', async (t) => {
    const dir = gated(t);
    assert.equal(spawnSync('mkfifo', [join(dir, 'pipe')]).status, 0);
    const piped = await cli([...RUN, '--raw', '--report', 'junit=pipe'], { cwd: dir });
    assert.deepEqual([piped.status, piped.stderr], [74, 'gsd-check: cannot write the JUnit report pipe: not a regular file\n']);
    assert.ok(lstatSync(join(dir, 'pipe')).isFIFO());
    writeFileSync(join(dir, 'old.xml'), 'old');
    symlinkSync('old.xml', join(dir, 'link.xml'));
    const linked = await cli([...RUN, '--raw', '--report', 'junit=link.xml'], { cwd: dir });
    assert.deepEqual([linked.status, linked.stderr], [0, '']);
    assert.equal(readlinkSync(join(dir, 'link.xml')), 'old.xml');
    assert.match(readFileSync(join(dir, 'old.xml'), 'utf8'), /^<\?xml /);
    symlinkSync('nowhere.xml', join(dir, 'dangling.xml'));
    const dangling = await cli([...RUN, '--raw', '--report', 'junit=dangling.xml'], { cwd: dir });
    assert.deepEqual([dangling.status, dangling.stderr], [74, 'gsd-check: cannot write the JUnit report dangling.xml: a symbolic link that leads nowhere\n']);
    assert.deepEqual(readdirSync(dir).sort(), ['.planning', 'cap.json', 'dangling.xml', 'link.xml', 'old.xml', 'pipe']);
  });

  // A repository may commit a link: `reports/gates.xml -> ~/.bashrc`, or
  // `reports -> ~/.config/autostart`. What the report would replace or create
  // there is refused, and what is there stays as it was.
  test('a report path inside the project whose link or directory leads out of it: exit 74, one line, nothing written outside', async (t) => {
    const dir = gated(t);
    const outside = project(t, {});
    writeFileSync(join(outside, 'bashrc'), 'mine\n');
    chmodSync(join(outside, 'bashrc'), 0o600);
    mkdirSync(join(dir, 'reports'));
    symlinkSync(join(outside, 'bashrc'), join(dir, 'reports', 'gates.xml'));
    symlinkSync(outside, join(dir, 'autostart'));
    const plain = await cli([...RUN, '--raw'], { cwd: dir });
    const linked = await cli([...RUN, '--raw', '--report', 'junit=reports/gates.xml'], { cwd: dir });
    assert.deepEqual(
      [linked.status, timeless(linked.stdout), linked.stderr],
      [74, timeless(plain.stdout), `gsd-check: cannot write the JUnit report reports/gates.xml: it leads outside ${dir} (to ${join(outside, 'bashrc')})\n`],
    );
    const created = await cli([...RUN, '--raw', '--report', 'junit=autostart/gates.xml'], { cwd: dir });
    assert.deepEqual(
      [created.status, created.stderr],
      [74, `gsd-check: cannot write the JUnit report autostart/gates.xml: it leads outside ${dir} (to ${join(outside, 'gates.xml')})\n`],
    );
    assert.equal(readFileSync(join(outside, 'bashrc'), 'utf8'), 'mine\n');
    assert.equal(statSync(join(outside, 'bashrc')).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(outside), ['bashrc']);
    // --cwd outside the project: inside it counts too, and a path written
    // outside both is the caller's to choose.
    const chosen = await cli([...RUN, '--raw', '--report', `junit=${join(outside, 'chosen.xml')}`], { cwd: dir });
    assert.deepEqual([chosen.status, chosen.stderr], [0, '']);
    readJunit(readFileSync(join(outside, 'chosen.xml'), 'utf8')).dispose();
  });

  test('a replaced report keeps its mode', async (t) => {
    const dir = gated(t);
    writeFileSync(join(dir, 'gates.xml'), 'old');
    chmodSync(join(dir, 'gates.xml'), 0o640);
    const result = await cli([...RUN, '--raw', '--report', 'junit=gates.xml'], { cwd: dir });
    assert.deepEqual([result.status, result.stderr], [0, '']);
    assert.equal(statSync(join(dir, 'gates.xml')).mode & 0o7777, 0o640);
    readJunit(readFileSync(join(dir, 'gates.xml'), 'utf8')).dispose();
  });

  // With stdout sent to a file, /dev/stdout is that file: renamed over, the
  // report would take the envelope's place and the envelope would go to the
  // unlinked copy, with exit 0.
  test('a report path that is the file behind stdout or stderr: exit 74, the envelope where the caller reads it', async (t) => {
    const dir = gated(t);
    const plain = await cli([...RUN, '--raw'], { cwd: dir });
    for (const [path, name] of [
      ['/dev/stdout', 'standard output'],
      ['/proc/self/fd/1', 'standard output'],
      ['/dev/stderr', 'standard error'],
      ['out.txt', 'standard output'],
    ] as const) {
      const toFiles = (argv: string[]): [string, string[]] => ['sh', ['-c', 'exec "$@" > out.txt 2> err.txt', 'sh', ...argv]];
      const result = await cli([...RUN, '--raw', '--report', `junit=${path}`], { cwd: dir, wrap: toFiles });
      assert.equal(result.status, 74, path);
      assert.equal(timeless(readFileSync(join(dir, 'out.txt'), 'utf8')), timeless(plain.stdout), path);
      assert.equal(
        readFileSync(join(dir, 'err.txt'), 'utf8'),
        `gsd-check: cannot write the JUnit report ${path}: it is gsd-check's ${name}, where the envelope goes\n`,
        path,
      );
    }
  });

  test('GITHUB_STEP_SUMMARY naming a pipe nobody reads: exit 74 at once, never a wait for a reader', async (t) => {
    const dir = gated(t);
    assert.equal(spawnSync('mkfifo', [join(dir, 'summary')]).status, 0);
    const result = await cli([...RUN, '--pick', 'block', '--report', 'github'], { cwd: dir, env: { ...ENV, GITHUB_STEP_SUMMARY: join(dir, 'summary') } });
    assert.deepEqual([result.status, result.stdout], [74, 'true\n']);
    assert.ok(result.stderr.endsWith(`gsd-check: cannot append to GITHUB_STEP_SUMMARY ${join(dir, 'summary')}: ENXIO\n`), result.stderr);
  });

  test('--report github: annotations on stderr, a table appended to $GITHUB_STEP_SUMMARY; together with junit', async (t) => {
    const dir = gated(t);
    const summaryFile = join(dir, 'summary.md');
    writeFileSync(summaryFile, 'earlier step\n');
    const result = await cli([...RUN, '--pick', 'block', '--report', 'github', '--report', 'junit=gates.xml'], {
      cwd: dir,
      env: { ...ENV, GITHUB_STEP_SUMMARY: summaryFile },
    });
    assert.deepEqual([result.status, result.stdout], [0, 'true\n']);
    assert.equal(
      result.stderr,
      [
        '::error title=gsd-check ship%3Apre sec#1 [predicate command-exit-zero] halt::command exited 3: threats: 2',
        '::warning title=gsd-check ship%3Apre sec#2 [predicate command-exit-zero] advisory::command exited 1',
        '',
      ].join('\n'),
    );
    assert.equal(
      timeless(readFileSync(summaryFile, 'utf8')),
      [
        'earlier step',
        '### gsd-check gates run: ship:pre',
        '',
        'ship:pre: halted by sec#1; 1 advisory',
        '',
        '| Status | Gate | Check | Time | Reason |',
        '| --- | --- | --- | ---: | --- |',
        '| ❌ halt | sec#1 | predicate command-exit-zero | N ms | command exited 3: threats: 2 |',
        '| ✅ pass | sec#0 | predicate command-exit-zero | N ms |  |',
        '| ⚠️ advisory | sec#2 | predicate command-exit-zero | N ms | command exited 1 |',
        '| ➖ inactive | sec#3 | predicate command-exit-zero | N ms | inactive: workflow.extra is null \\(set nowhere\\) |',
        '',
        '',
      ]
        .join('\n')
        .replace('\\(set nowhere\\)', '(set nowhere)'),
    );
    readJunit(readFileSync(join(dir, 'gates.xml'), 'utf8')).dispose();
    // Without GITHUB_STEP_SUMMARY, the annotations alone.
    const bare = await cli([...RUN, '--pick', 'block', '--report', 'github'], { cwd: dir, env: { ...ENV, GITHUB_STEP_SUMMARY: undefined } });
    assert.equal(bare.stderr.split('\n').length, 3);
  });

  test('--report values that are not reports are usage errors', async () => {
    const result = await cli([...RUN, '--report', 'xml']);
    assert.deepEqual(
      [result.status, result.stdout, result.stderr],
      [2, '', 'gsd-check: --report "xml" is not a report; one of: junit=<file>, github (see gsd-check --help)\n'],
    );
    const check = await cli(['check', 'predicate', '--predicate', '{"kind":"command-exit-zero","command":"true"}', '--report', 'github']);
    assert.deepEqual([check.status, check.stderr], [2, 'gsd-check: --report is not a flag of "check predicate" (see gsd-check --help)\n']);
  });

  test('on a terminal: a table of the gates, coloured unless NO_COLOR; --raw and piped output stay the envelope', async (t) => {
    if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) return t.skip('needs util-linux script for a terminal');
    const dir = gated(t);
    const quoted = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
    // Under script(1) stdout is a terminal; stderr (the progress lines) is sent
    // away inside it, so what script passes on is stdout's.
    const terminal = (args: string[], env: Record<string, string | undefined>) =>
      cli(args, {
        cwd: dir,
        env: { ...ENV, TERM: 'xterm', NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
        wrap: (argv) => ['script', ['-qec', `exec ${argv.map(quoted).join(' ')} 2>/dev/null`, '/dev/null']],
      });
    const plain = await terminal(RUN, { NO_COLOR: '1' });
    assert.equal(plain.status, 0);
    const lines = plain.stdout.split('\r\n');
    // Columns line up: the times end where TIME does, the reasons start where REASON does.
    const timeEnd = lines[0]!.indexOf('TIME') + 4;
    for (const line of lines.slice(1, 5)) assert.equal(line.indexOf(' ms') + 3, timeEnd, line);
    assert.equal(
      plain.stdout
        .replace(/ +(TIME|\d+ ms)/g, '  $1')
        .replace(/\d+ ms/g, 'N ms')
        .replaceAll('\r\n', '\n'),
      [
        'STATUS    GATE   CHECK  TIME  REASON',
        'pass      sec#0  predicate command-exit-zero  N ms',
        'halt      sec#1  predicate command-exit-zero  N ms  command exited 3: threats: 2',
        'advisory  sec#2  predicate command-exit-zero  N ms  command exited 1',
        'inactive  sec#3  predicate command-exit-zero  N ms  inactive: workflow.extra is null (set nowhere)',
        'ship:pre: halted by sec#1; 1 advisory',
        '',
      ].join('\n'),
    );
    const coloured = await terminal(RUN, {});
    assert.match(coloured.stdout, /^\u001b\[1mSTATUS .*\u001b\[0m\r\n\u001b\[32mpass {4}\u001b\[0m  sec#0 /);
    assert.match(coloured.stdout, /\r\n\u001b\[1;31mhalt {4}\u001b\[0m  sec#1 /);
    const raw = await terminal([...RUN, '--raw'], {});
    const piped = await cli([...RUN, '--raw'], { cwd: dir });
    assert.equal(timeless(raw.stdout).replaceAll('\r\n', '\n'), timeless(piped.stdout));
    assert.ok(piped.stdout.startsWith('{"block":true,'));
  });

  test('on a terminal, --pick prints the value picked, never the table: a script reads it from a terminal too', async (t) => {
    if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) return t.skip('needs util-linux script for a terminal');
    const dir = gated(t);
    const quoted = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
    // Under script(1) stdout is a terminal, whose line ends are CRLF; stderr is sent away inside it.
    const terminal = (args: string[]) =>
      cli(args, {
        cwd: dir,
        env: { ...ENV, TERM: 'xterm', NO_COLOR: '1' },
        wrap: (argv) => ['script', ['-qec', `exec ${argv.map(quoted).join(' ')} 2>/dev/null`, '/dev/null']],
      });
    const message = await terminal([...RUN, '--pick', 'message']);
    assert.deepEqual([message.status, message.stdout], [0, 'ship:pre: halted by sec#1 (sec#1: command exited 3: threats: 2); 1 advisory\r\n']);
    const status = await terminal([...RUN, '--point', 'plan:pre', '--pick', 'details.points[0].gates[1].status']);
    assert.deepEqual([status.status, status.stdout], [0, 'halt\r\n']);
  });

  test('--pick of a field the envelope lacks: no verdict is printed, so no report is written either', async (t) => {
    const dir = gated(t);
    const result = await cli([...RUN, '--pick', 'details.gates[9].status', '--report', 'junit=gates.xml', '--report', 'github'], {
      cwd: dir,
      env: { ...ENV, GITHUB_STEP_SUMMARY: join(dir, 'summary.md') },
    });
    assert.deepEqual([result.status, result.stdout, result.stderr], [2, '', 'gsd-check: --pick details.gates[9].status: the envelope has no such field\n']);
    assert.deepEqual(readdirSync(dir).sort(), ['.planning', 'cap.json']);
  });

  test('--cwd beside --project-dir bases a report and is a place it may be written, by its real path too', async (t) => {
    const dir = gated(t);
    const elsewhere = project(t, { 'real/reports': null });
    symlinkSync(join(elsewhere, 'real'), join(elsewhere, 'link'));
    const run = (cwd: string) =>
      cli([...RUN.slice(0, 4), '--capability', join(dir, 'cap.json'), '--project-dir', dir, '--cwd', cwd, '--raw', '--report', 'junit=reports/gates.xml'], {
        cwd: dir,
      });
    // The process runs in the project: only --cwd can make a place outside it one a report may go.
    const direct = await run(join(elsewhere, 'real'));
    assert.deepEqual([direct.status, direct.stderr], [0, '']);
    readJunit(readFileSync(join(elsewhere, 'real', 'reports', 'gates.xml'), 'utf8')).dispose();
    // Through a link, the report lands where the link leads, which is --cwd's real path.
    const linked = await run(join(elsewhere, 'link'));
    assert.deepEqual([linked.status, linked.stderr], [0, '']);
    assert.deepEqual(readdirSync(join(elsewhere, 'real', 'reports')).sort(), ['gates.xml']);
    // A link inside --cwd that leads out of it is refused, as one inside the project is.
    const away = project(t, {});
    mkdirSync(join(elsewhere, 'out'));
    symlinkSync(away, join(elsewhere, 'out', 'reports'));
    const escaped = await run(join(elsewhere, 'out'));
    assert.deepEqual(
      [escaped.status, escaped.stderr],
      [74, `gsd-check: cannot write the JUnit report reports/gates.xml: it leads outside ${join(elsewhere, 'out')} (to ${join(away, 'gates.xml')})\n`],
    );
    assert.deepEqual(readdirSync(away), []);
  });

  test('under GitHub Actions no text from the repository reads as a workflow command, in any output form; the annotations gsd-check means do', async (t) => {
    const dir = project(t, {
      '.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: "##[set-output name=approved;]yes"\n---\n',
      '.planning/WINDOWS.md': '---\nopen_count: "::add-mask::x"\n---\n',
      '.planning/config.json': { workflow: { windows_enforce: true } },
    });
    const github = { ...ENV, GITHUB_ACTIONS: 'true' };
    const run = ['gates', 'run', '--point', 'ship:pre', '--builtin', '--phase-number', '04', '--report', 'github'];
    for (const form of [[], ['--raw'], ['--pick', 'message'], ['--pick', 'details.gates']]) {
      const result = await cli([...run, ...form], { cwd: dir, env: github });
      assert.equal(result.status, 0, result.stderr);
      const commands = workflowCommands(result.stdout + result.stderr);
      assert.deepEqual(
        commands.map((c) => [c.command, c.properties.file]),
        [
          ['error', '.planning/WINDOWS.md'],
          ['error', '.planning/phases/04-ship/04-SECURITY.md'],
        ],
        form.join(' '),
      );
      assert.doesNotMatch(result.stdout + result.stderr, /##\[/, form.join(' '));
      // The envelope is still the envelope: the escape is JSON's own.
      if (form.length < 2) assert.match((JSON.parse(result.stdout) as { message: string }).message, /##\[set-output name=approved;\]yes/);
    }
    // A value printed at the start of a line (--pick of a command), and a command's own output in the message.
    const pick = await cli(['check', 'predicate', '--pick', 'details.command', '--predicate', predicate({ command: '::stop-commands::tok' })], {
      cwd: dir,
      env: github,
    });
    assert.deepEqual([pick.status, pick.stdout, workflowCommands(pick.stdout + pick.stderr)], [0, '\\u003a:stop-commands::tok\n', []]);
    const said = await cli(['check', 'predicate', '--pick', 'message', '--predicate', predicate({ command: 'echo "##[add-mask]secret"; exit 1' })], {
      cwd: dir,
      env: github,
    });
    assert.deepEqual([said.stdout, workflowCommands(said.stdout + said.stderr)], ['command exited 1: #\\u0023[add-mask]secret\n', []]);
    // Elsewhere the text is as it was.
    const plain = await cli(['check', 'predicate', '--pick', 'details.command', '--predicate', predicate({ command: '::stop-commands::tok' })], { cwd: dir });
    assert.equal(plain.stdout, '::stop-commands::tok\n');
  });
});
