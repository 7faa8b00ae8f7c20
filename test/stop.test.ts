import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Stop, STOP_SIGNALS, stopOf, stoppedExitStatus } from '../src/failure.ts';

test('stopped by signal N: 128+N, N as the platform numbers it', () => {
  assert.equal(stoppedExitStatus(new Stop('SIGHUP')), 129);
  assert.equal(stoppedExitStatus(new Stop('SIGINT')), 130);
  assert.equal(stoppedExitStatus(new Stop('SIGQUIT')), 131);
  assert.equal(stoppedExitStatus(new Stop('SIGTERM')), 143);
  if (process.platform === 'linux') assert.equal(stoppedExitStatus(new Stop('SIGUSR1')), 138);
  // A name the platform does not know stands for SIGTERM.
  assert.equal(stoppedExitStatus(new Stop('SIGNOPE' as NodeJS.Signals)), 143);
});

test('every signal the README says stops gsd-check, and no other', () => {
  assert.deepEqual([...STOP_SIGNALS].sort(), ['SIGALRM', 'SIGHUP', 'SIGINT', 'SIGPROF', 'SIGQUIT', 'SIGTERM', 'SIGUSR1', 'SIGUSR2', 'SIGVTALRM', 'SIGXCPU']);
});

test('a stop carries its signal as the abort reason; an abort with anything else is SIGTERM', () => {
  const stop = new AbortController();
  stop.abort(new Stop('SIGQUIT'));
  assert.equal(stopOf(stop.signal)?.signal, 'SIGQUIT');
  const other = new AbortController();
  other.abort(new Error('not a signal'));
  assert.equal(stopOf(other.signal)?.signal, 'SIGTERM');
  const named = new AbortController();
  named.abort('SIGQUIT');
  assert.equal(stopOf(named.signal)?.signal, 'SIGTERM');
  // Not aborted: no stop.
  assert.equal(stopOf(new AbortController().signal), undefined);
  assert.equal(stopOf(undefined), undefined);
});
