// Runs `work` over `items` with at most `limit` at once; results keep the
// items' order whatever order they finish in.
export async function mapPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

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
