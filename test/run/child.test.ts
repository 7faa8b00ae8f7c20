import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import type { Start, StartRequest } from '../../src/run/child.ts';
import { bindingStart, processBinding } from '../../src/run/child-binding.ts';
import { childProcessStart } from '../../src/run/child-process.ts';
import { tempDir } from '../helpers/support.ts';

// What a start came to: the errno code it failed with, or its exit and output.
type Outcome = { readonly failed: string } | { readonly exit: [number | null, string | null]; readonly stdout: string; readonly stderr: string };

function outcomeOf(start: Start, request: StartRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    start(request, {
      failed: (failed) => resolve({ failed }),
      started: (child) => {
        const out = [Buffer.alloc(0), Buffer.alloc(0)];
        let ended = 0;
        let exit: [number | null, string | null] | undefined;
        const finish = (): void => {
          if (ended < 2 || exit === undefined) return;
          resolve({ exit, stdout: out[0]!.toString(), stderr: out[1]!.toString() });
        };
        const onEnd = (): void => {
          ended++;
          finish();
        };
        child.stdout.read((bytes) => (out[0] = Buffer.concat([out[0]!, bytes])), onEnd);
        child.stderr.read((bytes) => (out[1] = Buffer.concat([out[1]!, bytes])), onEnd);
        return (code, signal) => {
          exit = [code, signal];
          finish();
        };
      },
    });
  });
}

const sh = (script: string, more: Partial<StartRequest> = {}): StartRequest => ({
  file: 'sh',
  args: ['-c', script],
  cwd: process.cwd(),
  env: { PATH: process.env.PATH },
  ...more,
});

// Each case, as node:child_process answers it, is what the binding must answer.
const CASES: [string, (dir: string) => StartRequest][] = [
  ['an exit status, stdout and stderr', () => sh('echo out; echo err >&2; exit 3')],
  ['a death by signal', () => sh('kill -TERM $$')],
  ['stdin is empty', () => sh('cat; echo read')],
  ['exactly the environment given, unset values left out', () => sh('echo "$A|$B|${HOME-none}"', { env: { PATH: process.env.PATH, A: 'a b', B: undefined } })],
  ['the whole environment, as sh sees it', () => sh('env | sort', { env: { PATH: process.env.PATH, A: 'x=y', E: '' } })],
  // The group and the session are sh's own (fields 5 and 6 of /proc/PID/stat).
  ['a session and group leader', () => sh('set -- $(cut -d")" -f2 /proc/$$/stat); [ "$3" = $$ ] && [ "$4" = $$ ] && echo leader')],
  ['in the directory given', (dir) => sh('pwd', { cwd: dir })],
  ['a program not on PATH', () => ({ file: 'gsd-check-no-such-program', args: [], cwd: process.cwd(), env: { PATH: process.env.PATH } })],
  ['a directory that is gone', (dir) => sh('true', { cwd: join(dir, 'gone') })],
  [
    'a file that is not executable',
    (dir) => {
      writeFileSync(join(dir, 'plain'), '');
      return { file: join(dir, 'plain'), args: [], cwd: dir, env: {} };
    },
  ],
  ['a NUL in an argument', () => sh('true\0')],
  ['a NUL in a value of the environment', () => sh('true', { env: { A: 'a\0b' } })],
  ['a NUL in a name of the environment', () => sh('true', { env: { 'A\0B': 'a' } })],
  ['a NUL in the directory', () => sh('true', { cwd: '/tmp\0' })],
];

const binding = bindingStart(processBinding);

for (const [name, request] of CASES) {
  test(`the binding starts as node:child_process does: ${name}`, async (t) => {
    if (binding === undefined) return t.skip(`Node ${process.version}'s binding has not the form of the standalone binary's Node`);
    const dir = tempDir(t);
    const expected = await outcomeOf(childProcessStart, request(dir));
    assert.deepEqual(await outcomeOf(binding, request(dir)), expected);
  });
}

test('the cases answer what they are named for', async (t) => {
  const dir = tempDir(t);
  const answers = await Promise.all(CASES.map(([, request]) => outcomeOf(childProcessStart, request(dir))));
  assert.deepEqual(answers, [
    { exit: [3, null], stdout: 'out\n', stderr: 'err\n' },
    { exit: [null, 'SIGTERM'], stdout: '', stderr: '' },
    { exit: [0, null], stdout: 'read\n', stderr: '' },
    { exit: [0, null], stdout: 'a b||none\n', stderr: '' },
    { exit: [0, null], stdout: (answers[4] as { stdout: string }).stdout, stderr: '' },
    { exit: [0, null], stdout: 'leader\n', stderr: '' },
    { exit: [0, null], stdout: `${dir}\n`, stderr: '' },
    { failed: 'ENOENT' },
    { failed: 'ENOENT' },
    { failed: 'EACCES' },
    { failed: 'ERR_INVALID_ARG_VALUE' },
    { failed: 'ERR_INVALID_ARG_VALUE' },
    { failed: 'ERR_INVALID_ARG_VALUE' },
    { failed: 'ERR_INVALID_ARG_VALUE' },
  ]);
  const whole = (answers[4] as { stdout: string }).stdout;
  assert.match(whole, /^A=x=y$/m);
  assert.match(whole, /^E=$/m);
  assert.doesNotMatch(whole, /^HOME=/m);
});

test('NODE_V8_COVERAGE reaches the child as node:child_process passes it: added when the environment lacks it, the given one kept', async (t) => {
  if (binding === undefined) return t.skip(`Node ${process.version}'s binding has not the form of the standalone binary's Node`);
  const before = process.env.NODE_V8_COVERAGE;
  process.env.NODE_V8_COVERAGE = '/gsd-check-coverage-test';
  t.after(() => {
    if (before === undefined) delete process.env.NODE_V8_COVERAGE;
    else process.env.NODE_V8_COVERAGE = before;
  });
  for (const env of [{ PATH: process.env.PATH }, { PATH: process.env.PATH, NODE_V8_COVERAGE: '/given' }]) {
    // A request each: node:child_process writes NODE_V8_COVERAGE into the environment object it is given.
    // The environment block as the kernel holds it: sh would show the last of
    // two copies, and a Node child would take the first.
    const request = (): StartRequest => sh("tr '\\0' '\\n' < /proc/$$/environ | grep '^NODE_V8_COVERAGE='", { env: { ...env } });
    const expected = await outcomeOf(childProcessStart, request());
    assert.deepEqual(await outcomeOf(binding, request()), expected);
    assert.equal((expected as { stdout: string }).stdout, `NODE_V8_COVERAGE=${env.NODE_V8_COVERAGE ?? '/gsd-check-coverage-test'}\n`);
  }
});
