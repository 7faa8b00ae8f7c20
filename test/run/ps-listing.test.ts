import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { SYSTEM_PROCS } from '../../src/run/proc-table.ts';
import { psListing } from '../../src/run/ps-listing.ts';
import { forgedProcs } from '../fake-proc.ts';
import { killSurvivors, marker, running, until } from '../support.ts';

// The listing that finds a command's other process groups where there is no
// /proc (macOS, the BSDs): ps's own numbers for group and session.
test('ps shows a detached command with its group and session, a mover in its own group, a zombie as gone', async (t) => {
  const mark = marker();
  t.after(() => killSurvivors(mark));
  // sh leads a session and a group; perl moves to a group of its own in the
  // session; `(exit 0)` becomes a zombie, as the sleep that sh execs never
  // waits for it.
  const child = spawn('sh', ['-c', `perl -e 'setpgrp(0, 0); exec "sleep", "30.${mark}"' & (exit 0) & exec sleep 31.${mark}`], {
    detached: true,
    stdio: 'ignore',
  });
  t.after(() => child.kill('SIGKILL'));
  const sh = child.pid!;
  await until(() => running(`sleep 30.${mark}`).length === 1 && running(`sleep 31.${mark}`).length === 1, 'the sleeps run');
  const table = psListing(process.pid, SYSTEM_PROCS.ps);
  if (table === undefined) return t.skip('ps cannot list processes here');
  const ours = table.filter((entry) => entry.session === sh);
  const mover = Number(running(`sleep 30.${mark}`)[0]!.trim().split(/\s+/)[0]);
  assert.deepEqual(
    ours.find((entry) => entry.pid === sh),
    { pid: sh, group: sh, session: sh, gone: false },
  );
  assert.deepEqual(
    ours.find((entry) => entry.pid === mover),
    { pid: mover, group: mover, session: sh, gone: false },
  );
  await until(() => (psListing(process.pid, SYSTEM_PROCS.ps) ?? []).some((entry) => entry.session === sh && entry.gone), 'the zombie is listed as gone');
  assert.ok(table.some((entry) => entry.pid === process.pid && !entry.gone));
});

test('a listing that does not show us is not believed', () => {
  assert.equal(psListing(2 ** 22 + 7, SYSTEM_PROCS.ps), undefined);
});

// The parse, on a forged ps: its columns, blank and short lines, the states.
test('each line of ps: pid, group, session, and Z or X as gone', (t) => {
  const out = '   77    77    77 Ss\n  100   100    77 S+\n  101   100    77 Z+\n  102   100    77 X\n\n  103   103\n';
  assert.deepEqual(psListing(77, forgedProcs(t, { ps: { out, status: 0 } }).ps), [
    { pid: 77, group: 77, session: 77, gone: false },
    { pid: 100, group: 100, session: 77, gone: false },
    { pid: 101, group: 100, session: 77, gone: true },
    { pid: 102, group: 100, session: 77, gone: true },
  ]);
});

test('a ps that fails, prints nothing or is missing is not believed', (t) => {
  assert.equal(psListing(77, forgedProcs(t, { ps: { out: '77 77 77 S\n', status: 1 } }).ps), undefined);
  assert.equal(psListing(77, forgedProcs(t, { ps: { out: '', status: 0 } }).ps), undefined);
  assert.equal(psListing(77, forgedProcs(t, {}).ps), undefined);
});
