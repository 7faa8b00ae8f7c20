// The mutation harness's copy of the repository (mutate/tree.mjs): it holds
// what the tests read, so that the unmutated tree passes, and its removal
// never throws over the error that ended a run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '../helpers/bounded.ts';
import { ROOT } from '../helpers/support.ts';

// In a child: the harness is plain JavaScript with a process-wide marker, and
// a copy that loops must not keep this test's thread.
function harness(body: string): { status: number | null; stdout: string; stderr: string } {
  const script = `import { checkoutFiles, makeTree, removeTree } from ${JSON.stringify(pathToFileURL(join(ROOT, 'mutate', 'tree.mjs')).href)};\n${body}`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.signal, null, 'the harness did not end');
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the tree holds every file of the checkout the tests may read (bench/, docs/, compat/), edits not yet committed too', { timeout: 60_000 }, (t) => {
  const untracked = join(ROOT, 'bench', `untracked-${process.pid}.mjs`);
  writeFileSync(untracked, '// not committed\n');
  t.after(() => rmSync(untracked, { force: true }));
  const r = harness(`const { existsSync } = await import('node:fs');
const tree = makeTree(process.cwd());
const missing = checkoutFiles(process.cwd()).filter((name) => !existsSync(tree + '/' + name));
process.stdout.write(JSON.stringify({ tree, missing }));`);
  assert.equal(r.status, 0, r.stderr);
  const { tree, missing } = JSON.parse(r.stdout) as { tree: string; missing: string[] };
  t.after(() => rmSync(tree, { recursive: true, force: true }));
  assert.deepEqual(missing, []);
  for (const file of ['bench/run.mjs', 'test/exports.test.ts', 'docs/maintainers/mutation.md', 'compat/README.md', `bench/untracked-${process.pid}.mjs`]) {
    assert.ok(existsSync(join(tree, file)), file);
  }
  assert.equal(readFileSync(join(tree, 'src/text/tail.ts'), 'utf8'), readFileSync(join(ROOT, 'src/text/tail.ts'), 'utf8'));
  assert.equal(existsSync(join(tree, '.test-out')), false, 'what git ignores stays out');
});

test('a tree that cannot be removed is said, never thrown', { timeout: 60_000 }, () => {
  const r = harness(`removeTree('/proc/self/fd'); process.stdout.write('after');`);
  assert.deepEqual(r, { status: 0, stdout: 'after', stderr: 'mutate: could not remove the tree /proc/self/fd: EPERM\n' });
});
