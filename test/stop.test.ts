import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXIT_BLOCK, EXIT_FAILURE, EXIT_INTERNAL, EXIT_INVALID, EXIT_WRITE_FAILED, STOP_SIGNALS, stopSignal, stoppedExitStatus } from '../src/exit-status.ts';

test('the exit statuses docs/reference/cli.md lists', () => {
  assert.deepEqual([EXIT_BLOCK, EXIT_INVALID, EXIT_FAILURE, EXIT_INTERNAL, EXIT_WRITE_FAILED], [1, 1, 2, 70, 74]);
});

test('stopped by signal N: 128+N, N as the platform numbers it', () => {
  assert.equal(stoppedExitStatus('SIGHUP'), 129);
  assert.equal(stoppedExitStatus('SIGINT'), 130);
  assert.equal(stoppedExitStatus('SIGQUIT'), 131);
  assert.equal(stoppedExitStatus('SIGTERM'), 143);
  if (process.platform === 'linux') assert.equal(stoppedExitStatus('SIGUSR1'), 138);
  // A name the platform does not know stands for SIGTERM.
  assert.equal(stoppedExitStatus('SIGNOPE' as NodeJS.Signals), 143);
});

test('every signal the README says stops gsd-check, and no other', () => {
  assert.deepEqual([...STOP_SIGNALS].sort(), ['SIGALRM', 'SIGHUP', 'SIGINT', 'SIGPROF', 'SIGQUIT', 'SIGTERM', 'SIGUSR1', 'SIGUSR2', 'SIGVTALRM', 'SIGXCPU']);
});

test('a stop carries its signal as the abort reason; anything else is SIGTERM', () => {
  const stop = new AbortController();
  stop.abort('SIGQUIT');
  assert.equal(stopSignal(stop.signal), 'SIGQUIT');
  const other = new AbortController();
  other.abort(new Error('not a signal'));
  assert.equal(stopSignal(other.signal), 'SIGTERM');
  const named = new AbortController();
  named.abort('QUIT');
  assert.equal(stopSignal(named.signal), 'SIGTERM');
  assert.equal(stopSignal(new AbortController().signal), 'SIGTERM');
  assert.equal(stopSignal(undefined), 'SIGTERM');
});
