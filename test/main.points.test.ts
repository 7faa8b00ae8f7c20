// gates run over several loop points in one call (--point repeated,
// --all-points), through the shipped artefact: the run's envelope, the exit
// status, and one report of each kind for the whole run.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from './helpers/bounded.ts';
import { project } from './helpers/project.ts';
import { cli, ENV } from './helpers/support.ts';
import { readJunit, values } from './helpers/junit-consumer.ts';

const command = (text: string) => ({ predicate: { kind: 'command-exit-zero', command: text } });
const GATES = [
  { point: 'plan:pre', check: command('true'), blocking: true, onError: 'halt' },
  { point: 'ship:pre', check: command("echo 'threats: 2' >&2; exit 3"), blocking: true, onError: 'halt' },
  {
    point: 'ship:pre',
    check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } },
    blocking: true,
    onError: 'halt',
  },
  { point: 'verify:pre', check: command('exit 1'), blocking: false, onError: 'halt' },
];
const timeless = (text: string): string =>
  text
    .replace(/\d+ ms/g, 'N ms')
    .replace(/time="[\d.]+"/g, 'time="N"')
    .replace(/"durationMs":\d+/g, '"durationMs":N');

const gated = (t: TestContext): string =>
  project(t, {
    '.planning': null,
    'cap.json': { id: 'sec', gates: GATES },
    '.planning/phases/04-ship/04-SECURITY.md': '---\nphase: 04\nthreats_open: 2\n---\n# Security\n',
  });

const RUN = ['gates', 'run', '--capability', 'cap.json', '--phase-number', '04'];

test('several --point: every point is evaluated after a halt, in the order given, in one envelope; --exit-code 1', { timeout: 30_000 }, async (t) => {
  const dir = gated(t);
  const points = ['--point', 'ship:pre', '--point', 'plan:pre', '--point', 'verify:pre', '--point', 'ship:post'];
  const run = await cli([...RUN, ...points, '--raw'], { cwd: dir });
  assert.equal(run.status, 0);
  assert.equal(run.stderr, '');
  const envelope = JSON.parse(run.stdout) as {
    block: boolean;
    message: string;
    details: { kind: string; points: { point: string; block: boolean; message: string; gates: { status: string }[] }[] };
  };
  assert.deepEqual(Object.keys(envelope), ['block', 'message', 'details']);
  assert.equal(envelope.block, true);
  assert.equal(
    envelope.message,
    '1 of 4 points halted: ship:pre: halted by sec#1, sec#2 (sec#1: command exited 3: threats: 2; sec#2: Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0)',
  );
  assert.equal(envelope.details.kind, 'points');
  assert.deepEqual(
    envelope.details.points.map((p) => [p.point, p.block, p.message, p.gates.map((g) => g.status)]),
    [
      ['ship:pre', true, envelope.message.slice('1 of 4 points halted: '.length), ['halt', 'halt']],
      ['plan:pre', false, 'plan:pre: passed (1 pass)', ['pass']],
      ['verify:pre', false, 'verify:pre: passed (1 advisory)', ['advisory']],
      ['ship:post', false, 'ship:post: no gates', []],
    ],
  );
  const exit = await cli([...RUN, ...points, '--exit-code', '--pick', 'details.points[1].gates[0].status'], { cwd: dir });
  assert.deepEqual([exit.status, exit.stdout, exit.stderr], [1, 'pass\n', '']);
  const passing = await cli([...RUN, '--point', 'plan:pre', '--point', 'verify:pre', '--exit-code', '--pick', 'message'], { cwd: dir });
  assert.deepEqual([passing.status, passing.stdout], [0, '2 points: passed (1 pass, 1 advisory)\n']);
  // A path no run envelope has is refused before anything runs, naming the one it has.
  const typo = await cli([...RUN, ...points, '--pick', 'details.gates'], { cwd: dir });
  assert.deepEqual(
    [typo.status, typo.stdout, typo.stderr],
    [2, '', 'gsd-check: --pick details.gates: no such field in a gates run envelope; its details are: kind, points, loop, gsd (see gsd-check --help)\n'],
  );
});

test("one --point prints that point's envelope as before; --all-points runs the 12 in loop order", { timeout: 30_000 }, async (t) => {
  const dir = gated(t);
  const one = await cli([...RUN, '--point', 'plan:pre', '--raw'], { cwd: dir });
  assert.equal(
    timeless(one.stdout),
    '{"block":false,"message":"plan:pre: passed (1 pass)","details":{"kind":"gates","point":"plan:pre","gates":[{"capability":"sec","index":0,"check":{"predicate":{"kind":"command-exit-zero","command":"true"}},"when":null,"blocking":true,"onError":"halt","status":"pass","envelope":{"block":false,"message":"command exited 0","details":{"kind":"command-exit-zero","command":"true","cwd":"' +
      dir +
      '","timeout":30,"exitCode":0,"signal":null,"timedOut":false,"durationMs":N,"stdoutBytes":0,"stderrBytes":0,"tailTruncated":false}},"durationMs":N}]}}\n',
  );
  const all = await cli([...RUN, '--all-points', '--pick', 'details.points'], { cwd: dir });
  assert.equal(all.status, 0);
  const points = JSON.parse(all.stdout) as { point: string }[];
  assert.deepEqual(
    points.map((p) => p.point),
    [
      'discuss:pre',
      'discuss:post',
      'plan:pre',
      'plan:post',
      'execute:pre',
      'execute:wave:pre',
      'execute:wave:post',
      'execute:post',
      'verify:pre',
      'verify:post',
      'ship:pre',
      'ship:post',
    ],
  );
  const message = await cli([...RUN, '--all-points', '--pick', 'message', '--exit-code'], { cwd: dir });
  assert.equal(message.status, 1);
  assert.match(message.stdout, /^1 of 12 points halted: ship:pre: halted by sec#1, sec#2 /);
});

const hooks = (point: string, gates: unknown[]): string =>
  JSON.stringify({ point, activeHooks: gates.map((gate) => ({ capId: 'sec', kind: 'gate', ...(gate as object) })), rendered: '' });
const hookGate = (text: string) => ({ when: null, check: command(text), blocking: true, onError: 'halt' });

test("--hooks passes on GSD's warnings beside the hooks (a capability it failed to load: its gates skipped, not enforced), as --render does: once each, ten at most, and in the job summary", {
  timeout: 30_000,
}, async (t) => {
  const dir = gated(t);
  const failed = (id: string) =>
    `capability ${id} under .gsd/capabilities/ failed to load (failed validation); its gate at plan:pre is SKIPPED and NOT enforced (failing open).`;
  const warned = (point: string, ids: string[]): string => JSON.stringify({ ...JSON.parse(hooks(point, [hookGate('true')])), warnings: ids.map(failed) });
  writeFileSync(join(dir, 'one.json'), warned('plan:pre', ['a']));
  writeFileSync(join(dir, 'two.jsonl'), `${warned('plan:pre', ['a', 'b'])}\n${warned('ship:pre', ['b'])}\n`);
  const summary = join(dir, 'summary.md');
  const one = await cli(['gates', 'run', '--point', 'plan:pre', '--hooks', 'one.json', '--pick', 'message', '--report', 'github'], {
    cwd: dir,
    env: { ...ENV, GITHUB_STEP_SUMMARY: summary },
  });
  assert.deepEqual([one.status, one.stdout, one.stderr], [0, 'plan:pre: passed (1 pass)\n', `gsd-check: warning: GSD: ${failed('a')}\n`]);
  assert.ok(readFileSync(summary, 'utf8').includes(`\n\n\u26a0\ufe0f GSD: ${failed('a')}\n\n`), readFileSync(summary, 'utf8'));
  const two = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'ship:pre', '--hooks', 'two.jsonl', '--pick', 'message'], { cwd: dir });
  assert.deepEqual(
    [two.status, two.stdout, two.stderr],
    [0, '2 points: passed (2 pass)\n', `gsd-check: warning: GSD: ${failed('a')}\ngsd-check: warning: GSD: ${failed('b')}\n`],
  );
  const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
  const page = await cli(['gates', 'run', '--point', 'plan:pre', '--hooks', '-', '--pick', 'message'], { cwd: dir, input: warned('plan:pre', ten) });
  assert.deepEqual([page.status, page.stderr], [0, ten.map((id) => `gsd-check: warning: GSD: ${failed(id)}\n`).join('')]);
  const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
  const flood = await cli(['gates', 'run', '--point', 'plan:pre', '--hooks', '-', '--pick', 'message'], { cwd: dir, input: warned('plan:pre', ids) });
  assert.deepEqual(
    [flood.status, flood.stderr],
    [0, [...ids.slice(0, 10).map((id) => `gsd-check: warning: GSD: ${failed(id)}\n`), 'gsd-check: warning: GSD: and 2 more warnings, not shown\n'].join('')],
  );
});

test('--hooks for several points: the render-hooks documents one after another (indented or not), or a JSON array; a point missing from it is not evaluated: exit 2 with the envelope', {
  timeout: 30_000,
}, async (t) => {
  const dir = gated(t);
  // As `--raw` prints them: indented, one after another.
  const indented = (text: string): string => `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  writeFileSync(join(dir, 'hooks.jsonl'), `${hooks('plan:pre', [hookGate('true')])}\n${hooks('ship:pre', [hookGate('exit 1')])}\n`);
  writeFileSync(join(dir, 'hooks.txt'), indented(hooks('plan:pre', [hookGate('true')])) + indented(hooks('ship:pre', [hookGate('echo "}{" >&2; exit 1')])));
  writeFileSync(join(dir, 'hooks.json'), `[${hooks('plan:pre', [hookGate('true')])}, ${hooks('ship:pre', [hookGate('exit 1')])}]`);
  for (const file of ['hooks.jsonl', 'hooks.json']) {
    const run = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'ship:pre', '--hooks', file, '--pick', 'message'], { cwd: dir });
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, '1 of 2 points halted: ship:pre: halted by sec#0 (sec#0: command exited 1)\n', ''], file);
  }
  // One point's hooks in a list of one, as a loop that collects them writes for one point.
  writeFileSync(join(dir, 'one.json'), `[${hooks('ship:pre', [hookGate('exit 1')])}]`);
  const listed = await cli(['gates', 'run', '--point', 'ship:pre', '--hooks', 'one.json', '--pick', 'message'], { cwd: dir });
  assert.deepEqual([listed.status, listed.stdout, listed.stderr], [0, 'ship:pre: halted by sec#0 (sec#0: command exited 1)\n', '']);
  const pretty = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'ship:pre', '--hooks', 'hooks.txt', '--pick', 'message'], { cwd: dir });
  assert.deepEqual([pretty.status, pretty.stdout], [0, '1 of 2 points halted: ship:pre: halted by sec#0 (sec#0: command exited 1: }{)\n']);
  const stdin = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'verify:pre', '--hooks', '-', '--pick', 'message', '--exit-code'], {
    cwd: dir,
    input: `${hooks('plan:pre', [hookGate('true')])}\n`,
  });
  assert.deepEqual(
    [stdin.status, stdin.stdout, stdin.stderr],
    [
      2,
      '1 of 2 points halted: verify:pre: not evaluated: no document of the hooks on standard input holds the hooks of verify:pre; did gsd_run loop render-hooks verify:pre --raw fail?\n',
      'gsd-check: verify:pre: no document of the hooks on standard input holds the hooks of verify:pre; did gsd_run loop render-hooks verify:pre --raw fail?\n',
    ],
  );
  const json = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'verify:pre', '--hooks', '-', '--raw', '--json-errors'], {
    cwd: dir,
    input: hooks('plan:pre', []),
  });
  assert.equal(json.status, 2);
  assert.equal(
    json.stderr,
    '{"ok":false,"reason":"invalid-json","message":"verify:pre: no document of the hooks on standard input holds the hooks of verify:pre; did gsd_run loop render-hooks verify:pre --raw fail?"}\n',
  );
  assert.deepEqual((JSON.parse(json.stdout) as { details: { points: unknown[] } }).details.points[1], {
    point: 'verify:pre',
    block: true,
    message:
      'verify:pre: not evaluated: no document of the hooks on standard input holds the hooks of verify:pre; did gsd_run loop render-hooks verify:pre --raw fail?',
    reason: 'invalid-json',
    gates: [],
  });
});

test('a point not evaluated and a report not written: exit 2, the status of the evaluation, over the 74 of the report; both said on stderr', {
  timeout: 30_000,
}, async (t) => {
  const dir = gated(t);
  mkdirSync(join(dir, 'taken'));
  const run = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'verify:pre', '--hooks', '-', '--pick', 'message', '--report', 'junit=taken'], {
    cwd: dir,
    input: `${hooks('plan:pre', [hookGate('true')])}\n`,
  });
  assert.deepEqual(
    [run.status, run.stdout, run.stderr],
    [
      2,
      '1 of 2 points halted: verify:pre: not evaluated: no document of the hooks on standard input holds the hooks of verify:pre; did gsd_run loop render-hooks verify:pre --raw fail?\n',
      'gsd-check: verify:pre: no document of the hooks on standard input holds the hooks of verify:pre; did gsd_run loop render-hooks verify:pre --raw fail?\ngsd-check: cannot write the JUnit report taken: EISDIR\n',
    ],
  );
});

test('--hooks for several points: hooks of a point not run, a point twice, or a document that is not JSON fail the call with nothing run', {
  timeout: 30_000,
}, async (t) => {
  const dir = gated(t);
  const refused = async (input: string): Promise<[number | null, string, string]> => {
    const run = await cli(['gates', 'run', '--point', 'plan:pre', '--point', 'ship:pre', '--hooks', '-', '--raw'], { cwd: dir, input });
    return [run.status, run.stdout, run.stderr];
  };
  assert.deepEqual(await refused(`${hooks('plan:pre', [hookGate('touch ran')])}\n${hooks('verify:pre', [])}\n`), [
    2,
    '',
    'gsd-check: document 2 (line 2) of the hooks on standard input holds the hooks of verify:pre, a point not run; add --point verify:pre, or leave it out of the input\n',
  ]);
  assert.deepEqual(await refused(`${hooks('ship:pre', [])}\n\n${hooks('ship:pre', [])}\n`), [
    2,
    '',
    'gsd-check: document 2 (line 3) of the hooks on standard input holds the hooks of ship:pre again (first in document 1 (line 1)): which ones count is ambiguous\n',
  ]);
  assert.deepEqual(await refused(`${hooks('ship:pre', [])}\n{"point":\n`), [
    2,
    '',
    'gsd-check: document 2 (line 2) of the hooks on standard input is not valid JSON: unexpected end at line 2, column 1\n',
  ]);
  assert.deepEqual(await refused('{"activeHooks":[]}\n'), [
    2,
    '',
    'gsd-check: the document of the hooks on standard input is not the output of gsd_run loop render-hooks <point> --raw (it names no point)\n',
  ]);
  assert.deepEqual(await refused('{"point":"ship"}\n'), [
    2,
    '',
    'gsd-check: the document of the hooks on standard input is not the output of gsd_run loop render-hooks <point> --raw (its point is "ship")\n',
  ]);
  assert.deepEqual(await refused(''), [
    2,
    '',
    'gsd-check: the hooks on standard input are empty: whatever was to print them (gsd_run loop render-hooks <point> --raw for each point) printed nothing; did it fail?\n',
  ]);
  // Two documents on one line are told apart by their number.
  assert.deepEqual(await refused(`${hooks('ship:pre', [])} ${hooks('ship:pre', [])}\n`), [
    2,
    '',
    'gsd-check: document 2 (line 1) of the hooks on standard input holds the hooks of ship:pre again (first in document 1 (line 1)): which ones count is ambiguous\n',
  ]);
  // Junk fails at its first document, whatever follows.
  assert.deepEqual(await refused('[] '.repeat(100_000)), [
    2,
    '',
    'gsd-check: document 1 (line 1) of the hooks on standard input is not the output of gsd_run loop render-hooks <point> --raw (it names no point)\n',
  ]);
  assert.deepEqual(readFileSync(join(dir, 'cap.json'), 'utf8').includes('ran'), false);
});

test("one --point given a loop's whole output: the other points' hooks are named, its own are found among them", { timeout: 30_000 }, async (t) => {
  const dir = gated(t);
  writeFileSync(join(dir, 'loop.json'), `${hooks('plan:pre', [hookGate('true')])}\n${hooks('ship:pre', [hookGate('exit 1')])}\n`);
  const run = await cli(['gates', 'run', '--point', 'ship:pre', '--hooks', 'loop.json', '--raw'], { cwd: dir });
  assert.deepEqual(
    [run.status, run.stdout, run.stderr],
    [
      2,
      '',
      'gsd-check: document 1 (line 1) of --hooks loop.json holds the hooks of plan:pre, a point not run; add --point plan:pre, or leave it out of the input\n',
    ],
  );
  writeFileSync(join(dir, 'one.json'), `${hooks('ship:pre', [hookGate('exit 1')])}\n${hooks('verify:pre', [])}\n`);
  const both = await cli(['gates', 'run', '--point', 'ship:pre', '--point', 'verify:pre', '--hooks', 'one.json', '--pick', 'message'], { cwd: dir });
  assert.deepEqual([both.status, both.stdout], [0, '1 of 2 points halted: ship:pre: halted by sec#0 (sec#0: command exited 1)\n']);
});

test('one JUnit file holds a <testsuite> per point, one step summary the run, and annotations point at the artifact line', { timeout: 30_000 }, async (t) => {
  const dir = gated(t);
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, 'before\n');
  const run = await cli([...RUN, '--point', 'plan:pre', '--point', 'ship:pre', '--pick', 'block', '--report', 'junit=gates.xml', '--report', 'github'], {
    cwd: dir,
    env: { ...ENV, GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir },
  });
  assert.equal(run.status, 0);
  assert.equal(run.stdout, 'true\n');
  assert.equal(
    run.stderr,
    [
      '::error title=gsd-check ship%3Apre sec#1 [predicate command-exit-zero] halt::command exited 3: threats: 2',
      '::error file=.planning/phases/04-ship/04-SECURITY.md,line=3,title=gsd-check ship%3Apre sec#2 [predicate artifact-frontmatter-equals] halt::Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0',
      '',
    ].join('\n'),
  );
  const doc = readJunit(readFileSync(join(dir, 'gates.xml'), 'utf8'));
  assert.deepEqual(values(doc, '/testsuites/testsuite/@name'), ['plan:pre', 'ship:pre']);
  assert.deepEqual(values(doc, '/testsuites/@tests'), ['3']);
  assert.deepEqual(values(doc, '/testsuites/testsuite/@failures'), ['0', '2']);
  doc.dispose();
  const text = readFileSync(summary, 'utf8');
  assert.equal(text.split('### gsd-check gates run').length, 2);
  // The run names the point that halted, the point its halted gates: the Reason column says why.
  // The halted point first and open, the one that passed folded below it.
  assert.ok(
    text.startsWith(
      'before\n### gsd-check gates run: 2 points\n\n1 of 2 points halted: ship:pre\n\n#### ship:pre\n\nship:pre: halted by sec#1, sec#2\n\n| Status ',
    ),
    text,
  );
  assert.match(text, /\n<details>\n<summary>plan:pre: passed \(1 pass\)<\/summary>\n\n\| Status /);
});

test("an annotation's file and the message's are relative to GITHUB_WORKSPACE when the artifact is in it, else to the project root; a missing field points at line 1", {
  timeout: 30_000,
}, async (t) => {
  const dir = project(t, {
    'repo/app/.planning': null,
    'repo/app/cap.json': {
      id: 'sec',
      gates: [
        {
          point: 'ship:pre',
          check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'reviewed', equals: true } },
          blocking: true,
          onError: 'halt',
        },
      ],
    },
    'repo/app/SECURITY.md': '---\nthreats_open: 0\n---\n',
  });
  const annotate = async (workspace: string | undefined): Promise<string> => {
    const env: Record<string, string | undefined> = { ...ENV, GITHUB_STEP_SUMMARY: '' };
    if (workspace !== undefined) env.GITHUB_WORKSPACE = workspace;
    const run = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-dir', '.', '--raw', '--report', 'github'], {
      cwd: join(dir, 'repo', 'app'),
      env,
    });
    return run.stderr;
  };
  // The message names the file as the annotation does: relative to the checkout.
  const line = (file: string): string =>
    `::error file=${file},line=1,title=gsd-check ship%3Apre sec#0 [predicate artifact-frontmatter-equals] halt::Frontmatter field "reviewed" in ${file} is missing, expected true\n`;
  assert.equal(await annotate(join(dir, 'repo')), line('app/SECURITY.md'));
  assert.equal(await annotate(undefined), line('SECURITY.md'));
  assert.equal(await annotate(join(dir, 'elsewhere')), line('SECURITY.md'));
  // A workspace given empty or relative is none: the runner always gives it absolute.
  assert.equal(await annotate(''), line('SECURITY.md'));
  assert.equal(await annotate('..'), line('SECURITY.md'));
  // One reached through a link is compared by its real path, as the project root is.
  symlinkSync(join(dir, 'repo'), join(dir, 'repo-link'));
  assert.equal(await annotate(join(dir, 'repo-link')), line('app/SECURITY.md'));
  // A directory whose name starts with two dots is inside the workspace.
  mkdirSync(join(dir, 'ws'));
  renameSync(join(dir, 'repo'), join(dir, 'ws', '..repo'));
  const env: Record<string, string | undefined> = { ...ENV, GITHUB_STEP_SUMMARY: '', GITHUB_WORKSPACE: join(dir, 'ws') };
  const dotted = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-dir', '.', '--raw', '--report', 'github'], {
    cwd: join(dir, 'ws', '..repo', 'app'),
    env,
  });
  assert.equal(dotted.stderr, line('..repo/app/SECURITY.md'));
});

test('--current-phase: the phase .planning/STATE.md names, as state-snapshot reads it, for CI and hooks; none named fails the call', {
  timeout: 30_000,
}, async (t) => {
  const dir = gated(t);
  writeFileSync(join(dir, '.planning', 'STATE.md'), '---\ncurrent_phase: 04\n---\n# Project State\n');
  const run = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--current-phase', '--pick', 'details.gates[1].envelope.message'], {
    cwd: dir,
  });
  assert.deepEqual(
    [run.status, run.stdout, run.stderr],
    [0, 'Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0\n', ''],
  );
  writeFileSync(join(dir, '.planning', 'STATE.md'), '# Project State\n');
  const none = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--current-phase', '--exit-code'], { cwd: dir });
  assert.deepEqual(
    [none.status, none.stdout, none.stderr],
    [
      2,
      '',
      'gsd-check: --current-phase: .planning/STATE.md names no phase: it has no frontmatter (GSD needs a first line of exactly ---), and no Current Phase: or Phase: line (under ## Current Position, if there is one) starts with a phase id such as 04\n',
    ],
  );
  // A STATE.md that GSD's template wrote, before a state command gave it a frontmatter: the body's phase.
  writeFileSync(join(dir, '.planning', 'STATE.md'), '# Project State\n\n## Current Position\n\nPhase: 4 of 4 (Ship)\nStatus: In progress\n');
  const body = await cli(
    ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--current-phase', '--pick', 'details.gates[1].envelope.message'],
    { cwd: dir },
  );
  assert.deepEqual(
    [body.status, body.stdout, body.stderr],
    [0, 'Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0\n', ''],
  );
});

test("--current-phase under GSD_PROJECT: the phase the project's STATE.md names, found among the project's phases", { timeout: 30_000 }, async (t) => {
  const dir = project(t, {
    'cap.json': { id: 'sec', gates: [GATES[2]] },
    '.planning/STATE.md': '---\ncurrent_phase: 01\n---\n',
    '.planning/phases/01-start/01-SECURITY.md': '---\nthreats_open: 0\n---\n',
    '.planning/alpha/STATE.md': '---\ncurrent_phase: 04\n---\n',
    '.planning/alpha/phases/04-ship/04-SECURITY.md': '---\nthreats_open: 2\n---\n',
  });
  const run = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--current-phase', '--pick', 'message'], {
    cwd: dir,
    env: { ...ENV, GSD_PROJECT: 'alpha' },
  });
  assert.deepEqual(
    [run.status, run.stdout, run.stderr],
    [0, 'ship:pre: halted by sec#0 (sec#0: Frontmatter field "threats_open" in .planning/alpha/phases/04-ship/04-SECURITY.md is 2, expected 0)\n', ''],
  );
});

test('an artifact gate that could not be evaluated is annotated at its file too', { timeout: 30_000 }, async (t) => {
  const dir = project(t, {
    '.planning': null,
    'cap.json': {
      id: 'sec',
      gates: [
        {
          point: 'ship:pre',
          check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'reviewed', equals: true } },
          blocking: true,
          onError: 'halt',
        },
      ],
    },
    'SECURITY.md': '---\nreviewed: [unclosed\n---\n',
  });
  const run = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-dir', '.', '--raw', '--report', 'github'], {
    cwd: dir,
    env: { ...ENV, GITHUB_STEP_SUMMARY: '', GITHUB_WORKSPACE: dir },
  });
  assert.equal(
    run.stderr
      .split('\n')
      .filter((line) => line.startsWith('::'))
      .join('\n'),
    '::error file=SECURITY.md,line=1,title=gsd-check ship%3Apre sec#0 [predicate artifact-frontmatter-equals] halt::SECURITY.md: invalid YAML in the frontmatter at line 3: unexpected end of the stream within a flow collection',
  );
});

test("--builtin where capabilities are installed beside GSD's says, in one line, which it leaves out of the points run (not a folder with no capability.json)", {
  timeout: 30_000,
}, async (t) => {
  const dir = project(t, {
    '.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: 0\n---\n',
    '.gsd/capabilities/acme-review/capability.json': {
      id: 'acme-review',
      gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'false' } } }],
    },
    // Gates only at other points, and GSD's own staging folder: nothing of this run is left out there.
    '.gsd/capabilities/plan-only/capability.json': { id: 'plan-only', gates: [{ point: 'plan:pre', check: { query: 'x' } }] },
    '.gsd/capabilities/.staging/notes': 'x',
  });
  const run = await cli(['gates', 'run', '--point', 'ship:pre', '--builtin', '--phase-number', '04', '--raw', '--pick', 'message'], {
    cwd: dir,
    env: { ...ENV, HOME: join(dir, 'home') },
  });
  assert.deepEqual(
    [run.status, run.stdout, run.stderr],
    [
      0,
      'ship:pre: passed (1 pass, 1 inactive)\n',
      'gsd-check: warning: --builtin leaves out the capability installed in .gsd/capabilities/: acme-review; --render evaluates what GSD loads, --capability adds one\n',
    ],
  );
});

test("gates run names a missing artifact's places relative to the checkout; check predicate keeps GSD's absolute ones", { timeout: 30_000 }, async (t) => {
  const dir = project(t, { 'repo/app/.planning/phases/07-release': null });
  const app = join(dir, 'repo', 'app');
  writeFileSync(
    join(app, 'cap.json'),
    JSON.stringify({
      id: 'sec',
      gates: [
        {
          point: 'ship:pre',
          check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } },
          blocking: true,
          onError: 'halt',
        },
      ],
    }),
  );
  const env = { ...ENV, GITHUB_WORKSPACE: join(dir, 'repo') };
  const run = (phase: string, runEnv?: NodeJS.ProcessEnv) =>
    cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-number', phase, '--raw', '--pick', 'message'], {
      cwd: app,
      ...(runEnv === undefined ? {} : { env: runEnv }),
    });
  const gates = await run('07', env);
  assert.deepEqual(
    [gates.status, gates.stdout, gates.stderr],
    [0, 'ship:pre: halted by sec#0 (sec#0: Artifact matching SECURITY.md not found in app/.planning/phases/07-release or app)\n', ''],
  );
  const outside = await run('07');
  assert.equal(outside.stdout, 'ship:pre: halted by sec#0 (sec#0: Artifact matching SECURITY.md not found in .planning/phases/07-release or .)\n');
  // A number with no directory is no phase to gate: the phases directory is named as the checkout has it.
  const unknown = await run('08', env);
  assert.deepEqual(
    [unknown.status, unknown.stdout, unknown.stderr],
    [
      2,
      '',
      "gsd-check: --phase-number 08: no directory of app/.planning/phases is that phase's (whose phase directories are 07-release); give the number of one, or --phase-dir\n",
    ],
  );
  const predicate = JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 });
  const check = await cli(['check', 'predicate', '--predicate', predicate, '--phase-number', '07', '--raw', '--pick', 'message'], { cwd: app, env });
  assert.equal(check.stdout, `Artifact matching SECURITY.md not found in ${join(app, '.planning/phases/07-release')} or ${app}\n`);
  // check predicate is GSD's: a number with no directory is GSD's verdict, not an error.
  const checkUnknown = await cli(['check', 'predicate', '--predicate', predicate, '--phase-number', '08', '--raw', '--pick', 'message'], { cwd: app, env });
  assert.deepEqual(
    [checkUnknown.status, checkUnknown.stdout],
    [0, `Artifact matching SECURITY.md not found in ${app} (no phase directory of .planning/phases matches --phase-number 08)\n`],
  );
});

test('the job summary links a located gate to its line of the commit only when the file is in the checkout: one outside it is in no commit of the repository', {
  timeout: 30_000,
}, async (t) => {
  const dir = project(t, {
    'repo/app/.planning': null,
    'repo/app/cap.json': {
      id: 'sec',
      gates: [
        {
          point: 'ship:pre',
          check: { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'reviewed', equals: true } },
          blocking: true,
          onError: 'halt',
        },
      ],
    },
    'repo/app/SECURITY.md': '---\nthreats_open: 0\n---\n',
  });
  const sha = 'c0ffee'.padEnd(40, '0');
  const summaryOf = async (workspace: string): Promise<string> => {
    const summary = join(dir, `summary-${readdirSync(dir).length}.md`);
    const env = {
      ...ENV,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: workspace,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_SHA: sha,
    };
    const run = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-dir', '.', '--raw', '--report', 'github'], {
      cwd: join(dir, 'repo', 'app'),
      env,
    });
    assert.equal(run.status, 0, run.stderr);
    return readFileSync(summary, 'utf8');
  };
  assert.match(
    await summaryOf(join(dir, 'repo')),
    new RegExp(`\\| \\[SECURITY\\.md:1\\]\\(https://github\\.example/o/r/blob/${sha}/app/SECURITY\\.md#L1\\) \\|\\n`),
  );
  // The project outside the checkout: its SECURITY.md is named from the project root, with no link.
  const outside = await summaryOf(join(dir, 'elsewhere'));
  assert.match(outside, /\| SECURITY\.md:1 \|\n/);
  assert.doesNotMatch(outside, /github\.example/);
});
