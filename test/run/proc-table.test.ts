import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from '../helpers/bounded.ts';
import { believable, listProcesses, noneStartedSince, psListing, sessionGroups, SYSTEM_PROCS, type ProcEntry } from '../../src/run/proc-table.ts';
import { forgedProcs, statLine } from '../helpers/fake-proc.ts';
import { killSurvivors, marker, running, until } from '../helpers/support.ts';

test('lists this process and a detached child with its group and session', (t) => {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const table = listProcesses(process.pid, 0);
  if (table === undefined) return t.skip('no process listing on this machine');
  assert.ok(table.some((e) => e.pid === process.pid && !e.gone));
  assert.ok(table.some((e) => e.pid === child.pid && e.group === child.pid && e.session === child.pid));
});

test('a /proc whose "self" is not us is not believed', () => {
  assert.equal(listProcesses(2 ** 22 + 7, 0), undefined);
});

test('with a /proc, the listing is read from it and needs no ps', (t) => {
  if (listProcesses(process.pid, 0) === undefined) return t.skip('no process listing on this machine');
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    assert.notEqual(listProcesses(process.pid, 0), undefined);
  } finally {
    process.env.PATH = path;
  }
});

test('from a pid on: that process and later ones, none before', (t) => {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const table = listProcesses(process.pid, child.pid!);
  if (table === undefined) return t.skip('no process listing on this machine');
  assert.ok(table.some((e) => e.pid === child.pid));
  // Pids only wrap after 2^22 of them: not during this test.
  assert.deepEqual(
    table.filter((e) => e.pid < child.pid!),
    [],
  );
});

// The rules again, on a forged /proc: pids, names and stat lines a real
// system would not let a test choose.
const byPid = (table: readonly ProcEntry[] | undefined) => table && [...table].sort((a, b) => a.pid - b.pid);

test('each process: pid from its entry name, group, session and state from its stat, counted from the last ")"', (t) => {
  const source = forgedProcs(t, {
    self: 77,
    lastPid: 200,
    entries: {
      '77': statLine(77, 'gsd-check', 'S', 77, 77),
      '100': statLine(100, 'a) b (c', 'R', 100, 90),
      '101': statLine(101, 'sh', 'Z', 100, 90),
      '102': statLine(102, 'sh', 'X', 100, 90),
      '103': statLine(103, 'cat', 'D', 103, 90),
      '1': statLine(1, 'init', 'S', 1, 1),
      '9': statLine(9, 'kthread', 'I', 0, 0),
      // Ended while the table was read.
      '104': null,
      // Not processes: /proc holds such names beside the pids.
      net: statLine(900, 'net', 'S', 900, 900),
      ':1': statLine(901, 'colon', 'S', 901, 901),
      '.1': statLine(902, 'dot', 'S', 902, 902),
      '1a': statLine(903, 'mixed', 'S', 903, 903),
    },
  });
  assert.deepEqual(byPid(listProcesses(77, 0, source)), [
    { pid: 1, group: 1, session: 1, gone: false },
    { pid: 9, group: 0, session: 0, gone: false },
    { pid: 77, group: 77, session: 77, gone: false },
    { pid: 100, group: 100, session: 90, gone: false },
    { pid: 101, group: 100, session: 90, gone: true },
    { pid: 102, group: 100, session: 90, gone: true },
    { pid: 103, group: 103, session: 90, gone: false },
  ]);
});

test('from sh on: entries before sh are skipped only while the last pid handed out is at or above sh', (t) => {
  const entries = { '50': statLine(50, 'a', 'S', 50, 50), '100': statLine(100, 'sh', 'S', 100, 100), '120': statLine(120, 'b', 'S', 100, 100) };
  const pids = (lastPid: number | undefined): number[] | undefined =>
    byPid(listProcesses(50, 100, forgedProcs(t, { self: 50, entries, ...(lastPid === undefined ? {} : { lastPid }) })))?.map((e) => e.pid);
  assert.deepEqual(pids(150), [100, 120]);
  assert.deepEqual(pids(100), [100, 120]);
  // The counter wrapped (or cannot be read): a descendant may have any pid.
  assert.deepEqual(pids(99), [50, 100, 120]);
  assert.deepEqual(pids(undefined), [50, 100, 120]);
});

test('a forged /proc whose "self" is not us, or has none, is not believed, and ps is not asked', (t) => {
  const entries = { '77': statLine(77, 'a', 'S', 77, 77) };
  const ps = { out: '77 77 77 S\n', status: 0 };
  assert.equal(listProcesses(77, 0, forgedProcs(t, { self: 78, entries, ps })), undefined);
  assert.equal(listProcesses(77, 0, forgedProcs(t, { entries, ps })), undefined);
});

test('a /proc without processes, or none at all, leaves the listing to ps, from sh on', (t) => {
  const ps = { out: '50 50 50 S\n77 77 77 S\n100 100 100 S\n', status: 0 };
  const empty = forgedProcs(t, { self: 77, lastPid: 100, entries: { net: null }, ps });
  assert.deepEqual(
    listProcesses(77, 77, empty)?.map((e) => e.pid),
    [77, 100],
  );
  const missing = { ...empty, proc: `${empty.proc}/absent` };
  assert.deepEqual(
    listProcesses(77, 0, missing)?.map((e) => e.pid),
    [50, 77, 100],
  );
  assert.equal(listProcesses(77, 0, forgedProcs(t, { self: 77 })), undefined);
});

test('none started since a pid: only when that pid is the last handed out', (t) => {
  assert.equal(noneStartedSince(100, forgedProcs(t, { lastPid: 100 })), true);
  assert.equal(noneStartedSince(100, forgedProcs(t, { lastPid: 101 })), false);
  assert.equal(noneStartedSince(100, forgedProcs(t, {})), false);
});

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
