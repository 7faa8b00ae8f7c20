// The source id that --version names: a function of the bundle's inputs'
// contents, and of nothing else (not where the tree is, not hidden files, not
// package.json's scripts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { ROOT, tempDir } from './helpers/support.ts';

const id = (tree: string) => {
  const r = spawnSync(process.execPath, [join(ROOT, 'build-id.mjs'), tree], { cwd: tree, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^[0-9a-f]{12}\n$/);
  return r.stdout;
};

test('the source id follows the inputs, wherever the tree is', (t) => {
  const tree = tempDir(t);
  for (const input of ['src', 'schemas', 'build.mjs', 'tsconfig.json', 'package-lock.json', 'package.json'])
    cpSync(join(ROOT, input), join(tree, input), { recursive: true });
  const original = id(ROOT);
  assert.equal(id(tree), original);

  writeFileSync(join(tree, 'src', '.main.ts.swp'), 'an editor');
  appendFileSync(join(tree, 'package.json'), '\n');
  assert.equal(id(tree), original, 'a hidden file or package.json changed the id');

  for (const input of ['src/main.ts', 'schemas/generate.ts', 'build.mjs', 'tsconfig.json', 'package-lock.json']) {
    const copy = tempDir(t);
    cpSync(tree, copy, { recursive: true });
    appendFileSync(join(copy, input), '\n');
    assert.notEqual(id(copy), original, `${input} changed and the id did not`);
  }
});
