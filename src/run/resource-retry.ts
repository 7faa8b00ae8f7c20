import type { RunResult, Runner } from './runner.ts';
import { realTime, type Time } from './time.ts';

// Why sh could not start when the system is short of something for a while
// (descriptors, processes, memory), not because the command is wrong: other
// gates finishing frees it, so the start is tried again.
const RESOURCE_LIMITS: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM']);
export const RETRY_FOR_MS = 10_000;
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 250;

export function isResourceLimit(result: RunResult): result is RunResult & { readonly status: 'not-started'; readonly error: { readonly kind: 'system'; readonly code: string } } {
  return result.status === 'not-started' && result.error.kind === 'system' && RESOURCE_LIMITS.has(result.error.code);
}

// `run`, with a start that failed for a resource limit tried again, pausing
// longer each time, for up to `retryForMs`; a stop signal ends the pause.
export function retryingResourceLimits(run: Runner, retryForMs = RETRY_FOR_MS, time: Time = realTime): Runner {
  return async (options) => {
    const started = time.now();
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      const result = await run(options);
      if (!isResourceLimit(result) || time.now() - started >= retryForMs) return result;
      await wait(time, pause, options.signal);
    }
  };
}

function wait({ after }: Time, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const cancel = after(ms, done);
    signal?.addEventListener('abort', done);
  });
}
