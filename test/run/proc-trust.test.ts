import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProcEntry } from '../../src/run/proc-table.ts';
import { believable } from '../../src/run/proc-trust.ts';

const entry = (pid: number, group: number, session = group, gone = false): ProcEntry => ({ pid, group, session, gone });

test('a listing that shows none of a group the kernel says exists is set aside', () => {
  const table = [entry(1, 1), entry(50, 50)];
  assert.equal(believable(table, 77, true), undefined);
  assert.equal(believable(table, 50, true), table);
  assert.equal(believable(table, 77, false), table);
  assert.equal(believable(undefined, 50, true), undefined);
  // A group of zombies is shown: the listing stands, and says they are gone.
  const zombies = [entry(1, 1), entry(60, 60, 60, true)];
  assert.equal(believable(zombies, 60, true), zombies);
});
