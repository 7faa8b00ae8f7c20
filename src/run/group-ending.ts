import type { Time } from './time.ts';

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
