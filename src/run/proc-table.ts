import { closeSync, openSync, readFileSync, readSync, readdirSync, readlinkSync } from 'node:fs';

// The process table: every process with its group and session, read from
// /proc or `ps`, and what the runner may conclude from it.

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

// Every process `ps` shows, with its group and session; undefined when ps
// fails or does not show us (`self`), so that it cannot be believed.
export function psListing(self: number, program: string): ProcEntry[] | undefined {
  // Loaded here only, where there is no /proc: the standalone binary starts
  // sh without node:child_process, which costs a start more than the rest of
  // gsd-check (see child-binding.ts).
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const ps = spawnSync(program, ['-A', '-o', 'pid=', '-o', 'pgid=', '-o', 'sess=', '-o', 'stat='], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'ignore'] });
  if (ps.status !== 0 || typeof ps.stdout !== 'string') return undefined;
  const entries: ProcEntry[] = [];
  for (const line of ps.stdout.split('\n')) {
    const [pid, group, session, state] = line.trim().split(/\s+/);
    if (state === undefined) continue;
    entries.push({ pid: Number(pid), group: Number(group), session: Number(session), gone: state.startsWith('Z') || state.startsWith('X') });
  }
  return entries.some((entry) => entry.pid === self) ? entries : undefined;
}

// Whether a process listing can be believed about `group`, which
// kill(-group, 0) says exists or not. A listing that shows none of a group
// the kernel says exists is stale, filtered or not ours: believed, it would
// call a live group dead, and TERM-ignoring members would outlive a timeout
// while stderr said they were ended. Such a listing is set aside and the
// kernel's word is taken.
export function believable(table: readonly ProcEntry[] | undefined, group: number, exists: boolean): readonly ProcEntry[] | undefined {
  if (table === undefined) return undefined;
  if (exists && !table.some((entry) => entry.group === group)) return undefined;
  return table;
}

// The process groups of session `session` other than the group of the same
// id, with a member still running: where children that changed their group
// (`set -m`, setpgid, setpgrp) live. A group never spans two sessions, so
// signalling these reaches nobody outside the session.
export function sessionGroups(table: readonly ProcEntry[], session: number): number[] {
  const groups = new Set<number>();
  for (const entry of table) {
    if (entry.session === session && entry.group !== session && !entry.gone) groups.add(entry.group);
  }
  return [...groups];
}
