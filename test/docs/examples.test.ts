// Every console example of README.md and docs/ that needs no GSD, run against
// the built artefact: a doc whose output drifts from what gsd-check prints
// fails here. The examples that call GSD run in compat/test/docs.test.mjs.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from '../helpers/bounded.ts';
import { BIN, ROOT, tempDir } from '../helpers/support.ts';
import { binDir, docFiles, docText, parseDoc, runDoc } from './doc-examples.mjs';

// The pages' reader has Node (an example pipes the envelope into node -e),
// though the build under test may be a standalone binary run with no Node on
// PATH (test/against-binary.mjs): the shell gets the one running the tests.
function readersBin(t: TestContext): string {
  const bin = binDir(tempDir(t), BIN);
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

for (const file of docFiles(ROOT)) {
  const steps = parseDoc(docText(ROOT, file));
  if (!steps.some((s) => s.setup === undefined && (s.mode === 'run' || s.mode === 'no-gsd'))) continue;
  test(`${file}: its examples print what it shows`, async (t) => {
    const { expected, actual } = await runDoc(steps, { bin: readersBin(t), modes: ['run', 'no-gsd'] });
    assert.equal(actual, expected);
  });
}

test('a drifted example fails: the output is compared, after normalising only durations and paths', async (t) => {
  const doc = [
    '```console',
    '$ gsd-check check predicate --predicate \'{"kind":"command-exit-zero","command":"exit 3"}\' --pick message',
    'command exited 4',
    '```',
  ].join('\n');
  const { expected, actual } = await runDoc(parseDoc(doc), { bin: binDir(tempDir(t), BIN) });
  assert.notEqual(actual, expected);
  assert.match(actual, /command exited 3$/);
});

test('one page is one shell session: setup, cd, variables and $? carry over; … stands for lines', async (t) => {
  const doc = [
    '<!-- doc-test setup',
    'mkdir sub && echo hidden > sub/file',
    '-->',
    '```console',
    '$ cd sub && X=1',
    '$ cat file; pwd; (exit 3)',
    'hidden',
    '/tmp/demo/sub',
    '$ echo "$? $X"',
    '3 1',
    '$ printf "a\\nb\\nc\\nd\\n"',
    'a',
    '…',
    'd',
    '$ cat <<EOF',
    '> two',
    '> lines',
    '> EOF',
    'two',
    'lines',
    '```',
  ].join('\n');
  const { expected, actual } = await runDoc(parseDoc(doc), { bin: binDir(tempDir(t), BIN) });
  assert.equal(actual, expected);
});

test('examples marked gsd or skip are not run here; a block that starts with output is an error', () => {
  const steps = parseDoc('<!-- doc-test: gsd -->\n```console\n$ gsd_run x\ny\n```\n\n<!-- doc-test: skip (a machine of its own) -->\n```console\n$ z\n```\n');
  assert.deepEqual(
    steps.map((s) => s.setup === undefined && s.mode),
    ['gsd', 'skip'],
  );
  assert.throws(() => parseDoc('```console\noutput first\n```\n'), /line 2: a console block starts with output/);
  assert.throws(() => parseDoc('<!-- doc-test: gdd -->\n'), /unknown doc-test directive "gdd"/);
});
