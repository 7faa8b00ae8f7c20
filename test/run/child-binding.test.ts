import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { bindingStart, processBinding } from '../../src/run/child-binding.ts';
import { cli, ENV, predicate, tempDir } from '../helpers/support.ts';

// The CLI tests run against the standalone binary (test/against-binary.mjs)
// with GSD_CHECK_BIN set; only the binary starts sh through the binding.
const standalone = process.env.GSD_CHECK_BIN !== undefined;
const skipped = `Node ${process.version}'s binding has not the form of the standalone binary's Node`;

// A binding of the shape Node 24's has, with one part changed by `change`.
function fakeBinding(change: (parts: Record<string, Record<string, unknown>>) => void = () => {}): (name: string) => unknown {
  class Fake {}
  const parts: Record<string, Record<string, unknown>> = {
    process_wrap: { Process: Fake, constants: { kProcessFlagDetached: 1 } },
    pipe_wrap: { Pipe: Fake, constants: { SOCKET: 0 } },
    stream_wrap: { streamBaseState: new Int32Array(5), kReadBytesOrError: 0 },
  };
  change(parts);
  return (name) => parts[name];
}

test('a binding is used only when it has every part of its form: anything missing or of another type starts through node:child_process', () => {
  assert.equal(typeof bindingStart(fakeBinding()), 'function', 'the whole shape');
  const broken: [string, (parts: Record<string, Record<string, unknown>>) => void][] = [
    ['no Process', (p) => delete p.process_wrap!.Process],
    ['no Pipe', (p) => delete p.pipe_wrap!.Pipe],
    ['no pipe constants', (p) => delete p.pipe_wrap!.constants],
    ['a SOCKET that is no number', (p) => (p.pipe_wrap!.constants = { SOCKET: '0' })],
    ['a read state that is no Int32Array', (p) => (p.stream_wrap!.streamBaseState = [0, 0])],
    ['no read index', (p) => delete p.stream_wrap!.kReadBytesOrError],
    ['a detached flag that is no number', (p) => (p.process_wrap!.constants = { kProcessFlagDetached: '1' })],
    ['no stream binding', (p) => delete p.stream_wrap],
    // Node 20 and 22: spawn takes one options object, and there is no flag.
    ['the options form of Node 20 and 22', (p) => (p.process_wrap!.constants = {})],
  ];
  for (const [name, change] of broken) assert.equal(bindingStart(fakeBinding(change)), undefined, name);
  assert.equal(bindingStart(undefined), undefined, 'no process.binding at all');
  assert.equal(
    bindingStart(() => {
      throw new Error('denied');
    }),
    undefined,
    'a binding that throws (the permission model)',
  );
});

test('looking at the binding leaves process.noDeprecation as it was', () => {
  const before = process.noDeprecation;
  try {
    for (const value of [false, true]) {
      process.noDeprecation = value;
      bindingStart(processBinding);
      assert.equal(process.noDeprecation, value);
    }
  } finally {
    process.noDeprecation = before === true;
  }
});

test('a pipe is read to its end, every byte in order, through one reused buffer', async (t) => {
  const start = bindingStart(processBinding);
  if (start === undefined) return t.skip(skipped);
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
          child.stderr.read(
            () => {},
            () => {},
          );
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
  const start = bindingStart(processBinding);
  if (start === undefined) return t.skip(skipped);
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
          child.stderr.read(
            () => {},
            () => {},
          );
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
async function loadedBy(
  t: import('node:test').TestContext,
  flags: string[],
): Promise<{ status: number | null; stdout: string; stderr: string; loaded: string[] }> {
  const dir = tempDir(t);
  const list = join(dir, 'loaded.json');
  const preload = join(dir, 'preload.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));\n`);
  const result = await cli(['check', 'predicate', '--predicate', predicate({ command: 'echo out; echo err >&2' })], {
    env: { ...ENV, NODE_OPTIONS: [`--require=${preload}`, ...flags].join(' ') },
  });
  const loaded = (JSON.parse(readFileSync(list, 'utf8')) as string[]).filter((name) => /^NativeModule (?:child_process|net|stream|crypto|os)$/.test(name));
  return { ...result, loaded };
}

const ANSWER = /^\{\n {2}"block": false,\n {2}"message": "command exited 0",\n/;

test('check predicate starts sh through node:child_process from the file, on every Node; the standalone binary loads neither it nor node:net', async (t) => {
  const { status, stdout, stderr, loaded } = await loadedBy(t, []);
  assert.equal(status, 0);
  assert.match(stdout, ANSWER);
  assert.match(stdout, /"stdoutBytes": 4,\n {4}"stderrBytes": 4,/);
  assert.equal(stderr, '');
  if (standalone) assert.deepEqual(loaded, []);
  else assert.ok(loaded.includes('NativeModule child_process'), loaded.join(', '));
  // What only some runs need is loaded by them (a consent's hash, its temp home).
  assert.deepEqual(
    loaded.filter((name) => /(?:crypto|os)$/.test(name)),
    [],
  );
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

// The bindings a start of the shipped file asked process.binding for, from a
// script preloaded into it that stands between the program and the binding.
async function bindingsAskedBy(
  t: import('node:test').TestContext,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stderr: string; asked: string[] }> {
  const dir = tempDir(t);
  const log = join(dir, 'asked');
  const preload = join(dir, 'spy.cjs');
  writeFileSync(
    preload,
    `const fs = require('node:fs'); const real = process.binding; process.binding = function (name) { fs.appendFileSync(${JSON.stringify(log)}, name + '\\n'); return real.call(process, name); };\n`,
  );
  const result = await cli(args, { env: { ...ENV, ...env, NODE_OPTIONS: `--require=${preload}` } });
  let asked: string[] = [];
  try {
    asked = readFileSync(log, 'utf8')
      .split('\n')
      .filter((name) => name !== '');
  } catch {
    // Never asked.
  }
  return { status: result.status, stderr: result.stderr, asked };
}

test('the binding is reached only by the standalone binary, when a command is started: never by --version, help, schema, validate or a frontmatter gate', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'cap.json'), '{"gates": []}');
  for (const args of [
    ['--version'],
    ['--help'],
    ['help', 'gates'],
    ['schema', 'predicate'],
    ['validate', join(dir, 'cap.json')],
    ['check', 'predicate', '--cwd', dir, '--predicate', '{"kind":"artifact-frontmatter-equals","artifact":"X.md","field":"a","equals":0}'],
  ]) {
    const { asked, stderr } = await bindingsAskedBy(t, args);
    assert.deepEqual(asked, [], `${args.join(' ')}: ${stderr}`);
  }
  const started = await bindingsAskedBy(t, ['check', 'predicate', '--predicate', predicate({ command: 'true' })]);
  assert.equal(started.status, 0);
  assert.deepEqual(started.asked.length > 0, standalone, `${standalone ? 'the standalone binary' : 'the file'}: ${started.asked.join(', ')}`);
});

test('GSD_CHECK_SPAWN=child_process starts sh through node:child_process; another value fails the call before anything runs', async (t) => {
  const off = await bindingsAskedBy(t, ['check', 'predicate', '--predicate', predicate({ command: 'true' })], { GSD_CHECK_SPAWN: 'child_process' });
  assert.deepEqual([off.status, off.asked], [0, []]);
  const dir = tempDir(t);
  const typo = await cli(['check', 'predicate', '--predicate', predicate({ command: `touch ${join(dir, 'ran')}` })], {
    env: { ...ENV, GSD_CHECK_SPAWN: 'childprocess' },
  });
  assert.deepEqual(
    [typo.status, typo.stdout, typo.stderr],
    [2, '', 'gsd-check: GSD_CHECK_SPAWN "childprocess" is not a way to start commands; give child_process, or leave it unset\n'],
  );
  assert.deepEqual(readdirSync(dir), []);
  // Commands that start nothing do not read it.
  assert.equal((await cli(['--version'], { env: { ...ENV, GSD_CHECK_SPAWN: 'childprocess' } })).status, 0);
});

test('a pipe whose read cannot start ends at once, and is closed: no read waits for ever', () => {
  const closed: string[] = [];
  class Process {
    pid = 4242;
    onexit = (): void => {};
    spawn(): number {
      return 0;
    }
    close(): void {}
  }
  class Pipe {
    onread = (): void => {};
    useUserBuffer(): void {}
    readStart(): number {
      return -22;
    }
    readStop(): number {
      return 0;
    }
    close(): void {
      closed.push('pipe');
    }
  }
  const binding = (name: string): unknown =>
    ({
      process_wrap: { Process, constants: { kProcessFlagDetached: 1 } },
      pipe_wrap: { Pipe, constants: { SOCKET: 0 } },
      stream_wrap: { streamBaseState: new Int32Array(5), kReadBytesOrError: 0 },
    })[name];
  const start = bindingStart(binding)!;
  const ended: string[] = [];
  start(
    { file: 'sh', args: [], cwd: '/', env: {} },
    {
      failed: (code) => assert.fail(code),
      started: (child) => {
        child.stdout.read(
          () => assert.fail('no bytes'),
          () => ended.push('stdout'),
        );
        child.stderr.read(
          () => assert.fail('no bytes'),
          () => ended.push('stderr'),
        );
        return () => {};
      },
    },
  );
  assert.deepEqual(
    [ended, closed],
    [
      ['stdout', 'stderr'],
      ['pipe', 'pipe'],
    ],
  );
});
