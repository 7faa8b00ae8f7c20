// node:test's test() with a time bound for every test: a test that hangs
// (a mutant that loops, a read that never ends) fails at the bound, named,
// instead of holding its file for ever (two hand mutants of issue 28 were
// caught only by a file that hung for 400 s). Node's --test-timeout is no
// substitute: Node 20 and 22 apply it to a whole file. A test that needs
// longer says so with its own `timeout`. Every test file imports test() from
// here (test/helpers/bounded.test.ts holds that).
import { test as nodeTest, type TestContext, type TestOptions } from 'node:test';

// Many times the slowest test on the loaded 2-core machine (about 20 s),
// so that only a hang reaches it.
export const TEST_BOUND_MS = 120_000;

type Body = (t: TestContext) => void | Promise<void>;

export function test(name: string, body: Body): Promise<void>;
export function test(name: string, options: TestOptions, body: Body): Promise<void>;
export function test(name: string, options: TestOptions | Body, body?: Body): Promise<void> {
  return typeof options === 'function' ? nodeTest(name, { timeout: TEST_BOUND_MS }, options) : nodeTest(name, { timeout: TEST_BOUND_MS, ...options }, body);
}

// For a describe() of a file's independent tests (each with temp dirs of its
// own, its processes found by a marker of its own): a few run at once, so
// that while one waits on a child (a timeout, a grace period, a signal) the
// others use the cores, and few enough that no test's wait nears its bound.
export const CONCURRENTLY = { concurrency: 4 } as const;

export { after, before, describe } from 'node:test';
export type { TestContext } from 'node:test';
