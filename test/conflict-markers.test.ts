// No file git keeps holds a merge's conflict: architecture.md carried one
// for a while, and nothing read it. The rule is git's own markers, as its
// merge writes them: a line starting with seven '<' and one starting with
// seven '>' (each alone or then a space), and between them a line of seven
// '|' (diff3's base) or exactly seven '=', which Markdown also writes alone
// (a heading's underline), so only there is it a marker.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/bounded.ts';
import { ROOT } from './helpers/support.ts';

const OPEN = '<'.repeat(7);
const BASE = '|'.repeat(7);
const SPLIT = '='.repeat(7);
const CLOSE = '>'.repeat(7);

const opens = (line: string, marker: string) => line === marker || line.startsWith(`${marker} `);

// The lines (from 1) that are conflict markers.
function markers(text: string): number[] {
  const found: number[] = [];
  let inside = false;
  text.split(/\r?\n/).forEach((line, index) => {
    if (opens(line, OPEN)) {
      inside = true;
      found.push(index + 1);
    } else if (opens(line, CLOSE)) {
      inside = false;
      found.push(index + 1);
    } else if (inside && (line === SPLIT || opens(line, BASE))) found.push(index + 1);
  });
  return found;
}

test('the rule: the markers of a conflict, and a line of seven = only inside one', () => {
  const conflict = ['a', `${OPEN} HEAD`, 'ours', `${BASE} merged common ancestors`, 'base', SPLIT, 'theirs', `${CLOSE} branch`, 'b'].join('\n');
  assert.deepEqual(markers(conflict), [2, 4, 6, 8]);
  // A half left behind is one too, each on its own.
  assert.deepEqual(markers(`x\n${OPEN}\ny`), [2]);
  assert.deepEqual(markers(`x\r\n${CLOSE} main\r\n`), [2]);
  // Markdown's: a setext heading's underline, and longer runs.
  assert.deepEqual(markers(`Title\n${SPLIT}\n\n${SPLIT}=\n${OPEN}<\n${CLOSE}>\n  ${OPEN} HEAD\nx ${CLOSE} y`), []);
  assert.deepEqual(markers(`${OPEN}x\n${SPLIT}\n`), [], 'seven < then a letter is no marker, so what follows is outside a conflict');
});

test('no file git keeps holds a conflict', () => {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 30_000 });
  assert.equal(listed.status, 0, `git ls-files: ${listed.stderr}`);
  const files = listed.stdout.split('\0').filter((file) => file !== '');
  assert.ok(files.length > 0);
  const conflicts: string[] = [];
  for (const file of files) {
    const path = join(ROOT, file);
    // A file deleted but not yet committed, or a link, holds no text of its own.
    let regular: boolean;
    try {
      regular = lstatSync(path).isFile();
    } catch {
      continue;
    }
    if (!regular) continue;
    const lines = markers(readFileSync(path, 'latin1'));
    if (lines.length > 0) conflicts.push(`${file}:${lines.join(',')}`);
  }
  assert.deepEqual(conflicts, [], 'merge-conflict markers (lines given): resolve the conflict, keeping the correct text');
});
