// The GitHub Action's entry as the runner starts it (test/helpers/action-run.ts).
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test, type TestContext } from '../helpers/bounded.ts';
import { ENTRY, runAction } from '../helpers/action-run.ts';
import { project } from '../helpers/project.ts';
import { workflowCommands } from '../helpers/workflow-commands.ts';
import { DIST, killSurvivors, marker, ROOT, running, survivors, tempDir, until, within } from '../helpers/support.ts';

const fixture = (t: TestContext, threats: number): string =>
  project(t, {
    '.planning/config.json': { workflow: { windows_enforce: true } },
    '.planning/WINDOWS.md': '---\nopen_count: 0\n---\n',
    '.planning/phases/04-ship/04-SECURITY.md': `---\nphase: 04\nthreats_open: ${threats}\n---\n`,
  });

const HALT = 'ship:pre: halted by security#0 (security#0: Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0)';

test("a halt fails the step (exit 1): the message in the log, an annotation at the artifact's line, the summary and the outputs", {
  timeout: 30_000,
}, async (t) => {
  const workspace = fixture(t, 2);
  const sha = 'c0ffee'.padEnd(40, '0');
  const run = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true', 'phase-number': '04' }, undefined, ENTRY, {
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: 'o/r',
    GITHUB_SHA: sha,
  });
  assert.equal(run.status, 1);
  assert.equal(run.stdout, `gsd-check: ${HALT}\n`);
  assert.equal(
    run.stderr,
    '::error file=.planning/phases/04-ship/04-SECURITY.md,line=3,title=gsd-check ship%3Apre security#0 [predicate artifact-frontmatter-equals] halt::Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0\n',
  );
  assert.deepEqual(Object.keys(run.outputs), ['block', 'message', 'halted', 'envelope']);
  assert.deepEqual([run.outputs.block, run.outputs.message, run.outputs.halted], ['true', HALT, 'ship:pre security#0']);
  assert.equal((JSON.parse(run.outputs.envelope!) as { details: { point: string } }).details.point, 'ship:pre');
  assert.match(
    run.summary,
    /^### gsd-check gates run: ship:pre\n\nship:pre: halted by security#0\n\nGSD 1\.14\.0's built-in gates; no GSD found where gsd\\_run looks\n\n\| Status \| Gate \| Check \| Time \| Reason \| Where \|\n/,
  );
  // The halted gate first, linked to its line of the commit the job runs on.
  assert.match(
    run.summary,
    new RegExp(
      `\\| ❌ halt \\| security#0 \\| .* \\| \\[\\.planning/phases/04-ship/04-SECURITY\\.md:3\\]\\(https://github\\.example/o/r/blob/${sha}/\\.planning/phases/04-ship/04-SECURITY\\.md#L3\\) \\|\\n\\| ✅ pass \\| broken-windows#0`,
    ),
  );
});

test('a healthy phase: every point in one call passes (exit 0), block false, no halted gates', { timeout: 30_000 }, async (t) => {
  const workspace = fixture(t, 0);
  // Query gates without GSD: answered by a stand-in that passes them.
  const run = await runAction(t, workspace, { 'all-points': 'true', builtin: 'true', 'phase-number': '04', 'query-command': 'echo \'{"block":false}\'' });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
  assert.match(run.stdout, /^gsd-check: 12 points: passed \(\d+ pass, \d+ inactive\)\n$/);
  assert.deepEqual([run.outputs.block, run.outputs.halted], ['false', '']);
  assert.match(run.summary, /^### gsd-check gates run: 12 points\n/);
});

test('without the github report, a halt still says why on the step: one error annotation with the message', { timeout: 30_000 }, async (t) => {
  const workspace = fixture(t, 2);
  mkdirSync(join(workspace, 'reports'));
  const run = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true', 'phase-number': '04', report: 'junit=reports/gates.xml' });
  assert.equal(run.status, 1);
  assert.equal(run.stdout, `gsd-check: ${HALT}\n::error title=gsd-check::${HALT}\n`);
  assert.equal(run.summary, '');
  assert.match(readFileSync(join(workspace, 'reports', 'gates.xml'), 'utf8'), /<testsuite name="ship:pre" tests="2" failures="1"/);
});

test('a run that cannot be evaluated fails the step with exit 2 and the reason as an error annotation; so does a bad input', { timeout: 30_000 }, async (t) => {
  const workspace = fixture(t, 0);
  const missing = await runAction(t, workspace, { point: 'ship:pre', capability: 'capabilities/security.json' });
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, 'gsd-check: cannot read capability file capabilities/security.json: no such file\n');
  assert.equal(missing.stdout, '::error title=gsd-check::cannot read capability file capabilities/security.json: no such file\n');
  assert.deepEqual(missing.outputs, {});
  const bad = await runAction(t, workspace, { point: 'ship:pre', builtin: 'yes' });
  assert.deepEqual([bad.status, bad.stdout, bad.stderr], [2, '::error title=gsd-check::the input builtin is "yes"; it takes true or false\n', '']);
  const usage = await runAction(t, workspace, { builtin: 'true' });
  assert.deepEqual(
    [usage.status, usage.stdout],
    [2, '::error title=gsd-check::--point (once per loop point), --all-points or --reached is required (see gsd-check --help)\n'],
  );
  // No phase input: the phase's gates are not looked for in the workspace's root.
  const unphased = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true' });
  const why =
    "no phase selected: ship:pre's gate broken-windows#0 looks for WINDOWS.md in the phase directory first (and 1 more gate); give --current-phase (the one STATE.md names), --phase-number or --phase-dir (see gsd-check --help)";
  assert.deepEqual([unphased.status, unphased.stdout, unphased.stderr, unphased.outputs], [2, `::error title=gsd-check::${why}\n`, `gsd-check: ${why}\n`, {}]);
});

test('a phase-number with no directory fails the step (exit 2), naming the phase and the directories there are, with reached as without; reached with no phase names the inputs', {
  timeout: 30_000,
}, async (t) => {
  const workspace = fixture(t, 0);
  const why =
    "--phase-number 7: no directory of .planning/phases is that phase's (whose phase directories are 04-ship); give the number of one, or --phase-dir";
  for (const inputs of [{ point: 'ship:pre' }, { reached: 'true' }]) {
    const run = await runAction(t, workspace, { ...inputs, builtin: 'true', 'phase-number': '7' });
    assert.deepEqual(
      [run.status, run.stdout, run.stderr, run.outputs],
      [2, `::error title=gsd-check::${why}\n`, `gsd-check: ${why}\n`, {}],
      JSON.stringify(inputs),
    );
  }
  const unphased = await runAction(t, workspace, { reached: 'true', builtin: 'true' });
  const choice =
    "no phase selected: --reached reads the points GSD's loop has reached for it; give --current-phase (the one STATE.md names), --phase-number or --phase-dir (see gsd-check --help)";
  assert.deepEqual(
    [unphased.status, unphased.stdout, unphased.stderr, unphased.outputs],
    [2, `::error title=gsd-check::${choice}\n`, `gsd-check: ${choice}\n`, {}],
  );
});

test("repository text reads as no workflow command in the step's log: only the annotations gsd-check and the Action mean run", {
  timeout: 30_000,
}, async (t) => {
  const workspace = project(t, { '.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: "##[set-output name=approved;]yes ::add-mask::x"\n---\n' });
  const annotated = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true', 'phase-number': '04' });
  assert.equal(annotated.status, 1);
  assert.deepEqual(
    workflowCommands(annotated.stdout + annotated.stderr).map((c) => [c.command, c.properties.file]),
    [['error', '.planning/phases/04-ship/04-SECURITY.md']],
  );
  assert.doesNotMatch(annotated.stdout, /##\[/);
  // Without the github report the Action's own error line carries the message.
  const bare = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true', 'phase-number': '04', report: '' });
  assert.equal(bare.status, 1);
  const commands = workflowCommands(bare.stdout + bare.stderr);
  assert.deepEqual(
    commands.map((c) => [c.command, c.properties.title]),
    [['error', 'gsd-check']],
  );
  assert.match(commands[0]!.data, /is #\\u0023\[set-output name=approved;\]yes ::add-mask::x, expected 0/);
  // The outputs are the envelope's, as it said them.
  assert.match(bare.outputs.message!, /##\[set-output name=approved;\]yes/);
});

for (const [name, number] of [
  ['SIGTERM', 15],
  ['SIGINT', 2],
  ['SIGHUP', 1],
] as const) {
  test(`a cancelled run: ${name} reaches gsd-check, which ends the gates' commands; the step exits ${128 + number} and says so`, {
    timeout: 60_000,
  }, async (t) => {
    const mark = marker();
    t.after(() => killSurvivors(mark));
    const workspace = project(t, {
      '.planning': null,
      'cap.json': {
        id: 'slow',
        gates: [
          {
            point: 'ship:pre',
            check: { predicate: { kind: 'command-exit-zero', command: `sleep 300.${mark}`, timeout: 600 } },
            blocking: true,
            onError: 'halt',
          },
        ],
      },
    });
    let child: ChildProcess | undefined;
    const pending = runAction(t, workspace, { point: 'ship:pre', capability: 'cap.json' }, (c) => (child = c));
    await until(() => running(`sleep 300.${mark}`).length === 1, "the gate's command is running");
    child!.kill(name);
    const run = await within(pending, 30_000, 'the stop ends the command, gsd-check and the step');
    assert.equal(run.status, 128 + number);
    assert.equal(run.stderr, `gsd-check: stopped by ${name}; any command it started was ended\n`);
    assert.equal(run.stdout, `::error title=gsd-check::stopped by ${name}; any command it started was ended\n`);
    assert.deepEqual(survivors(mark), []);
    // gsd-check itself, by this checkout's path: another checkout's tests may run the same line.
    assert.deepEqual(survivors(`${join(dirname(ENTRY), 'gsd-check')} gates run --point=ship:pre`), []);
  });
}

test("a run cancelled after a broken gate has said so on stderr: the step's error line is the stop, gsd-check's last line, not the gate's", {
  timeout: 60_000,
}, async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  const gates = [
    { point: 'ship:pre', check: { predicate: { kind: 'no-such-kind' } }, blocking: true, onError: 'halt' },
    { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: `sleep 300.${mark}`, timeout: 600 } }, blocking: true, onError: 'halt' },
  ];
  const workspace = project(t, { '.planning': null, 'cap.json': { id: 'slow', gates } });
  const broken =
    /^gsd-check: ship:pre slow#0 \[predicate no-such-kind\] halt \(\d+ ms\): unknown predicate kind "no-such-kind"; known kinds: command-exit-zero, artifact-frontmatter-equals\n/;
  let child: ChildProcess | undefined;
  let seen = '';
  const pending = runAction(t, workspace, { point: 'ship:pre', capability: 'cap.json' }, (c) => {
    child = c;
    c.stderr!.on('data', (s: string) => (seen += s));
  });
  // The entry passes stderr on as it keeps it: once the gate's line is out, it is in what the entry kept.
  await until(() => broken.test(seen) && running(`sleep 300.${mark}`).length === 1, "the broken gate's line is out and the other gate's command is running");
  child!.kill('SIGTERM');
  const run = await within(pending, 30_000, 'the stop ends the command, gsd-check and the step');
  assert.equal(run.status, 143);
  assert.match(run.stderr, broken);
  assert.equal(run.stderr.replace(broken, ''), 'gsd-check: stopped by SIGTERM; any command it started was ended\n');
  assert.equal(run.stdout, '::error title=gsd-check::stopped by SIGTERM; any command it started was ended\n');
  assert.deepEqual(survivors(mark), []);
});

test('gsd-check killed by a signal it cannot handle (SIGKILL): the step exits 128+9, no verdict, and says so', { timeout: 60_000 }, async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  const workspace = project(t, {
    '.planning': null,
    'cap.json': {
      id: 'slow',
      gates: [
        { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: `sleep 300.${mark}`, timeout: 600 } }, blocking: true, onError: 'halt' },
      ],
    },
  });
  const pending = runAction(t, workspace, { point: 'ship:pre', capability: 'cap.json' });
  await until(() => running(`sleep 300.${mark}`).length === 1, "the gate's command is running");
  const [line] = survivors(`${join(dirname(ENTRY), 'gsd-check')} gates run --point=ship:pre`);
  process.kill(Number(line!.trim().split(/\s+/)[0]), 'SIGKILL');
  const run = await within(pending, 30_000, 'the step ends once gsd-check is gone');
  assert.deepEqual([run.status, run.stdout], [137, '::error title=gsd-check::gsd-check exited 137 without a verdict\n']);
});

test('an empty GITHUB_OUTPUT is no file to write: the step takes the verdict', { timeout: 30_000 }, async (t) => {
  const run = await runAction(t, fixture(t, 0), { point: 'ship:pre', builtin: 'true', 'phase-number': '04' }, undefined, ENTRY, { GITHUB_OUTPUT: '' });
  assert.deepEqual([run.status, run.stdout], [0, 'gsd-check: ship:pre: passed (2 pass)\n']);
});

test('a copy of the Action without a working gsd-check fails the step with exit 2, never the 1 of a halt', { timeout: 30_000 }, async (t) => {
  const workspace = fixture(t, 0);
  const copy = join(tempDir(t), 'action');
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  writeFileSync(join(copy, 'dist', basename(DIST)), 'throw new Error("damaged")\n');
  const damaged = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true' }, undefined, join(copy, 'dist', 'action.js'));
  assert.equal(damaged.status, 2);
  assert.match(damaged.stdout, /^::error title=gsd-check::gsd-check exited 1 without a verdict\n$/);
  rmSync(join(copy, 'dist', basename(DIST)));
  const missing = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true' }, undefined, join(copy, 'dist', 'action.js'));
  assert.deepEqual(
    [missing.status, missing.stdout],
    [2, `::error title=gsd-check::${join(copy, 'dist', basename(DIST))} is missing: the Action's copy needs action.yml and all of dist/\n`],
  );
});

// A copy of the Action whose gsd-check is `program`, a script its Node runs.
function actionWith(t: TestContext, program: string): string {
  const copy = join(tempDir(t), 'action');
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  writeFileSync(join(copy, 'dist', basename(DIST)), program);
  return join(copy, 'dist', 'action.js');
}

test('the envelope decides the step: a halt gsd-check printed fails it even when its death by a signal Node cannot name reads as exit 0', {
  timeout: 30_000,
}, async (t) => {
  const workspace = fixture(t, 0);
  const envelope = JSON.stringify({
    block: true,
    message: 'ship:pre: halted by c#0 (c#0: no)',
    details: { kind: 'gates', point: 'ship:pre', gates: [{ capability: 'c', index: 0, status: 'halt' }] },
  });
  // Signal 34 (SIGRTMIN on Linux) once the envelope is out, as a gate's leftover process could send it.
  const dying = actionWith(t, `process.stdout.write(${JSON.stringify(`${envelope}\n`)}, () => process.kill(process.pid, 34));\n`);
  const halted = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true' }, undefined, dying);
  assert.deepEqual([halted.status, halted.outputs.block, halted.stdout], [1, 'true', 'gsd-check: ship:pre: halted by c#0 (c#0: no)\n']);
  // Told not to fail on a halt, the step passes it on as gsd-check ended.
  const told = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true', 'exit-code': 'false' }, undefined, dying);
  assert.deepEqual([told.status, told.outputs.block], [0, 'true']);
  // A status that says more than the halt is kept: a point not evaluated, a report not written.
  const unwritten = await runAction(
    t,
    workspace,
    { point: 'ship:pre', builtin: 'true' },
    undefined,
    actionWith(t, `process.stdout.write(${JSON.stringify(`${envelope}\n`)}, () => process.exit(74));\n`),
  );
  assert.deepEqual([unwritten.status, unwritten.outputs.block], [74, 'true']);
});

test('gsd-check that exits 0, or 74, with no envelope gave no verdict: the step fails with exit 2', { timeout: 30_000 }, async (t) => {
  const silent = await runAction(t, fixture(t, 0), { point: 'ship:pre', builtin: 'true' }, undefined, actionWith(t, 'process.exitCode = 0;\n'));
  assert.deepEqual([silent.status, silent.stdout, silent.outputs], [2, '::error title=gsd-check::gsd-check exited 0 without a verdict\n', {}]);
  const unwritten = await runAction(
    t,
    fixture(t, 0),
    { point: 'ship:pre', builtin: 'true' },
    undefined,
    actionWith(t, 'process.stderr.write("gsd-check: cannot write the output: EPIPE\\n"); process.exitCode = 74;\n'),
  );
  assert.deepEqual([unwritten.status, unwritten.stdout, unwritten.outputs], [2, '::error title=gsd-check::cannot write the output: EPIPE\n', {}]);
});

test("the gates see what a run: step sees: not the Action's inputs, the runner's tokens for its services, or the OIDC request token", {
  timeout: 30_000,
}, async (t) => {
  const names = [
    'INPUT_POINT',
    'ACTIONS_RUNTIME_TOKEN',
    'ACTIONS_RUNTIME_URL',
    'ACTIONS_CACHE_URL',
    'ACTIONS_RESULTS_URL',
    'ACTIONS_CACHE_SERVICE_V2',
    'ACTIONS_CACHE_MODE',
    'ACTIONS_ID_TOKEN_REQUEST_URL',
    'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
    'ACTIONS_ORCHESTRATION_ID',
    'GITHUB_REPOSITORY',
  ];
  const command = `${names.map((name) => `echo "${name}=\${${name}-unset}"`).join('; ')}; exit 1`;
  const workspace = project(t, {
    '.planning': null,
    'cap.json': { id: 'env', gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command } }, blocking: true, onError: 'halt' }] },
  });
  const runner = Object.fromEntries(names.filter((name) => !name.startsWith('INPUT_')).map((name) => [name, `secret-${name}`]));
  const run = await runAction(t, workspace, { point: 'ship:pre', capability: 'cap.json' }, undefined, ENTRY, runner);
  assert.equal(run.status, 1);
  const seen = JSON.parse(run.outputs.envelope!) as { details: { gates: { envelope: { message: string } }[] } };
  const said = seen.details.gates[0]!.envelope.message;
  for (const name of names.slice(0, -2)) assert.match(said, new RegExp(`${name}=unset`), name);
  // An id of the run and the repository's name are a run: step's too.
  assert.match(said, /ACTIONS_ORCHESTRATION_ID=secret-ACTIONS_ORCHESTRATION_ID\nGITHUB_REPOSITORY=secret-GITHUB_REPOSITORY$/);
});

test('an input action.yml does not declare fails the step, naming it and the input meant', { timeout: 30_000 }, async (t) => {
  const workspace = fixture(t, 0);
  const misspelt = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true' }, undefined, ENTRY, { 'INPUT_CURRENT-PHSE': 'true' });
  assert.deepEqual(
    [misspelt.status, misspelt.stdout, misspelt.stderr],
    [2, '::error title=gsd-check::the input "current-phse" is not one of this Action\'s; did you mean current-phase?\n', ''],
  );
  const unknown = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true' }, undefined, ENTRY, { INPUT_TOKEN: 'x' });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stdout, /^::error title=gsd-check::the input "token" is not one of this Action's; its inputs are point, all-points, /);
});

test('GITHUB_OUTPUT that cannot take the outputs: exit 74 and why, at once (a pipe with no reader is no wait)', { timeout: 30_000 }, async (t) => {
  const workspace = fixture(t, 0);
  const fifo = join(tempDir(t), 'output');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const piped = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true', 'phase-number': '04' }, undefined, ENTRY, { GITHUB_OUTPUT: fifo });
  assert.equal(piped.status, 74);
  assert.equal(
    piped.stdout,
    `gsd-check: ship:pre: passed (2 pass)\n::error title=gsd-check::cannot write the step's outputs to GITHUB_OUTPUT ${fifo}: ENXIO\n`,
  );
  const full = await runAction(t, workspace, { point: 'ship:pre', builtin: 'true', 'phase-number': '04' }, undefined, ENTRY, { GITHUB_OUTPUT: '/dev/full' });
  assert.equal(full.status, 74);
  assert.match(full.stdout, /GITHUB_OUTPUT \/dev\/full: ENOSPC\n$/);
});
