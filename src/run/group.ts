import { readFileSync, readdirSync } from 'node:fs';

// A command's process group, addressed by its leader's pid (detached spawn
// makes sh a session and group leader).
export class ProcessGroup {
  constructor(readonly id: number) {}

  signal(name: NodeJS.Signals): void {
    try {
      process.kill(-this.id, name);
    } catch {
      // ESRCH: nobody left. EPERM: nothing left that we may signal.
    }
  }

  // Zombies count as gone: where PID 1 does not reap orphans, a killed
  // grandchild stays one, and waiting for it would only cost time.
  alive(): boolean {
    try {
      process.kill(-this.id, 0);
    } catch {
      return false;
    }
    return livingMembers(this.id) !== 0;
  }
}

// Counts the group's members that are not zombies, from /proc; where /proc
// cannot be read, assumes someone is alive (the caller then waits its grace).
function livingMembers(group: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 1;
  }
  let living = 0;
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === group && fields[0] !== 'Z' && fields[0] !== 'X') living++;
  }
  return living;
}
