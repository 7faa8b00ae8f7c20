// GSD's command line through the shipped artefact: the forms a script
// written against `gsd-tools check predicate` uses (the `query` prefix, help
// spellings anywhere, trimmed `=` values, --cwd beside --project-dir), and
// what `--pick` prints for null and the workstream a pointer names.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONCURRENTLY, describe, test } from './helpers/bounded.ts';
import { project } from './helpers/project.ts';
import { cli, predicate } from './helpers/support.ts';

const WHERE = predicate({ command: 'echo "$(pwd -P) ws=$GSD_WORKSTREAM" >&2; exit 1' });
const BOUND = { timeout: 30_000 };

describe('the command line', CONCURRENTLY, () => {
  test("GSD's query prefix runs the command it stands before", BOUND, async (t) => {
    const root = project(t, { '.planning': null });
    for (const words of [
      ['query', 'check.predicate'],
      ['query', 'check', 'predicate'],
      ['--raw', 'query', 'check', 'predicate'],
    ]) {
      const result = await cli([...words, '--predicate', predicate({ command: 'true' }), '--pick', 'block'], { cwd: root });
      assert.deepEqual(result, { status: 0, signal: null, stdout: 'false\n', stderr: '' }, words.join(' '));
    }
    const twice = await cli(['query', 'query', 'check', 'predicate', '--predicate', predicate({ command: 'true' })], { cwd: root });
    assert.deepEqual([twice.status, twice.stdout], [2, '']);
    assert.match(twice.stderr, /^gsd-check: unknown command "query"; /);
  });

  test("GSD's help spellings anywhere, even as a flag's value, print the command's help, exit 0", BOUND, async (t) => {
    const root = project(t, { '.planning': null });
    const own = await cli(['help', 'check', 'predicate'], { cwd: root });
    for (const argv of [
      ['check', 'predicate', '--predicate', WHERE, '-?'],
      ['check', '--h', 'predicate'],
      ['check', 'predicate', '--usage'],
      ['check', 'predicate', '--predicate', WHERE, '--phase-number', '-h'],
      ['check', 'predicate', '--cwd', 'nowhere', '--help'],
    ]) {
      assert.deepEqual(await cli(argv, { cwd: root }), own, argv.join(' '));
    }
    assert.equal(own.status, 0);
    assert.ok(own.stdout.startsWith('Usage: gsd-check check predicate '), own.stdout);
  });

  test('the = values of --cwd, --project-dir and --ws are trimmed, as GSD trims them; --cwd is checked beside --project-dir', BOUND, async (t) => {
    const root = project(t, { '.planning': null, 'sub/.planning': null });
    const message = async (...flags: string[]) => {
      const result = await cli(['check', 'predicate', '--predicate', WHERE, '--pick', 'message', ...flags], { cwd: root });
      return result.status === 0 ? result.stdout : `exit ${result.status}: ${result.stderr}`;
    };
    assert.equal(await message('--cwd=sub\r'), `command exited 1: ${join(root, 'sub')} ws=\n`);
    assert.equal(await message('--project-dir= sub '), `command exited 1: ${join(root, 'sub')} ws=\n`);
    assert.equal(await message('--ws= alpha\r'), `command exited 1: ${root} ws=alpha\n`);
    assert.equal(await message('--cwd', 'sub\r'), 'exit 2: gsd-check: --cwd sub\\r: no such directory\n');
    assert.equal(await message('--cwd', 'nowhere', '--project-dir', 'sub'), 'exit 2: gsd-check: --cwd nowhere: no such directory\n');
    assert.equal(await message('--cwd', 'sub', '--project-dir', 'sub'), `command exited 1: ${join(root, 'sub')} ws=\n`);
  });

  test('--pick of null prints an empty line (GSD prints nothing)', BOUND, async (t) => {
    const root = project(t, { '.planning': null });
    const result = await cli(['check', 'predicate', '--predicate', predicate({ command: 'exit 4' }), '--pick', 'details.signal'], { cwd: root });
    assert.deepEqual(result, { status: 0, signal: null, stdout: '\n', stderr: '' });
  });

  test('a pointer naming a workstream that is a regular file reaches the command as GSD_WORKSTREAM, as in GSD', BOUND, async (t) => {
    const root = project(t, { '.planning/workstreams': null, '.planning/active-workstream': 'ws9\n' });
    writeFileSync(join(root, '.planning/workstreams/ws9'), 'not a directory\n');
    mkdirSync(join(root, '.planning/phases/04-ship'), { recursive: true });
    const result = await cli(['check', 'predicate', '--predicate', WHERE, '--pick', 'message', '--phase-number', '04'], { cwd: root });
    assert.deepEqual(result, { status: 0, signal: null, stdout: `command exited 1: ${root} ws=ws9\n`, stderr: '' });
  });

  test('a slip on the command line gets the likely meaning: a command, a loop point, -v', BOUND, async (t) => {
    const root = project(t, { '.planning': null });
    const cases: [string[], string][] = [
      [['chek', 'predicate'], 'unknown command "chek"; did you mean gsd-check check predicate?'],
      [['gate', 'run'], 'unknown command "gate"; did you mean gsd-check gates run?'],
      [['gates', 'run', '--point', 'ship-pre', '--builtin'], '--point "ship-pre" is not a loop point; did you mean ship:pre?'],
      [['gates', 'run', '--point', 'Plan:Post', '--builtin'], '--point "Plan:Post" is not a loop point; did you mean plan:post?'],
      [['-v'], 'unknown flag -v; the version is -V (or --version)'],
      [
        ['check', 'predicate', '--predicate', predicate({ command: 'true' }), '--pick', 'blok'],
        '--pick blok is not a field of the envelope; did you mean block?',
      ],
    ];
    for (const [argv, message] of cases) {
      assert.deepEqual(
        await cli(argv, { cwd: root }),
        { status: 2, signal: null, stdout: '', stderr: `gsd-check: ${message} (see gsd-check --help)\n` },
        argv.join(' '),
      );
    }
  });

  test('every syntax error of an argument is a usage error in one style, found before anything runs', BOUND, async (t) => {
    const root = project(t, { '.planning': null });
    const marker = join(root, 'ran');
    const check = ['check', 'predicate', '--predicate', predicate({ command: `touch '${marker}'` })];
    const cases: [string[], string][] = [
      [['--cwd='], '--cwd needs a directory'],
      [['--ws='], '--ws needs a workstream name'],
      [['--ws', ' '], '--ws needs a workstream name'],
      [['--ws', 'my ws'], '--ws "my ws": a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")'],
      [['--project-dir= '], '--project-dir needs a directory'],
    ];
    for (const [flags, message] of cases) {
      assert.deepEqual(
        await cli([...check, ...flags], { cwd: root }),
        { status: 2, signal: null, stdout: '', stderr: `gsd-check: ${message} (see gsd-check --help)\n` },
        flags.join(' '),
      );
    }
    assert.equal(existsSync(marker), false);
    // An empty --phase-dir is none, as in GSD: the command runs.
    assert.equal((await cli([...check, '--phase-dir='], { cwd: root })).status, 0);
    assert.equal(existsSync(marker), true);
  });
});
