// Runs `work` over `items` with at most `limit` at once; results keep the
// items' order whatever order they finish in. A work that throws (a bug)
// starts nothing more: `onThrow` hears of it at once (to end what still runs),
// the pool waits for every running work to settle, then throws the first error.
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  onThrow?: (error: unknown) => void,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let thrown: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (thrown === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        if (thrown === undefined) {
          thrown = { error };
          onThrow?.(error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (thrown !== undefined) throw thrown.error;
  return results;
}

// Descriptors one running gate may hold at its peak: while sh starts, both
// ends of the stdout, stderr and status pipes and of the pipe that reports a
// failed exec are open (8), and a frontmatter gate reads a file (1).
const PER_GATE = 9;
// What Node itself, the standard streams and reading inputs hold besides.
const RESERVE = 32;

// How many gates may run at once within a limit of `fdLimit` open
// descriptors: past it, starts fail with EMFILE. At least one, so a tiny
// limit runs gates one by one instead of none.
export function gatesWithin(fdLimit: number | undefined): number {
  if (fdLimit === undefined) return Infinity;
  return Math.max(1, Math.floor((fdLimit - RESERVE) / PER_GATE));
}
