import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { settleCarriageReturns, stripAnsi, tailOf } from '../../src/text/tail.ts';

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

test('tailOf keeps the end, at most 2000 units, as docs/reference/predicates.md promises', () => {
  const output = `${'a'.repeat(5000)}THE END`;
  const tail = tailOf(output);
  assert.equal(tail.cut, true);
  assert.equal(tail.text.length, 2000);
  assert.ok(tail.text.endsWith('THE END'));
});

test('tailOf never starts with half a surrogate pair', () => {
  // 1999 emoji and a "y": the last 2000 units start on a low surrogate.
  const tail = tailOf(`${'😀'.repeat(1999)}y`);
  assert.equal(tail.text.length, 1999);
  assert.equal(tail.text, `${'😀'.repeat(999)}y`);
});

test('tailOf strips ANSI before counting', () => {
  const colour = '\x1b[31m';
  const tail = tailOf(`${colour}x`.repeat(3000));
  assert.equal(tail.text, 'x'.repeat(2000));
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
  assert.equal(tailOf('\0'.repeat(65536)).text.length, 2000);
  assert.equal(tailOf('x\r'.repeat(32768)).text, 'x');
});

test('output of exactly 2000 characters is whole, not cut; 2001 is cut', () => {
  assert.deepEqual(tailOf('x'.repeat(2000)), { text: 'x'.repeat(2000), cut: false });
  assert.deepEqual(tailOf(`y${'x'.repeat(2000)}`), { text: 'x'.repeat(2000), cut: true });
});

test('a low surrogate is dropped from the start of a cut, a high one or a plain character is kept', () => {
  // The boundaries of the surrogate range are U+DC00..U+DFFF.
  assert.equal(tailOf(`a\udbff${'x'.repeat(1999)}`).text, `\udbff${'x'.repeat(1999)}`);
  assert.equal(tailOf(`a\udc00${'x'.repeat(1999)}`).text, 'x'.repeat(1999));
  assert.equal(tailOf(`a\udfff${'x'.repeat(1999)}`).text, 'x'.repeat(1999));
  assert.equal(tailOf(`a\ue000${'x'.repeat(1999)}`).text, `\ue000${'x'.repeat(1999)}`);
});

test('a line ended by several carriage returns shows its last text, as a terminal does', () => {
  assert.equal(settleCarriageReturns('done\r\r\n'), 'done\n');
  assert.equal(settleCarriageReturns('10%\r100%\r\r\r'), '100%');
});

test('a cut that lands in blank space drops it: the tail starts with text', () => {
  assert.deepEqual(tailOf(`${'a'.repeat(3000)}  \n${'b'.repeat(1997)}`), { text: 'b'.repeat(1997), cut: true });
});
