import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { ProcessGroup } from '../../src/run/group.ts';
import { forgedProcs, statLine } from '../helpers/fake-proc.ts';
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
