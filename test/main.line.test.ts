// GSD's command line through the shipped artefact: the forms a script
// written against `gsd-tools check predicate` uses (the `query` prefix, help
// spellings anywhere, trimmed `=` values, --cwd beside --project-dir), and
// what `--pick` prints for null and the workstream a pointer names.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { project } from './helpers/project.ts';
import { cli, predicate } from './helpers/support.ts';

const WHERE = predicate({ command: 'echo "$(pwd -P) ws=$GSD_WORKSTREAM" >&2; exit 1' });
const BOUND = { timeout: 30_000 };

test("GSD's query prefix runs the command it stands before", BOUND, async (t) => {
  const root = project(t, { '.planning': null });
  for (const words of [['query', 'check.predicate'], ['query', 'check', 'predicate'], ['--raw', 'query', 'check', 'predicate']]) {
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

test("the = values of --cwd, --project-dir and --ws are trimmed, as GSD trims them; --cwd is checked beside --project-dir", BOUND, async (t) => {
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
