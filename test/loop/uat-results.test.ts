import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { uatResults } from '../../src/loop/uat-results.ts';

// A UAT's results as GSD 1.14's evaluateUatPassed reads them (what `init
// verify-work` and `phase uat-passed` answer; compat/test/loop-verify-work
// holds the two readings equal on generated trees).

const block = (n: number, result: string): string => `### ${n}. Test ${n}\nexpected: x\nresult: ${result}\n`;

test('each test block gives its first result line, lower-cased, brackets dropped; none is missing', () => {
  assert.deepEqual(uatResults(`---\nstatus: testing\n---\n\n## Tests\n\n${block(1, '[pending]')}\n${block(2, 'pass')}\n${block(3, 'issue')}`), [
    'pending',
    'pass',
    'issue',
  ]);
  assert.deepEqual(uatResults(`${block(1, 'pending')}${block(2, '[Pending]')}${block(3, '[pending]  ')}`), ['pending', 'pending', 'pending']);
  assert.deepEqual(uatResults('### 1. A\nexpected: x\n\n### 2. B\nresult:\n'), ['missing', 'missing']);
  // The first wins; only at column 0; the value on the line itself.
  assert.deepEqual(uatResults('### 1. A\nresult: [pending]\nresult: pass\n'), ['pending']);
  assert.deepEqual(uatResults('### 1. A\n  result: pass\nthe result: pass\n'), ['missing']);
  assert.deepEqual(uatResults('### 1. A\r\nresult: pass\r\n### 2. B\rresult: skipped\r'), ['pass', 'skipped']);
  // Headings across U+2028: the block ends there; a result line does not start there.
  assert.deepEqual(uatResults('### 1. A\u2028result: pass\n### 2. B\nresult: pass\n'), ['missing', 'pass']);
  assert.deepEqual(uatResults('result: pass\n'), []);
});

test('what only looks like a result is left out: the frontmatter, comments, fenced code, quotes', () => {
  const pending = block(1, '[pending]');
  assert.deepEqual(uatResults(`---\nresult: pass\n---\n${pending}`), ['pending']);
  assert.deepEqual(uatResults(`${pending}<!--\nresult: pass\n-->\n`), ['pending']);
  assert.deepEqual(uatResults(`### 1. A\n<!--\nresult: pass\n-->\nresult: [pending]\n`), ['pending']);
  // A comment left open runs to the end.
  assert.deepEqual(uatResults(`### 1. A\n<!-- x\nresult: pass\n`), ['missing']);
  assert.deepEqual(uatResults(`### 1. A\n\`\`\`yaml\nresult: pass\n\`\`\`\nresult: [pending]\n`), ['pending']);
  assert.deepEqual(uatResults(`### 1. A\n~~~~\n\`\`\`\nresult: pass\n~~~\n~~~~ \nresult: skipped\n`), ['skipped']);
  // A backtick run with a backtick after it opens no fence.
  assert.deepEqual(uatResults('### 1. A\n``` x`\nresult: pass\n'), ['pass']);
  // A fence left open, and a heading inside a fence, are code.
  assert.deepEqual(uatResults('### 1. A\nresult: issue\n```\n### 2. B\nresult: pass\n'), ['issue']);
  assert.deepEqual(uatResults(`### 1. A\n> result: pass\n  > result: pass\nresult: [pending]\n`), ['pending']);
});
