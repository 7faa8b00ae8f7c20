// A stop: gsd-check was told to end by a signal. main.ts aborts its stop
// controller with a Stop, and every part that waits or runs answers it; the
// signal it carries decides the exit status, 128+N.

// Every signal whose default action would kill gsd-check and leave the
// commands running; SIGKILL and SIGSTOP cannot be caught.
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGALRM', 'SIGUSR1', 'SIGUSR2', 'SIGXCPU', 'SIGVTALRM', 'SIGPROF'] as const;

export class Stop {
  constructor(readonly signal: NodeJS.Signals) {}
}

// The stop `signal` was aborted with, or undefined while it is not. An abort
// with anything but a Stop is a bug; it stops as SIGTERM would.
export function stopOf(signal: AbortSignal | undefined): Stop | undefined {
  if (signal?.aborted !== true) return undefined;
  return signal.reason instanceof Stop ? signal.reason : new Stop('SIGTERM');
}

// For code that saw `signal` abort: the stop it was aborted with.
export const stopFrom = (signal: AbortSignal | undefined): Stop => stopOf(signal) ?? new Stop('SIGTERM');

// 128+N, as a shell reports a death by signal N. SIGUSR1 and SIGUSR2 have
// other numbers on macOS than on Linux, so N comes from the platform.
// node:os is loaded here, on the way out, where its start-up cost no longer
// matters.
export function stoppedExitStatus(stop: Stop): number {
  const { constants } = require('node:os') as typeof import('node:os');
  return 128 + (constants.signals[stop.signal] ?? constants.signals.SIGTERM);
}
