import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { listProcesses } from '../../src/run/proc-table.ts';

test('lists this process and a detached child with its group and session', (t) => {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const table = listProcesses(process.pid);
  if (table === undefined) return t.skip('no process listing on this machine');
  assert.ok(table.some((e) => e.pid === process.pid && !e.gone));
  assert.ok(table.some((e) => e.pid === child.pid && e.group === child.pid && e.session === child.pid));
});

test('a /proc whose "self" is not us is not believed', () => {
  assert.equal(listProcesses(2 ** 22 + 7), undefined);
});

test('with a /proc, the listing is read from it and needs no ps', (t) => {
  if (listProcesses(process.pid) === undefined) return t.skip('no process listing on this machine');
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    assert.notEqual(listProcesses(process.pid), undefined);
  } finally {
    process.env.PATH = path;
  }
});

test('from a pid on: that process and later ones, none before', (t) => {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const table = listProcesses(process.pid, child.pid);
  if (table === undefined) return t.skip('no process listing on this machine');
  assert.ok(table.some((e) => e.pid === child.pid));
  // Pids only wrap after 2^22 of them: not during this test.
  assert.deepEqual(table.filter((e) => e.pid < child.pid!), []);
});
