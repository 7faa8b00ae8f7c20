import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { ProcessGroup } from '../../src/run/group.ts';
import { sleep } from '../support.ts';

test('a group is alive while a member lives, and a signal reaches every member', async () => {
  const child = spawn('sh', ['-c', 'sleep 30 & sleep 30 & wait'], { detached: true, stdio: 'ignore' });
  const group = new ProcessGroup(child.pid!);
  await sleep(50);
  assert.equal(group.alive(), true);
  group.signal('SIGKILL');
  await once(child, 'exit');
  for (let i = 0; i < 50 && group.alive(); i++) await sleep(10);
  assert.equal(group.alive(), false);
});

test('signalling an empty group is harmless', () => {
  const group = new ProcessGroup(2 ** 22 + 12345);
  assert.equal(group.alive(), false);
  group.signal('SIGTERM');
});
