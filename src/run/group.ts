import { believable, listProcesses, noneStartedSince, sessionGroups, SYSTEM_PROCS, type ProcEntry, type ProcSource } from './proc-table.ts';
import type { Time } from './time.ts';

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

// What ending needs of a process group.
export interface Signalled {
  signal(name: NodeJS.Signals): void;
  alive(): boolean;
}

const POLL_MS = 10;

// The one way a command's process group is ended, whether the command timed
// out, gsd-check was told to stop, or sh exited and left processes behind:
// SIGTERM to the group, then SIGKILL at the deadline, SIGTERM + grace, to
// whatever is left. The first ending fixes the deadline: a stop during a
// timeout's grace neither sends a second SIGTERM nor extends it.
export class GroupEnding {
  private deadline: number | undefined;
  private cancel: (() => void) | undefined;

  constructor(
    private readonly group: Signalled,
    private readonly time: Time,
  ) {}

  // While sh runs: SIGTERM now, and SIGKILL when the grace is over, unless
  // sh exits first (`finish` then keeps the deadline for what is left).
  begin(graceMs: number): void {
    if (this.deadline !== undefined) return;
    this.deadline = this.time.now() + graceMs;
    this.group.signal('SIGTERM');
    this.cancel = this.time.after(graceMs, () => this.group.signal('SIGKILL'));
  }

  // A second stop: no more grace.
  kill(): void {
    this.group.signal('SIGKILL');
  }

  // Once sh has exited: `done` when nothing of the group is left, which is
  // ended first, with `graceMs` unless an ending has begun already. A group
  // with nothing left is not signalled at all.
  finish(graceMs: number, done: () => void): void {
    this.cancel?.();
    if (this.deadline === undefined) {
      if (!this.group.alive()) return done();
      this.deadline = this.time.now() + graceMs;
      this.group.signal('SIGTERM');
    }
    const deadline = this.deadline;
    const poll = (): void => {
      if (!this.group.alive()) return done();
      if (this.time.now() >= deadline) {
        this.group.signal('SIGKILL');
        return done();
      }
      this.time.after(Math.min(POLL_MS, deadline - this.time.now()), poll);
    };
    poll();
  }
}
