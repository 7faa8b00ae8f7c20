import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import type { GateRow, PointRows } from '../../src/report/gate-row.ts';
import { colourWanted, gatesTable, pointsTable } from '../../src/report/table.ts';

const row = (fields: Partial<GateRow>): GateRow => ({
  status: 'pass', outcome: 'passed', capability: 'sec', gate: 'sec#0', check: 'query q', durationMs: 12, reason: '', ...fields,
});
const ROWS = [row({}), row({ status: 'halt', outcome: 'failure', gate: 'security#1', check: 'predicate artifact-frontmatter-equals', durationMs: 1500, reason: 'threats_open is 2,\nexpected 0' })];

test('status, gate, check, time and reason in columns, then the message', () => {
  assert.equal(gatesTable(ROWS, 'ship:pre: halted by security#1', { colour: false }), [
    'STATUS  GATE        CHECK                                     TIME  REASON',
    'pass    sec#0       query q                                  12 ms',
    'halt    security#1  predicate artifact-frontmatter-equals  1500 ms  threats_open is 2, expected 0',
    'ship:pre: halted by security#1',
    '',
  ].join('\n'));
});

test('in colour, the status only; the reason cut to the width of the terminal; text from outside escaped', () => {
  const table = gatesTable([row({ status: 'halt', outcome: 'failure', gate: 'x\u001b[2J#0', reason: 'r'.repeat(100) })], 'm', { colour: true, columns: 60 });
  assert.equal(table, [
    '\u001b[1mSTATUS  GATE        CHECK     TIME  REASON\u001b[0m',
    `\u001b[1;31mhalt  \u001b[0m  x\\x1b[2J#0  query q  12 ms  ${'r'.repeat(21)}...`,
    'm',
    '',
  ].join('\n'));
  assert.equal(gatesTable([], 'plan:pre: no gates', { colour: true }), 'plan:pre: no gates\n');
});

test('a terminal narrower than the other columns still shows 20 characters of the reason', () => {
  const narrow = gatesTable([row({ reason: 'r'.repeat(100) })], 'm', { colour: false, columns: 30 });
  assert.equal(narrow.split('\n')[1], `pass    sec#0  query q  12 ms  ${'r'.repeat(17)}...`);
});

test('colour: FORCE_COLOR over NO_COLOR over TERM=dumb', () => {
  assert.equal(colourWanted({}), true);
  assert.equal(colourWanted({ NO_COLOR: '1' }), false);
  assert.equal(colourWanted({ NO_COLOR: '' }), true);
  assert.equal(colourWanted({ TERM: 'dumb' }), false);
  assert.equal(colourWanted({ NO_COLOR: '1', FORCE_COLOR: '1' }), true);
  assert.equal(colourWanted({ FORCE_COLOR: '' }), true);
  assert.equal(colourWanted({ FORCE_COLOR: '0' }), false);
  assert.equal(colourWanted({ FORCE_COLOR: 'false', TERM: 'xterm' }), false);
});

test('several points: each point\'s name, then its table, then the run\'s message', () => {
  const points: PointRows[] = [
    { point: 'plan:pre', message: 'plan:pre: passed (1 pass)', evaluated: true, rows: [row({})] },
    { point: 'ship:pre', message: 'ship:pre: no gates', evaluated: true, rows: [] },
  ];
  assert.equal(pointsTable(points, '2 points: passed (1 pass)', { colour: false }), [
    'plan:pre',
    'STATUS  GATE   CHECK     TIME  REASON',
    'pass    sec#0  query q  12 ms',
    'plan:pre: passed (1 pass)',
    '',
    'ship:pre',
    'ship:pre: no gates',
    '',
    '2 points: passed (1 pass)',
    '',
  ].join('\n'));
  assert.ok(pointsTable(points, 'm', { colour: true }).startsWith('\u001b[1mplan:pre\u001b[0m\n'));
});
