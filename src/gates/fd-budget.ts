// Descriptors one running gate may hold at its peak: while sh starts, both
// ends of the stdout and stderr pipes and of the pipe that reports a failed
// exec are open (6), and a frontmatter gate reads a file (1).
const PER_GATE = 7;
// What Node itself, the standard streams and reading inputs hold besides.
const RESERVE = 32;

// How many gates may run at once within a limit of `fdLimit` open
// descriptors: past it, starts fail with EMFILE. At least one, so a tiny
// limit runs gates one by one instead of none.
export function gatesWithin(fdLimit: number | undefined): number {
  if (fdLimit === undefined) return Infinity;
  return Math.max(1, Math.floor((fdLimit - RESERVE) / PER_GATE));
}
