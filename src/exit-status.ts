// The exit statuses gsd-check uses, but for a stop's 128+N (stop.ts).

export const EXIT_BLOCK = 1;
export const EXIT_INVALID = 1;
export const EXIT_FAILURE = 2;
// EX_SOFTWARE from sysexits.h: a bug.
export const EXIT_INTERNAL = 70;
// EX_IOERR from sysexits.h: the verdict exists but could not be delivered.
export const EXIT_WRITE_FAILED = 74;
