import { believable, listProcesses, noneStartedSince, sessionGroups, SYSTEM_PROCS, type ProcEntry, type ProcSource } from './proc-table.ts';

// A command's processes: sh's process group, and every other group of sh's
// session. Detached spawn makes sh a session and group leader, so both ids
// are its pid; a child that moves to a group of its own (`set -m`, setpgid)
// stays in the session and is still ours. One that calls setsid leaves both
// and is out of reach (documented).
export class ProcessGroup {
  constructor(
    readonly id: number,
    private readonly source: ProcSource = SYSTEM_PROCS,
  ) {}

  signal(name: NodeJS.Signals): void {
    kill(-this.id, name);
    const table = believable(listProcesses(process.pid, this.id, this.source), this.id, exists(this.id));
    if (table !== undefined) for (const group of sessionGroups(table, this.id)) kill(-group, name);
  }

  // Zombies count as gone: where PID 1 does not reap orphans, a killed
  // grandchild stays one, and waiting for it would only cost time. Without
  // a listing to believe, the kernel's word on the group is all there is.
  alive(): boolean {
    const groupExists = exists(this.id);
    if (!groupExists && noneStartedSince(this.id, this.source)) return false;
    const table = believable(listProcesses(process.pid, this.id, this.source), this.id, groupExists);
    if (table === undefined) return groupExists;
    return table.some((entry: ProcEntry) => !entry.gone && (entry.group === this.id || entry.session === this.id));
  }
}

function exists(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function kill(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // ESRCH: nobody left. EPERM: nothing left that we may signal.
  }
}
