// How gsd-check ends: the exit statuses it uses, the signals that stop it,
// and how a stop travels from main.ts to the code that must answer it (an
// AbortSignal aborted with the signal's name).

export const EXIT_BLOCK = 1;
export const EXIT_INVALID = 1;
export const EXIT_FAILURE = 2;
// EX_SOFTWARE from sysexits.h: a bug.
export const EXIT_INTERNAL = 70;
// EX_IOERR from sysexits.h: the verdict exists but could not be delivered.
export const EXIT_WRITE_FAILED = 74;

// Every signal whose default action would kill gsd-check and leave the
// commands running; SIGKILL and SIGSTOP cannot be caught.
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGALRM', 'SIGUSR1', 'SIGUSR2', 'SIGXCPU', 'SIGVTALRM', 'SIGPROF'] as const;

// The signal a stop was requested with: main.ts aborts with its name.
export function stopSignal(signal: AbortSignal | undefined): NodeJS.Signals {
  const reason: unknown = signal?.reason;
  return typeof reason === 'string' && reason.startsWith('SIG') ? (reason as NodeJS.Signals) : 'SIGTERM';
}

// 128+N, as a shell reports a death by signal N. SIGUSR1 and SIGUSR2 have
// other numbers on macOS than on Linux, so N comes from the platform.
// node:os is loaded here, on the way out, where its start-up cost no longer
// matters.
export function stoppedExitStatus(signal: NodeJS.Signals): number {
  const { constants } = require('node:os') as typeof import('node:os');
  return 128 + (constants.signals[signal] ?? constants.signals.SIGTERM);
}
