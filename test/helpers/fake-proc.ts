import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { ProcSource } from '../../src/run/proc-table.ts';
import { tempDir } from './support.ts';

export interface ForgedProcs {
  // What /proc/self points at; absent, no such link.
  readonly self?: number;
  // /proc/sys/kernel/ns_last_pid; absent, no such file.
  readonly lastPid?: number;
  // Each entry's name and the text of its `stat` (null: a directory without
  // one, as a process that ended while the table was read).
  readonly entries?: Readonly<Record<string, string | null>>;
  // The text `ps` prints and its exit status; absent, no such program.
  readonly ps?: { readonly out: string; readonly status: number };
}

// A proc file system and a `ps` forged in a temp dir: the table's rules are
// pinned with pids and stat lines a real system would not let a test choose.
export function forgedProcs(t: TestContext, forged: ForgedProcs): ProcSource {
  const dir = tempDir(t);
  const proc = join(dir, 'proc');
  mkdirSync(proc);
  if (forged.self !== undefined) symlinkSync(String(forged.self), join(proc, 'self'));
  if (forged.lastPid !== undefined) {
    mkdirSync(join(proc, 'sys', 'kernel'), { recursive: true });
    writeFileSync(join(proc, 'sys', 'kernel', 'ns_last_pid'), `${forged.lastPid}\n`);
  }
  for (const [name, stat] of Object.entries(forged.entries ?? {})) {
    mkdirSync(join(proc, name));
    if (stat !== null) writeFileSync(join(proc, name, 'stat'), stat);
  }
  const ps = join(dir, 'ps');
  if (forged.ps !== undefined) {
    writeFileSync(join(dir, 'ps.out'), forged.ps.out);
    writeFileSync(ps, `#!/bin/sh\ncat '${join(dir, 'ps.out')}'\nexit ${forged.ps.status}\n`);
    chmodSync(ps, 0o755);
  }
  return { proc, ps };
}

// A stat line as Linux writes it: "pid (comm) state ppid pgrp session ...".
export const statLine = (pid: number, comm: string, state: string, group: number, session: number): string =>
  `${pid} (${comm}) ${state} 1 ${group} ${session} 0 -1 4194560 105 0 0 0 0 0 0 0 20 0 1 0 1234 2355200 130 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n`;
