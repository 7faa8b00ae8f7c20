// The shipped artefact as a process: help and version, the schemas, the
// artefact's own shape, and what reaches stdout and the terminal.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { CONCURRENTLY, describe, test } from './helpers/bounded.ts';
import { project } from './helpers/project.ts';
import { BIN, cli, ENV, predicate, ROOT, tempDir } from './helpers/support.ts';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const check = (fields: Record<string, unknown>, ...flags: string[]) => ['check', 'predicate', '--predicate', predicate(fields), ...flags];

describe('the artefact', CONCURRENTLY, () => {
  test('--help and --version', async () => {
    // Checked against what docs/reference/cli.md documents, not against the source's own
    // help text, so that a help that loses a flag or a default fails here.
    const help = await cli(['--help']);
    assert.deepEqual([help.status, help.stderr], [0, '']);
    assert.ok(help.stdout.startsWith('Usage:\n  gsd-check check predicate (--predicate <json> | --predicate-file <path>) [options]\n'), help.stdout);
    const documented = [
      '--predicate <json>',
      '--predicate-file <path>',
      '--phase-dir <dir>',
      '--phase-number <n>',
      '--phase-req-ids <ids>',
      '--cwd <dir>',
      '--raw',
      '--pick <path>',
      '--exit-code',
      '--json-errors',
      '--kill-after <seconds>',
      '-h, --help',
      '-V, --version',
      '--point <point>',
      '--capability <file>',
      '--hooks <file|->',
      '--config <path>',
      '--query-command <sh>',
      '--query-timeout <seconds>',
      '--concurrency <n>',
      '--report <kind>',
      '--json',
      '--builtin',
      '--project-dir <dir>',
      '--ws <name>',
      '--exit-contract <v1|v2>',
    ];
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
    // A release's version, or between releases the patch after the newest
    // release, -dev, naming that release (docs/reference/cli.md#version).
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    const pending = /^## \[Unreleased\]\n(?:\n|###.*\n)*[^#\n]/m.test(changelog);
    const [, last, major, minor, patch] = /^## \[((\d+)\.(\d+)\.(\d+))\] - /m.exec(changelog)!;
    const built = pending || last !== VERSION ? `${major}.${minor}.${Number(patch) + 1}-dev` : VERSION;
    const notes = [source, ...(built === VERSION ? [] : [`unreleased, after ${last}`])];
    if (process.env.GSD_CHECK_BIN !== undefined) notes.push(`standalone build: Node ${process.version} ${process.platform}-${process.arch}`);
    assert.equal(version.stdout, `gsd-check ${built} (${notes.join('; ')})\n`);
    // What the id is, which the one line leaves out, --help says.
    assert.ok(
      help.stdout.includes(
        '\nVersion: --version prints one line, gsd-check <version> (source <id>). The id\nis a hash of the files gsd-check is built from, not a git commit: node\nbuild-id.mjs in the source archive or a checkout prints it. A build between\nreleases prints a pre-release after the last release, and names it:\ngsd-check <its next patch>-dev (source <id>; unreleased, after <release>).\n',
      ),
      help.stdout,
    );
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
    const root = project(t, { '.planning/phases/01-text': null, 'SECURITY.md': '---\nthreats_open: "\\e[2J\\rPASS"\n---\n' });
    const artifact = JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 });
    const message = await cli(['check', 'predicate', '--predicate', artifact, '--pick', 'message'], { cwd: root });
    assert.equal(message.stdout, 'Frontmatter field "threats_open" in SECURITY.md is \\x1b[2J\\rPASS, expected 0\n');
    // A capability id with a newline and ESC cannot forge a line on stderr.
    writeFileSync(
      join(root, 'cap.json'),
      JSON.stringify({
        id: 'x\n\u001b[1Agsd-check: ship:pre all passed',
        gates: [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }],
      }),
    );
    const gates = await cli(['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--phase-number', '01', '--pick', 'message'], {
      cwd: root,
      env: { ...ENV, PATH: '/usr/bin:/bin' },
    });
    assert.equal(gates.stderr.split('\n').length, 2, gates.stderr);
    assert.ok(gates.stderr.includes('x\\n\\x1b[1Agsd-check: ship:pre all passed#0'), gates.stderr);
    assert.equal(gates.stdout.split('\n').length, 2);
    // A secret passed to the wrong flag is not echoed back.
    writeFileSync(join(root, 'p.json'), 'AWS_SECRET_ACCESS_KEY=abc123');
    const secret = await cli(['check', 'predicate', '--predicate-file', 'p.json'], { cwd: root });
    assert.deepEqual([secret.status, secret.stderr], [2, 'gsd-check: the predicate file is not valid JSON: unexpected character at line 1, column 1\n']);
  });
});
