import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { bindingStart, processBinding, testedNodes } from '../../src/run/child-binding.ts';
import { cli, ENV, predicate, ROOT, tempDir } from '../helpers/support.ts';

const major = Number(process.versions.node.split('.')[0]);
const known = testedNodes().includes(process.versions.node);
const FORM_OF = (line: number): string => (line >= 24 ? 'positional' : 'options');

// The Node versions runtimes/ pins: the ones CI runs gsd-check on.
function pinnedNodes(): string[] {
  const versions = readdirSync(join(ROOT, 'runtimes'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => Object.entries((JSON.parse(readFileSync(join(ROOT, 'runtimes', entry.name, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> }).packages))
    .filter(([path]) => /^node_modules\/node\d+$/.test(path))
    .map(([, entry]) => entry.version);
  return [...new Set(versions)].sort();
}

test("the binding is used on the exact Node versions CI runs, runtimes/' pins, and each is a line CI runs the CLI tests on", () => {
  assert.deepEqual(testedNodes(), pinnedNodes());
  assert.deepEqual(testedNodes().map((version) => version.split('.')[0]), ['20', '22', '24', '26']);
  // .ci/run's loop over the lines runs the CLI tests with each pinned Node.
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  for (const line of ['node20', 'node22', 'node26']) assert.match(ci, new RegExp(`"\\$lines/${line}/bin"`), line);
  assert.match(ci, /PATH="\$pinned\/node24\/bin:\$PATH" GSD_CHECK_CI_TOOLS=1 npm test/);
  assert.equal(bindingStart(process.versions.node, processBinding) !== undefined, known);
  // The reference page names them as they are.
  const page = readFileSync(join(ROOT, 'docs', 'reference', 'environment.md'), 'utf8');
  assert.equal(/the ones `runtimes\/` pins: ([\d., ]+)\)/.exec(page)?.[1], testedNodes().join(', '));
});

test('any other Node starts through node:child_process: another patch of a line CI runs, another line, no version', () => {
  const patches = testedNodes().flatMap((version) => {
    const [a, b, c] = version.split('.').map(Number) as [number, number, number];
    return [`${a}.${b}.${c + 1}`, `${a}.${b + 1}.0`, `${a}.${b}.${c}-pre`];
  });
  for (const other of [...patches, '19.9.0', '21.7.3', '21.22.0', '23.11.0', '23.24.0', '25.26.0', '27.0.0', 'x', '']) {
    assert.equal(bindingStart(other, processBinding), undefined, other);
    assert.equal(bindingStart(other, fakeBinding(false)), undefined, other);
    assert.equal(bindingStart(other, fakeBinding(true)), undefined, other);
  }
});

test("a line whose form is not this binding's is not started through it", () => {
  // The form is told apart by the binding's own constants: a Node that
  // called itself a line of the other form would abort on the first start.
  const others = [20, 22, 24, 26].filter((line) => FORM_OF(line) !== FORM_OF(major));
  for (const line of others) assert.equal(bindingStart(`${line}.0.0`, processBinding, [`${line}.0.0`]), undefined, String(line));
});

// A binding of the shape each form has, with one part changed by `change`.
function fakeBinding(positional: boolean, change: (parts: Record<string, Record<string, unknown>>) => void = () => {}): (name: string) => unknown {
  class Fake {}
  const parts: Record<string, Record<string, unknown>> = {
    process_wrap: positional ? { Process: Fake, constants: { kProcessFlagDetached: 1 } } : { Process: Fake },
    pipe_wrap: { Pipe: Fake, constants: { SOCKET: 0 } },
    stream_wrap: { streamBaseState: new Int32Array(5), kReadBytesOrError: 0 },
  };
  change(parts);
  return (name) => parts[name];
}

test('a binding is used only when it has every part of its form: anything missing or of another type starts through node:child_process', () => {
  for (const [line, positional] of [['22.0.0', false], ['24.0.0', true]] as const) {
    assert.equal(typeof bindingStart(line, fakeBinding(positional), [line]), 'function', `${line}: the whole shape`);
    const broken: [string, (parts: Record<string, Record<string, unknown>>) => void][] = [
      ['no Process', (p) => delete p.process_wrap!.Process],
      ['no Pipe', (p) => delete p.pipe_wrap!.Pipe],
      ['no pipe constants', (p) => delete p.pipe_wrap!.constants],
      ['a SOCKET that is no number', (p) => (p.pipe_wrap!.constants = { SOCKET: '0' })],
      ['a read state that is no Int32Array', (p) => (p.stream_wrap!.streamBaseState = [0, 0])],
      ['no read index', (p) => delete p.stream_wrap!.kReadBytesOrError],
      ['a detached flag that is no number', (p) => (p.process_wrap!.constants = { kProcessFlagDetached: '1' })],
      ['no stream binding', (p) => delete p.stream_wrap],
      ["the other form's constants", (p) => (p.process_wrap!.constants = positional ? {} : { kProcessFlagDetached: 1 })],
    ];
    for (const [name, change] of broken) assert.equal(bindingStart(line, fakeBinding(positional, change), [line]), undefined, `${line}: ${name}`);
  }
  assert.equal(bindingStart('24.0.0', undefined, ['24.0.0']), undefined, 'no process.binding at all');
  assert.equal(
    bindingStart(
      '24.0.0',
      () => {
        throw new Error('denied');
      },
      ['24.0.0'],
    ),
    undefined,
    'a binding that throws (the permission model)',
  );
});

test('looking at the binding leaves process.noDeprecation as it was', () => {
  const before = process.noDeprecation;
  try {
    for (const value of [false, true]) {
      process.noDeprecation = value;
      bindingStart(process.versions.node, processBinding);
      assert.equal(process.noDeprecation, value);
    }
  } finally {
    process.noDeprecation = before === true;
  }
});

test('a pipe is read to its end, every byte in order, through one reused buffer', async (t) => {
  const start = bindingStart(process.versions.node, processBinding);
  if (start === undefined) return t.skip(`Node ${process.version} is not a version CI runs`);
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
  const start = bindingStart(process.versions.node, processBinding);
  if (start === undefined) return t.skip(`Node ${process.version} is not a version CI runs`);
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
  if (!known) return t.skip(`Node ${process.version} is not a version CI runs`);
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

// The bindings a start of the shipped file asked process.binding for, from a
// script preloaded into it that stands between the program and the binding.
async function bindingsAskedBy(t: import('node:test').TestContext, args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stderr: string; asked: string[] }> {
  const dir = tempDir(t);
  const log = join(dir, 'asked');
  const preload = join(dir, 'spy.cjs');
  writeFileSync(preload, `const fs = require('node:fs'); const real = process.binding; process.binding = function (name) { fs.appendFileSync(${JSON.stringify(log)}, name + '\\n'); return real.call(process, name); };\n`);
  const result = await cli(args, { env: { ...ENV, ...env, NODE_OPTIONS: `--require=${preload}` } });
  let asked: string[] = [];
  try {
    asked = readFileSync(log, 'utf8').split('\n').filter((name) => name !== '');
  } catch {
    // Never asked.
  }
  return { status: result.status, stderr: result.stderr, asked };
}

test('the binding is reached only when a command is started: never by --version, help, schema, validate or a frontmatter gate', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'cap.json'), '{"gates": []}');
  for (const args of [['--version'], ['--help'], ['help', 'gates'], ['schema', 'predicate'], ['validate', join(dir, 'cap.json')], ['check', 'predicate', '--cwd', dir, '--predicate', '{"kind":"artifact-frontmatter-equals","artifact":"X.md","field":"a","equals":0}']]) {
    const { asked, stderr } = await bindingsAskedBy(t, args);
    assert.deepEqual(asked, [], `${args.join(' ')}: ${stderr}`);
  }
  const started = await bindingsAskedBy(t, ['check', 'predicate', '--predicate', predicate({ command: 'true' })]);
  assert.equal(started.status, 0);
  assert.deepEqual(started.asked.length > 0, known, `Node ${process.version}${known ? ', a Node CI runs' : ''}: ${started.asked.join(', ')}`);
});

test('GSD_CHECK_SPAWN=child_process starts sh through node:child_process; another value fails the call before anything runs', async (t) => {
  const off = await bindingsAskedBy(t, ['check', 'predicate', '--predicate', predicate({ command: 'true' })], { GSD_CHECK_SPAWN: 'child_process' });
  assert.deepEqual([off.status, off.asked], [0, []]);
  const dir = tempDir(t);
  const typo = await cli(['check', 'predicate', '--predicate', predicate({ command: `touch ${join(dir, 'ran')}` })], { env: { ...ENV, GSD_CHECK_SPAWN: 'childprocess' } });
  assert.deepEqual([typo.status, typo.stdout, typo.stderr], [2, '', 'gsd-check: GSD_CHECK_SPAWN "childprocess" is not a way to start commands; give child_process, or leave it unset\n']);
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
  const start = bindingStart('24.0.0', binding, ['24.0.0'])!;
  const ended: string[] = [];
  start(
    { file: 'sh', args: [], cwd: '/', env: {} },
    {
      failed: (code) => assert.fail(code),
      started: (child) => {
        child.stdout.read(() => assert.fail('no bytes'), () => ended.push('stdout'));
        child.stderr.read(() => assert.fail('no bytes'), () => ended.push('stderr'));
        return () => {};
      },
    },
  );
  assert.deepEqual([ended, closed], [['stdout', 'stderr'], ['pipe', 'pipe']]);
});
