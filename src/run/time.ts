// The runner's clock and timer, passed in so that its timing rules can be
// tested with fake ones, without waiting.
export interface Time {
  readonly now: () => number;
  // Calls `fire` once `ms` have passed; the function returned cancels it.
  readonly after: (ms: number, fire: () => void) => () => void;
}

// Milliseconds on a monotonic clock. `performance.now()` would do, but its
// first use loads perf_hooks and the modules it needs, at every cold start.
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

// setTimeout clamps delays under 1 ms up to 1 ms and turns delays over 2^31-1 ms
// into 1 ms. This timer re-arms until the monotonic clock says the time is
// really up, so neither a tiny nor a huge delay fires early or never. It never
// fires before it returns, even for 0.
const LONGEST = 2 ** 31 - 1;

export function after(ms: number, fire: () => void, clock: () => number = now): () => void {
  const end = clock() + ms;
  let handle: NodeJS.Timeout | undefined;
  const step = (): void => {
    const left = end - clock();
    if (left <= 0) {
      handle = undefined;
      fire();
    } else {
      handle = setTimeout(step, Math.min(left, LONGEST));
    }
  };
  handle = setTimeout(step, Math.min(Math.max(ms, 0), LONGEST));
  return () => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
}

export const realTime: Time = { now, after };
