import assert from 'node:assert/strict';
import { test } from './helpers/bounded.ts';
import {
  fail,
  locatedAt,
  ok,
  stopped,
  formatFailure,
  formatFailureJson,
  Stop,
  STOP_SIGNALS,
  stopCarriedBy,
  stopOf,
  stoppedExitStatus,
  EXIT_NO,
  EXIT_FAILURE,
  EXIT_INTERNAL,
  EXIT_WRITE_FAILED,
} from '../src/failure.ts';

test('a failure without issues is one line', () => {
  const { failure } = fail('usage', '--predicate or --predicate-file is required');
  assert.equal(formatFailure(failure), 'gsd-check: --predicate or --predicate-file is required\n');
  assert.equal(formatFailureJson(failure), '{"ok":false,"reason":"usage","message":"--predicate or --predicate-file is required"}\n');
});

test('a failure without issues cannot forge a line or drive the terminal', () => {
  const { failure } = fail('bad-cwd', '--cwd /x\u001b[2K\ngsd-check: forged: no such directory');
  assert.equal(formatFailure(failure), 'gsd-check: --cwd /x\\x1b[2K\\ngsd-check: forged: no such directory\n');
});

test('every issue after the first is escaped too: its path and its message', () => {
  const { failure } = fail('invalid-capability', 'invalid capability', [
    { path: 'gates[0]', message: 'ok' },
    { path: 'gates["a\u202eb"]', message: 'bad\ngsd-check: forged' },
  ]);
  assert.equal(formatFailure(failure), 'gsd-check: invalid capability: gates[0]: ok\n  gates["a\\u202eb"]: bad\\ngsd-check: forged\n');
});

test('the first issue is on the first line, the rest follow', () => {
  const { failure } = fail('invalid-predicate', 'invalid predicate', [
    { path: 'predicate.timeOut', message: 'unknown field; did you mean "timeout"?' },
    { path: 'predicate.command', message: 'must not be empty' },
  ]);
  assert.equal(
    formatFailure(failure),
    'gsd-check: invalid predicate: predicate.timeOut: unknown field; did you mean "timeout"?\n' + '  predicate.command: must not be empty\n',
  );
  const json = formatFailureJson(failure);
  assert.equal(json.split('\n').length, 2);
  assert.deepEqual(JSON.parse(json), {
    ok: false,
    reason: 'invalid-predicate',
    message: 'invalid predicate: predicate.timeOut: unknown field; did you mean "timeout"? (+1 more)',
    issues: failure.issues,
  });
});

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
  // For code that saw the abort: the same stop, its own signal kept.
  assert.equal(stopCarriedBy(stop.signal).signal, 'SIGQUIT');
  assert.equal(stopCarriedBy(other.signal).signal, 'SIGTERM');
});

test('the exit statuses docs/reference/cli.md lists', () => {
  assert.deepEqual([EXIT_NO, EXIT_FAILURE, EXIT_INTERNAL, EXIT_WRITE_FAILED], [1, 2, 70, 74]);
});

test('locatedAt places a failure at a line of a file; a value and a stop pass through unchanged', () => {
  const at = { file: 'SECURITY.md', line: 3 };
  assert.deepEqual(locatedAt(fail('unreadable-file', 'cannot read it'), at), {
    ok: false,
    failure: { reason: 'unreadable-file', message: 'cannot read it', issues: [], at },
  });
  assert.deepEqual(locatedAt(ok(7), at), ok(7));
  const stop = stopped(new Stop('SIGINT'));
  assert.equal(locatedAt(stop, at), stop);
});
