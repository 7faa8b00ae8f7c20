import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from './helpers/bounded.ts';
import { embeddedProgram, PROGRAM_CLOSE, PROGRAM_OPEN } from '../src/embedded-program.ts';
import { DIST } from './helpers/support.ts';

const launcher = '#!/usr/bin/env node\nrun();\n';

test('the program is the text between the markers at the end of the file, found from its length', () => {
  const file = `${launcher}/* gsd-check program\n(function () {\n  return 1;\n})\n*/\n`;
  assert.equal(embeddedProgram(file, '(function () {\n  return 1;\n})'.length), '(function () {\n  return 1;\n})');
});

test('the length decides where the program starts, even when the program names the marker', () => {
  const program = '(function () { return "/* gsd-check program\\n"; })';
  for (const before of [launcher, '']) {
    assert.equal(embeddedProgram(`${before}/* gsd-check program\n${program}\n*/\n`, program.length), program);
  }
});

test('a copy with CRLF line ends or a stale length still gives the program, found by its markers', () => {
  const crlf = `#!/usr/bin/env node\r\nrun();\r\n/* gsd-check program\r\n(function () {\r\n})\r\n*/\r\n`;
  assert.equal(embeddedProgram(crlf, '(function () {\n})'.length), '(function () {\r\n})');
  const lf = `${launcher}/* gsd-check program\n(function () {})\n*/\n`;
  assert.equal(embeddedProgram(lf, 5), '(function () {})');
});

test('the launcher text may name the markers itself: the last ones count', () => {
  const file = `const open = "/* gsd-check program";\n/* gsd-check program\nX\n*/\n`;
  assert.equal(embeddedProgram(file, 1), 'X');
  assert.equal(embeddedProgram(file, 99), 'X');
});

test('a cut copy has no program', () => {
  assert.equal(embeddedProgram(`${launcher}/* gsd-check program\n(function () {`, 14), undefined);
  assert.equal(embeddedProgram(launcher, 0), undefined);
});

test('the built file holds the program where the length baked into its launcher points (no search)', () => {
  const file = readFileSync(DIST, 'utf8');
  const baked = /embeddedProgram\(\w+\.toString\(\), ?(\d+)\)/.exec(file);
  assert.ok(baked !== null, 'the launcher passes a length');
  const end = file.length - '\n*/\n'.length;
  const start = end - Number(baked[1]);
  assert.equal(file.slice(start - '/* gsd-check program\n'.length, start), '/* gsd-check program\n');
  assert.equal(file.slice(end), '\n*/\n');
  assert.ok(file.slice(start).startsWith('(function (exports, require, module, __filename, __dirname) {'));
  assert.equal(PROGRAM_OPEN, '/* gsd-check program\n');
  assert.equal(PROGRAM_CLOSE, '\n*/\n');
});
