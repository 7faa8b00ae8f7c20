import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from './bounded.ts';
import { CLI_BUNDLES, CLI_TESTS } from './cli-tests.mjs';
import { ROOT } from './support.ts';

// What running the artefact looks like in a test file: the helpers that spawn
// it, or the path of the build under test.
const RUNS_ARTEFACT = /\b(?:cli|unprivileged)\(|\bBIN\b/;

const testFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join('test', 'helpers') || path === join('test', 'fixtures') ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });

test('the list names every test file that runs the artefact, and no other', () => {
  const running = testFiles('test').filter((f) => RUNS_ARTEFACT.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual([...CLI_TESTS].sort(), running.sort());
});

// The artefact's path written out by hand, which would run dist/gsd-check even
// where GSD_CHECK_BIN names another build, and escape the check above.
const DIST_BY_HAND = /['"]dist['"]\s*,\s*['"]gsd-check['"]|['"`](?:\.\/)?dist\/gsd-check['"`]/;

test("no test file writes the artefact's path by hand: DIST and BIN of support.ts name it", () => {
  assert.deepEqual(
    testFiles('test').filter((f) => DIST_BY_HAND.test(readFileSync(join(ROOT, f), 'utf8'))),
    [],
  );
});

test('each listed test is where build.mjs --tests bundles it', () => {
  assert.deepEqual(
    CLI_BUNDLES.filter((bundle) => !existsSync(join(ROOT, bundle))).map((bundle) => relative(ROOT, join(ROOT, bundle))),
    [],
  );
});
