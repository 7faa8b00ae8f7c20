// mutate/equivalent.txt names each equivalent mutant by its file and its
// source line: an entry whose line has changed or gone explains a mutant
// that no longer exists, and would hide a new survivor that happens to read
// the same. So every entry must still point at a line of its file.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { ROOT } from '../helpers/support.ts';

const entries = readFileSync(join(ROOT, 'mutate', 'equivalent.txt'), 'utf8')
  .split('\n')
  .map((line, at) => ({ line, at: at + 1 }))
  .filter(({ line }) => line !== '' && !line.startsWith('#'));

test('every equivalent mutant listed names a file and a line it still has, a mutation and why', () => {
  const stale = entries.flatMap(({ line, at }) => {
    const [file, source, mutation, why] = line.split(' | ');
    if (file === undefined || source === undefined || mutation === undefined || why === undefined || why.trim() === '')
      return [`line ${at}: not "file | source line | mutation | why"`];
    if (!existsSync(join(ROOT, file))) return [`line ${at}: ${file} does not exist`];
    const lines = readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    return lines.includes(source) ? [] : [`line ${at}: ${file} has no line ${JSON.stringify(source)}`];
  });
  assert.deepEqual(stale, []);
  assert.ok(entries.length > 0);
});
