import type { Time } from '../../src/run/time.ts';

interface Timer {
  readonly due: number;
  readonly ms: number;
  readonly fire: () => void;
}

// A clock that moves only when told, and timers that fire only as it moves:
// the runner's timing rules, checked without waiting.
export class FakeTime implements Time {
  private at = 1000;
  private readonly timers = new Set<Timer>();

  readonly now = (): number => this.at;

  readonly after = (ms: number, fire: () => void): (() => void) => {
    const timer = { due: this.at + ms, ms, fire };
    this.timers.add(timer);
    return () => void this.timers.delete(timer);
  };

  // The delays of the timers still to fire, in the order they were set.
  pending(): number[] {
    return [...this.timers].map((timer) => timer.ms);
  }

  // Moves the clock on by `ms`, firing each timer that falls due on the way
  // at its own time, earliest first.
  advance(ms: number): void {
    const end = this.at + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.timers) if (timer.due <= end && (next === undefined || timer.due < next.due)) next = timer;
      if (next === undefined) break;
      this.timers.delete(next);
      this.at = Math.max(this.at, next.due);
      next.fire();
    }
    this.at = end;
  }

  // Moves the clock on without firing anything: a timer that is late.
  skip(ms: number): void {
    this.at += ms;
  }
}
