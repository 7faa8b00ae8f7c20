import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { ROOT } from './helpers/support.ts';

// CONTRIBUTING's side effects at the edges: what a module's code (its
// comments aside) may reach for, and which modules may.
const SRC = join(ROOT, 'src');
const code = (file: string): string =>
  readFileSync(join(SRC, file), 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n');
const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const using = (pattern: RegExp): string[] => files.filter((file) => pattern.test(code(file))).sort();

test("only the entry files (the Action's too) touch process, and src/run/ for its signals and clock", () => {
  assert.deepEqual(
    using(/\bprocess\??\./).filter((file) => !file.startsWith('run/')),
    // gsd/batch-script.ts is the text of a program of its own, which GSD's node runs: its process is that one.
    ['action/main.ts', 'gsd/batch-script.ts', 'launch.ts', 'main.ts'],
  );
});

test("Node's internal bindings are reached by one module, which starts sh through them where CI tests them", () => {
  assert.deepEqual(using(/\.binding\b/), ['run/child-binding.ts']);
  assert.deepEqual(using(/\._handle\b|\binternalBinding\b/), []);
});

test('only src/run/ starts processes; the frontmatter parser is a thread', () => {
  // The Action's entry starts gsd-check itself, beside it, as its one child.
  assert.deepEqual(
    using(/'node:child_process'/).filter((file) => !file.startsWith('run/')),
    ['action/main.ts'],
  );
  assert.deepEqual(using(/'node:worker_threads'/), ['artifact/frontmatter-worker.ts', 'artifact/off-thread.ts']);
});
