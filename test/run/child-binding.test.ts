import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { bindingStart } from '../../src/run/child-binding.ts';
import { cli, ENV, predicate, tempDir } from '../helpers/support.ts';

const major = Number(process.versions.node.split('.')[0]);
const known = [20, 22, 24, 26].includes(major);
const FORM_OF = (line: number): string => (line >= 24 ? 'positional' : 'options');

test('the binding is used on the lines CI tests, and only there', () => {
  assert.equal(bindingStart(process.versions.node) !== undefined, known);
  for (const other of ['19.9.0', '21.7.3', '23.11.0', '25.1.0', '27.0.0', 'x']) assert.equal(bindingStart(other), undefined, other);
});

test("a line whose form is not this binding's is not started through it", () => {
  // The form is told apart by the binding's own constants: a Node that
  // called itself a line of the other form would abort on the first start.
  const others = [20, 22, 24, 26].filter((line) => FORM_OF(line) !== FORM_OF(major));
  for (const line of others) assert.equal(bindingStart(`${line}.0.0`), undefined, String(line));
});

test('looking at the binding leaves process.noDeprecation as it was', () => {
  const before = process.noDeprecation;
  try {
    for (const value of [false, true]) {
      process.noDeprecation = value;
      bindingStart(process.versions.node);
      assert.equal(process.noDeprecation, value);
    }
  } finally {
    process.noDeprecation = before === true;
  }
});

test('a pipe is read to its end, every byte in order, through one reused buffer', async (t) => {
  const start = bindingStart(process.versions.node);
  if (start === undefined) return t.skip(`Node ${process.version} is not a line CI tests`);
  const buffers = new Set<ArrayBufferLike>();
  const text = await new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    start(
      { file: 'sh', args: ['-c', 'i=0; while [ $i -lt 20000 ]; do echo "line $i"; i=$((i+1)); done'], cwd: process.cwd(), env: { PATH: process.env.PATH } },
      {
        failed: (code) => resolve(`failed ${code}`),
        started: (child) => {
          child.stdout.read(
            (bytes) => {
              buffers.add(bytes.buffer);
              // The next read overwrites the buffer: copy, as the tail ring does.
              chunks.push(Buffer.from(bytes));
            },
            () => resolve(Buffer.concat(chunks).toString()),
          );
          child.stderr.read(() => {}, () => {});
          return () => {};
        },
      },
    );
  });
  const lines = text.split('\n');
  assert.equal(lines.length, 20001);
  assert.equal(lines[0], 'line 0');
  assert.equal(lines[19999], 'line 19999');
  assert.equal(buffers.size, 1);
});

test('a pipe closed while its writer writes: no read and no end come after, and the writer stops on the broken pipe', async (t) => {
  const start = bindingStart(process.versions.node);
  if (start === undefined) return t.skip(`Node ${process.version} is not a line CI tests`);
  const after: string[] = [];
  const exit = await new Promise<[number | null, string | null]>((resolve) => {
    start(
      { file: 'sh', args: ['-c', 'exec yes'], cwd: process.cwd(), env: { PATH: process.env.PATH } },
      {
        failed: (code) => resolve([null, code]),
        started: (child) => {
          let closed = false;
          child.stdout.read(
            () => {
              if (closed) after.push('read');
              closed = true;
              child.stdout.close();
            },
            () => after.push('end'),
          );
          child.stderr.read(() => {}, () => {});
          return (code, signal) => resolve([code, signal]);
        },
      },
    );
  });
  // `yes` dies of SIGPIPE, or, where the signal does not reach it first, exits 1 on EPIPE.
  assert.ok(JSON.stringify(exit) === '[null,"SIGPIPE"]' || JSON.stringify(exit) === '[1,null]', JSON.stringify(exit));
  assert.deepEqual(after, []);
});

// The modules a start of the shipped file loaded, as Node lists them, from a
// script preloaded into it.
async function loadedBy(t: import('node:test').TestContext, flags: string[]): Promise<{ status: number | null; stdout: string; stderr: string; loaded: string[] }> {
  const dir = tempDir(t);
  const list = join(dir, 'loaded.json');
  const preload = join(dir, 'preload.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));\n`);
  const result = await cli(['check', 'predicate', '--predicate', predicate({ command: 'echo out; echo err >&2' })], {
    env: { ...ENV, NODE_OPTIONS: [`--require=${preload}`, ...flags].join(' ') },
  });
  const loaded = (JSON.parse(readFileSync(list, 'utf8')) as string[]).filter((name) => /^NativeModule (?:child_process|net|stream)$/.test(name));
  return { ...result, loaded };
}

const ANSWER = /^\{\n {2}"block": false,\n {2}"message": "command exited 0",\n/;

test('a start of check predicate loads neither node:child_process nor node:net (the binding starts sh)', async (t) => {
  if (!known) return t.skip(`Node ${process.version} is not a line CI tests`);
  const { status, stdout, stderr, loaded } = await loadedBy(t, []);
  assert.equal(status, 0);
  assert.match(stdout, ANSWER);
  assert.match(stdout, /"stdoutBytes": 4,\n {4}"stderrBytes": 4,/);
  assert.equal(stderr, '');
  assert.deepEqual(loaded, []);
});

test('under --pending-deprecation and --throw-deprecation, the binding warns of nothing', async (t) => {
  const { status, stdout, stderr } = await loadedBy(t, ['--pending-deprecation', '--throw-deprecation']);
  assert.equal(status, 0);
  assert.match(stdout, ANSWER);
  assert.equal(stderr, '');
});

test("under Node's permission model, which refuses the binding, sh starts through node:child_process", async (t) => {
  // The flag of the Node that runs the artefact: the first node on PATH, or,
  // for a standalone binary, the pinned Node the tests then run on too.
  const flags =
    process.env.GSD_CHECK_BIN === undefined
      ? spawnSync('node', ['-p', "process.allowedNodeEnvironmentFlags.has('--permission')"], { env: ENV, encoding: 'utf8' }).stdout.trim() === 'true'
      : process.allowedNodeEnvironmentFlags.has('--permission');
  const permission = flags ? '--permission' : '--experimental-permission';
  const { status, stdout, loaded } = await loadedBy(t, [permission, '--allow-fs-read=*', '--allow-fs-write=*', '--allow-child-process']);
  assert.equal(status, 0);
  assert.match(stdout, ANSWER);
  assert.match(stdout, /"stdoutBytes": 4,\n {4}"stderrBytes": 4,/);
  assert.deepEqual(loaded.includes('NativeModule child_process'), true);
});
