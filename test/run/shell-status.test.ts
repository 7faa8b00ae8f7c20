import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { commandEnding, wrapperArgs } from '../../src/run/shell-status.ts';

test("the command's ending from Node's pair for the runner's sh and the status it reported", () => {
  // A signal Node names ended the runner's sh itself (a timeout, a stop): that is the ending.
  assert.deepEqual(commandEnding(null, 'SIGKILL', undefined), { exitCode: null, signal: 'SIGKILL' });
  assert.deepEqual(commandEnding(null, 'SIGTERM', '0'), { exitCode: null, signal: 'SIGTERM' });
  // A pass needs both: the report "0" and exit 255, which the outer sh gives
  // after a pass only (never 0: Node reports some deaths as exit 0).
  assert.deepEqual(commandEnding(255, null, '0'), { exitCode: 0, signal: null });
  assert.deepEqual(commandEnding(255, null, '255'), { exitCode: 255, signal: null });
  assert.deepEqual(commandEnding(7, null, '7'), { exitCode: 7, signal: null });
  assert.deepEqual(commandEnding(128, null, '128'), { exitCode: 128, signal: null });
  assert.deepEqual(commandEnding(193, null, '193'), { exitCode: 193, signal: null });
  // No report, a report that is not the status, or exit 0 (a death by a
  // signal Node cannot name, after a report forged on descriptor 3): a death Node lost.
  for (const [code, reported] of [
    [0, '0'],
    [0, undefined],
    [0, ''],
    [0, '7'],
    [7, '0'],
    [255, '07'],
    [7, '07'],
    [3, 'x'],
    [null, '0'],
  ] as const) {
    assert.deepEqual(commandEnding(code, null, reported), { exitCode: null, signal: null }, `${code} ${reported}`);
  }
});

test('128+N is a death by signal N, named as Node names it or, for a real-time one, as kill -l does', () => {
  const named = (n: number): string | null => commandEnding(128 + n, null, String(128 + n)).signal;
  assert.deepEqual([1, 2, 9, 15].map(named), ['SIGHUP', 'SIGINT', 'SIGKILL', 'SIGTERM']);
  assert.deepEqual([32, 33, 34, 35, 49, 50, 63, 64].map(named), [
    'SIG32',
    'SIG33',
    'SIGRTMIN',
    'SIGRTMIN+1',
    'SIGRTMIN+15',
    'SIGRTMAX-14',
    'SIGRTMAX-1',
    'SIGRTMAX',
  ]);
  for (let n = 1; n <= 64; n++) assert.equal(commandEnding(128 + n, null, String(128 + n)).exitCode, null, String(n));
});

test("the runner's sh: the wrapper script, the shell as $0 and the command as $1, never in the script", () => {
  const [flag, script, shell, command] = wrapperArgs('/bin/sh', 'echo "$1" \'q\'');
  assert.deepEqual([flag, shell, command], ['-c', '/bin/sh', 'echo "$1" \'q\'']);
  assert.doesNotMatch(script!, /echo/);
});
