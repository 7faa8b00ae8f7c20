import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from '../helpers/bounded.ts';
import { ProcessGroup, GroupEnding, type Signalled } from '../../src/run/group.ts';
import { forgedProcs, statLine } from '../helpers/fake-proc.ts';
import { FakeTime } from '../helpers/fake-time.ts';
import { killSurvivors, marker, survivors, until } from '../helpers/support.ts';

test('a group is alive while a member lives, and a signal reaches every member', async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  const child = spawn('sh', ['-c', `sleep 30.${mark} & sleep 30.${mark} & wait`], { detached: true, stdio: 'ignore' });
  const group = new ProcessGroup(child.pid!);
  await until(() => survivors(mark).length === 3, 'sh and both sleeps run');
  assert.equal(group.alive(), true);
  group.signal('SIGKILL');
  await once(child, 'exit');
  await until(() => survivors(mark).length === 0, 'every member is gone');
  // Without /proc, zombies cannot be told from the living: where PID 1 does
  // not reap orphans, the group then looks alive until its grace runs out.
  if (process.env.GSD_CHECK_TEST_PROC !== undefined) return;
  await until(() => !group.alive(), 'the group is seen dead');
});

test('signalling an empty group is harmless', () => {
  const group = new ProcessGroup(2 ** 22 + 12345);
  assert.equal(group.alive(), false);
  group.signal('SIGTERM');
});

test('a member that moved to a group of its own in the session keeps the group alive, and is signalled', async (t) => {
  // With /proc hidden on Linux, ps cannot list processes either: the session
  // cannot be searched (the documented limit of that set-up).
  if (process.env.GSD_CHECK_TEST_PROC !== undefined) return t.skip('no process listing with /proc hidden');
  const mark = marker();
  t.after(() => killSurvivors(mark));
  // sh leads a session and a group; perl leaves the group, not the session.
  const child = spawn('sh', ['-c', `perl -e 'setpgrp(0, 0); exec "sleep", "30.${mark}"' & wait`], { detached: true, stdio: 'ignore' });
  const group = new ProcessGroup(child.pid!);
  await until(() => survivors(`sleep 30.${mark}`).length === 1, 'the sleep runs in a group of its own');
  assert.equal(survivors(`sleep 30.${mark}`).length, 1, 'the mover runs');
  child.kill('SIGKILL');
  await once(child, 'exit');
  // sh is gone and its group with it; the mover is still in the session.
  assert.equal(group.alive(), true);
  group.signal('SIGKILL');
  await until(() => survivors(`sleep 30.${mark}`).length === 0, 'the sleep is gone');
  assert.deepEqual(survivors(`sleep 30.${mark}`), []);
});

test('a group the kernel no longer knows is dead at once when no process was started since its leader; else its session decides', (t) => {
  // A group id no system hands out (pids stop at 2^22), and a forged member
  // of its session in a group of its own.
  const id = 2 ** 22 + 12345;
  const member = { [String(id + 1)]: statLine(id + 1, 'sleep', 'S', id + 1, id) };
  const none = forgedProcs(t, { self: process.pid, lastPid: id, entries: member });
  assert.equal(new ProcessGroup(id, none).alive(), false);
  const later = forgedProcs(t, { self: process.pid, lastPid: id + 1, entries: member });
  assert.equal(new ProcessGroup(id, later).alive(), true);
});

// A group that records the signals it gets; alive until told otherwise.
function fakeGroup(alive = true): Signalled & { signals: string[]; alive(): boolean; die(): void } {
  let living = alive;
  const signals: string[] = [];
  return {
    signals,
    signal: (name) => void signals.push(name),
    alive: () => living,
    die: () => void (living = false),
  };
}

test('begin: SIGTERM at once, SIGKILL when the grace is over, not a millisecond before', () => {
  const time = new FakeTime();
  const group = fakeGroup();
  const ending = new GroupEnding(group, time);
  ending.begin(3000);
  assert.deepEqual(group.signals, ['SIGTERM']);
  time.advance(2999);
  assert.deepEqual(group.signals, ['SIGTERM']);
  time.advance(1);
  assert.deepEqual(group.signals, ['SIGTERM', 'SIGKILL']);
});

test('a second begin neither signals again nor moves the deadline', () => {
  const time = new FakeTime();
  const group = fakeGroup();
  const ending = new GroupEnding(group, time);
  ending.begin(100);
  time.advance(50);
  ending.begin(1000);
  assert.deepEqual(group.signals, ['SIGTERM']);
  time.advance(50);
  assert.deepEqual(group.signals, ['SIGTERM', 'SIGKILL']);
});

test('kill: SIGKILL at once', () => {
  const time = new FakeTime();
  const group = fakeGroup();
  const ending = new GroupEnding(group, time);
  ending.begin(60_000);
  ending.kill();
  assert.deepEqual(group.signals, ['SIGTERM', 'SIGKILL']);
});

test('finish with nothing left: done at once, nobody signalled', () => {
  const time = new FakeTime();
  const group = fakeGroup(false);
  let done = 0;
  new GroupEnding(group, time).finish(200, () => done++);
  assert.equal(done, 1);
  assert.deepEqual(group.signals, []);
  assert.deepEqual(time.pending(), []);
});

test('finish with something left: SIGTERM, a look every 10 ms, done when it is gone', () => {
  const time = new FakeTime();
  const group = fakeGroup();
  let done = 0;
  new GroupEnding(group, time).finish(200, () => done++);
  assert.deepEqual(group.signals, ['SIGTERM']);
  assert.deepEqual(time.pending(), [10]);
  time.advance(10);
  assert.equal(done, 0);
  group.die();
  time.advance(9);
  assert.equal(done, 0, 'looked before 10 ms');
  time.advance(1);
  assert.equal(done, 1);
  assert.deepEqual(group.signals, ['SIGTERM']);
  assert.deepEqual(time.pending(), []);
});

test('finish with something that ignores SIGTERM: SIGKILL at the grace, the last look shortened to it', () => {
  const time = new FakeTime();
  const group = fakeGroup();
  let done = 0;
  new GroupEnding(group, time).finish(25, () => done++);
  time.advance(20);
  assert.deepEqual(time.pending(), [5]);
  time.advance(4);
  assert.equal(done, 0);
  assert.deepEqual(group.signals, ['SIGTERM']);
  time.advance(1);
  assert.equal(done, 1);
  assert.deepEqual(group.signals, ['SIGTERM', 'SIGKILL']);
  assert.deepEqual(time.pending(), []);
});

test('finish after begin keeps the deadline of the begin, its timer replaced by the looks', () => {
  const time = new FakeTime();
  const group = fakeGroup();
  const ending = new GroupEnding(group, time);
  ending.begin(1000);
  time.advance(400);
  let done = 0;
  ending.finish(200, () => done++);
  assert.deepEqual(group.signals, ['SIGTERM']);
  assert.deepEqual(time.pending(), [10]);
  time.advance(599);
  assert.equal(done, 0);
  assert.deepEqual(group.signals, ['SIGTERM']);
  time.advance(1);
  assert.equal(done, 1);
  assert.deepEqual(group.signals, ['SIGTERM', 'SIGKILL']);
});

test('finish after begin, the group gone already: done, no SIGKILL later', () => {
  const time = new FakeTime();
  const group = fakeGroup();
  const ending = new GroupEnding(group, time);
  ending.begin(1000);
  group.die();
  let done = 0;
  ending.finish(200, () => done++);
  assert.equal(done, 1);
  time.advance(5000);
  assert.deepEqual(group.signals, ['SIGTERM']);
});
