import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupEnding, type Signalled } from '../../src/run/group.ts';
import { FakeTime } from '../helpers/fake-time.ts';

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
