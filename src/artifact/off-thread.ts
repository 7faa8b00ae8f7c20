import { fail, stopped, type Result, stopCarriedBy } from '../failure.ts';
import { errorText } from '../fs/entry.ts';
import { parseWithLibrary, parseWithoutLibrary, type Fields, yaml, yamlSource } from './frontmatter.ts';

// Up to this size the YAML library parses on the main thread: at worst (one
// quoted key a line) that costs about what starting a thread to parse it
// does (docs/reference/predicates.md gives the counts). Larger frontmatter
// goes to a worker thread, which a stop signal ends at once.
const IN_THREAD_BYTES = 8 * 1024;

// The fields of a frontmatter, parsed where it costs least; the `stopped`
// failure when a stop signal came first.
export async function readFields(yamlText: string, file: string, options: OffThreadOptions = {}): Promise<Result<Fields>> {
  const quick = parseWithoutLibrary(yamlText, file);
  if (quick !== undefined) return quick;
  if (Buffer.byteLength(yamlText) <= IN_THREAD_BYTES) return parseWithLibrary(yamlText, file, yaml());
  return parseOffThread(yamlText, file, options);
}

// src/artifact/frontmatter-worker.ts, bundled by build.mjs.
declare const FRONTMATTER_WORKER: string;

// The parser needs many times a frontmatter's size in memory; past this the
// thread is stopped and the gate fails, and gsd-check itself lives on.
const HEAP_MB = 256;

interface OffThreadOptions {
  // A stop signal ends the thread at once.
  readonly signal?: AbortSignal | undefined;
  // The thread's code, for tests: frontmatter-worker.ts by default.
  readonly code?: string;
  readonly heapMb?: number;
}

// Parses a frontmatter with the YAML library in a worker thread, so that the
// main thread stays free for stop signals and other gates' timeouts. The
// thread failing to start, crashing, running out of memory or ending without
// an answer is a failure, never a verdict: it says nothing about the file.
export function parseOffThread(yaml: string, file: string, options: OffThreadOptions = {}): Promise<Result<Fields>> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve(stopped(stopCarriedBy(signal)));
  // Loaded here only: every other command would pay for them at start-up.
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { deserialize } = require('node:v8') as typeof import('node:v8');
  return new Promise((resolve) => {
    const lost = (why: string): Result<Fields> => fail('resource-limit', `${file}: the frontmatter parser thread ${why}`);
    let worker: InstanceType<typeof Worker>;
    try {
      worker = new Worker(options.code ?? FRONTMATTER_WORKER, {
        eval: true,
        workerData: { yaml, file, source: yamlSource() },
        resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? HEAP_MB },
      });
    } catch (error) {
      return resolve(lost(`could not start: ${errorText(error)}`));
    }
    // The first outcome counts: ending the thread makes another (its exit).
    let settled = false;
    const settle = (outcome: Result<Fields>): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', stop);
      // The answer comes once the thread is gone, whatever ended the wait:
      // the next gate finds its descriptors and memory free.
      const done = (): void => resolve(outcome);
      worker.terminate().then(done, done);
    };
    const stop = (): void => settle(stopped(stopCarriedBy(signal)));
    signal?.addEventListener('abort', stop);
    // Serialized by V8 rather than cloned for the message: that keeps a
    // Buffer (`!!binary`) a Buffer, as the main thread's parse gives it.
    worker.on('message', (bytes: Uint8Array) => {
      let result: Result<Fields>;
      try {
        result = deserialize(bytes) as Result<Fields>;
      } catch (error) {
        return settle(lost(`sent an answer that cannot be read: ${errorText(error)}`));
      }
      settle(result);
    });
    worker.on('error', (error) => settle(lost(`failed: ${errorText(error)}`)));
    worker.on('exit', (code) => settle(lost(`ended without an answer (exit code ${code})`)));
  });
}
