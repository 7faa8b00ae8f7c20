import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProcEntry } from '../../src/run/proc-table.ts';
import { sessionGroups } from '../../src/run/session.ts';

const entry = (pid: number, group: number, session: number, gone = false): ProcEntry => ({ pid, group, session, gone });

test('the other living groups of a session, each once', () => {
  const table = [
    entry(10, 10, 10), // sh: its own group, not listed
    entry(11, 10, 10),
    entry(12, 12, 10), // moved with setpgid
    entry(13, 12, 10),
    entry(14, 14, 10, true), // a zombie group: gone
    entry(20, 20, 20), // another session
    entry(21, 12, 20), // cannot happen; never listed for session 10 anyway
  ];
  assert.deepEqual(sessionGroups(table, 10), [12]);
  assert.deepEqual(sessionGroups(table, 99), []);
});
