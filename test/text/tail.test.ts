import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settleCarriageReturns, stripAnsi, tailOf, TAIL_CHARS } from '../../src/text/tail.ts';

test('stripAnsi removes colour, cursor, OSC and charset sequences', () => {
  assert.equal(stripAnsi('\x1b[31mred\x1b[0m \x1b[1;32mbold\x1b[m'), 'red bold');
  assert.equal(stripAnsi('\x1b[2K\x1b[1Gprogress'), 'progress');
  assert.equal(stripAnsi('\x1b]0;title\x07text'), 'text');
  assert.equal(stripAnsi('\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\'), 'link');
  assert.equal(stripAnsi('\x1b(Bplain\x1b='), 'plain');
  assert.equal(stripAnsi('\x9b31mc1'), 'c1');
});

test('an unterminated OSC does not swallow the following lines', () => {
  assert.equal(stripAnsi('\x1b]0;title\nerror: boom'), '\nerror: boom');
});

test('tailOf trims and keeps short output whole', () => {
  assert.deepEqual(tailOf('\n  error: x \n\n'), { text: 'error: x', cut: false });
  assert.deepEqual(tailOf(''), { text: '', cut: false });
});

test('tailOf keeps the end, at most TAIL_CHARS units', () => {
  const output = `${'a'.repeat(5000)}THE END`;
  const tail = tailOf(output);
  assert.equal(tail.cut, true);
  assert.equal(tail.text.length, TAIL_CHARS);
  assert.ok(tail.text.endsWith('THE END'));
});

test('tailOf never starts with half a surrogate pair', () => {
  // 1999 emoji and a "y": the last 2000 units start on a low surrogate.
  const tail = tailOf(`${'😀'.repeat(1999)}y`);
  assert.equal(tail.text.length, TAIL_CHARS - 1);
  assert.equal(tail.text, `${'😀'.repeat(999)}y`);
});

test('tailOf strips ANSI before counting', () => {
  const colour = '\x1b[31m';
  const tail = tailOf(`${colour}x`.repeat(3000));
  assert.equal(tail.text, 'x'.repeat(TAIL_CHARS));
});

test('progress lines keep what the terminal would show', () => {
  assert.equal(settleCarriageReturns('10%\r20%\r100%\ndone\n'), '100%\ndone\n');
  assert.equal(settleCarriageReturns('a\r\nb\r\n'), 'a\nb\n');
  assert.equal(settleCarriageReturns('10%\r20%\r'), '20%');
  assert.equal(settleCarriageReturns('\r\r\n'), '\n');
  assert.equal(tailOf('10%\r20%\r100%\r').text, '100%');
  assert.equal(tailOf('\x1b[2K\r[###  ] 60%\r\x1b[2K\r[#####] 100%\nFAILED\n').text, '[#####] 100%\nFAILED');
});

test('a 64 KiB line, with or without carriage returns', () => {
  // The soak found a backtracking pattern here that took 4 s on such a line.
  assert.equal(tailOf('\0'.repeat(65536)).text.length, TAIL_CHARS);
  assert.equal(tailOf('x\r'.repeat(32768)).text, 'x');
});
