import { now } from '../clock.ts';
import { after } from './timer.ts';

// The runner's clock and timer, passed in so that its timing rules can be
// tested with fake ones, without waiting.
export interface Time {
  readonly now: () => number;
  // Calls `fire` once `ms` have passed; the function returned cancels it.
  readonly after: (ms: number, fire: () => void) => () => void;
}

export const realTime: Time = { now, after };
