import { closeSync, openSync, readFileSync, readSync, readdirSync, readlinkSync } from 'node:fs';
import { psListing } from './ps-listing.ts';

export interface ProcEntry {
  readonly pid: number;
  readonly group: number;
  readonly session: number;
  // Z (zombie) and X (dead) count as gone: where PID 1 does not reap
  // orphans, a killed grandchild stays a zombie for ever.
  readonly gone: boolean;
}

// Where the table is read: a proc file system, else the `ps` program. Passed
// in so that tests can hand over a forged one.
export interface ProcSource {
  readonly proc: string;
  readonly ps: string;
}

export const SYSTEM_PROCS: ProcSource = { proc: '/proc', ps: 'ps' };

// Every process the system shows us (`self` is our own pid), from /proc,
// else from `ps` (macOS and the BSDs have no /proc, or an empty one);
// undefined when neither can be believed. A /proc that lists processes but
// whose "self" is not us belongs to another PID namespace: its numbers name
// other processes than ours, and signalling them would hit strangers. `ps`
// is no way out there, as on Linux it reads that same /proc.
//
// With `from` (sh's pid), only processes from sh on are wanted: sh's
// descendants. Pids are handed out in increasing order until the counter
// wraps, so while the last pid handed out is still at or above `from`, no
// descendant can have a smaller one, and the others need not be read: on a
// busy machine most of the cost of every command's last look.
export function listProcesses(self: number, from: number, source: ProcSource = SYSTEM_PROCS): ProcEntry[] | undefined {
  const { proc } = source;
  const names = procNames(proc);
  if (names === undefined) return psListing(self, source.ps)?.filter((entry) => entry.pid >= from);
  if (!isSelf(proc, self)) return undefined;
  const last = lastPid(proc);
  return fromProc(proc, last !== undefined && last >= from ? names.filter((name) => Number(name) >= from) : names);
}

// True when no process was started since `pid` (sh's): sh then has no
// descendants, and there is nothing left of the command to look for. The
// usual case of a command that execs its last program, and the cheapest.
export function noneStartedSince(pid: number, { proc }: ProcSource = SYSTEM_PROCS): boolean {
  return lastPid(proc) === pid;
}

// The last pid handed out in our namespace (Linux 3.3 on); unknown, every
// process is a candidate.
function lastPid(proc: string): number | undefined {
  try {
    return Number(readFileSync(`${proc}/sys/kernel/ns_last_pid`, 'latin1'));
  } catch {
    return undefined;
  }
}

const PID = /^[0-9]+$/;

function procNames(proc: string): string[] | undefined {
  try {
    const names = readdirSync(proc).filter((name) => PID.test(name));
    return names.length === 0 ? undefined : names;
  } catch {
    return undefined;
  }
}

function isSelf(proc: string, self: number): boolean {
  try {
    return readlinkSync(`${proc}/self`) === String(self);
  } catch {
    return false;
  }
}

const STAT = Buffer.alloc(1024);

function fromProc(proc: string, names: readonly string[]): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of names) {
    let length: number;
    try {
      const fd = openSync(`${proc}/${name}/stat`, 'r');
      try {
        length = readSync(fd, STAT);
      } finally {
        closeSync(fd);
      }
    } catch {
      continue; // ended meanwhile
    }
    // "pid (comm) state ppid pgrp session ...": comm may hold spaces and
    // parentheses, so fields are counted from the last ")".
    const stat = STAT.toString('latin1', 0, length);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 4);
    entries.push({ pid: Number(name), group: Number(fields[2]), session: Number(fields[3]), gone: fields[0] === 'Z' || fields[0] === 'X' });
  }
  return entries;
}
