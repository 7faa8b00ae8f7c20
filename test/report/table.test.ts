import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import type { GateRow, PointRows } from '../../src/report/gate-row.ts';
import { colourWanted, gatesTable, pointsTable } from '../../src/report/table.ts';

const row = (fields: Partial<GateRow>): GateRow => ({
  status: 'pass',
  caseStatus: 'passed',
  capability: 'sec',
  gate: 'sec#0',
  check: 'query q',
  durationMs: 12,
  reason: '',
  ...fields,
});
const point = (rows: GateRow[], message = 'm'): PointRows => ({ point: 'ship:pre', message, evaluated: true, reached: true, rows });
const ROWS = [
  row({}),
  row({
    status: 'halt',
    caseStatus: 'failure',
    gate: 'security#1',
    check: 'predicate artifact-frontmatter-equals',
    durationMs: 1500,
    reason: 'threats_open is 2,\nexpected 0',
  }),
];

test('status, gate, check, time and reason in columns, then the verdict, which names the halted gates and leaves their reasons to the table', () => {
  const message = 'ship:pre: halted by security#1 (security#1: threats_open is 2, expected 0); 1 advisory';
  assert.equal(
    gatesTable(point([...ROWS, row({ status: 'advisory', gate: 'ui#2', reason: 'late' })], message), { colour: false }),
    [
      'STATUS    GATE        CHECK                                     TIME  REASON',
      'pass      sec#0       query q                                  12 ms',
      'halt      security#1  predicate artifact-frontmatter-equals  1500 ms  threats_open is 2, expected 0',
      'advisory  ui#2        query q                                  12 ms  late',
      'ship:pre: halted by security#1; 1 advisory',
      '',
    ].join('\n'),
  );
  // With no halt, the point's own message, which tells no reason.
  assert.equal(
    gatesTable(point([row({})], 'ship:pre: passed (1 pass)'), { colour: false })
      .split('\n')
      .at(-2),
    'ship:pre: passed (1 pass)',
  );
});

test('in colour, the status only; the reason cut to the width of the terminal; text from outside escaped', () => {
  const table = gatesTable(point([row({ status: 'halt', caseStatus: 'failure', gate: 'x\u001b[2J#0', reason: 'r'.repeat(100) })]), {
    colour: true,
    columns: 60,
  });
  assert.equal(
    table,
    [
      '\u001b[1mSTATUS  GATE        CHECK     TIME  REASON\u001b[0m',
      `\u001b[1;31mhalt  \u001b[0m  x\\x1b[2J#0  query q  12 ms  ${'r'.repeat(21)}...`,
      'ship:pre: halted by x\\x1b[2J#0',
      '',
    ].join('\n'),
  );
  assert.equal(gatesTable(point([], 'plan:pre: no gates'), { colour: true }), 'plan:pre: no gates\n');
});

test('a terminal narrower than the other columns still shows 20 characters of the reason', () => {
  const narrow = gatesTable(point([row({ reason: 'r'.repeat(100) })]), { colour: false, columns: 30 });
  assert.equal(narrow.split('\n')[1], `pass    sec#0  query q  12 ms  ${'r'.repeat(17)}...`);
  // A reason that fits exactly is shown whole.
  const fits = gatesTable(point([row({ reason: 'r'.repeat(20) })]), { colour: false, columns: 30 });
  assert.equal(fits.split('\n')[1], `pass    sec#0  query q  12 ms  ${'r'.repeat(20)}`);
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

test("several points: each point's name, then its table, then the run's message", () => {
  const points: PointRows[] = [
    { point: 'plan:pre', message: 'plan:pre: passed (1 pass)', evaluated: true, reached: true, rows: [row({})] },
    { point: 'ship:pre', message: 'ship:pre: no gates', evaluated: true, reached: true, rows: [] },
  ];
  assert.equal(
    pointsTable(points, '2 points: passed (1 pass)', { colour: false }),
    [
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
    ].join('\n'),
  );
  assert.ok(pointsTable(points, 'm', { colour: true }).startsWith('\u001b[1mplan:pre\u001b[0m\n'));
});

test("several points where one halts and one was not evaluated: the run's verdict names them, the reasons stay above", () => {
  const points: PointRows[] = [
    { point: 'plan:pre', message: 'plan:pre: passed (1 pass)', evaluated: true, reached: true, rows: [row({})] },
    { point: 'verify:pre', message: 'verify:pre: not evaluated: no hooks of it in the input', evaluated: false, reached: true, rows: [] },
    { point: 'ship:pre', message: 'ship:pre: halted by security#1 (security#1: threats_open is 2, expected 0)', evaluated: true, reached: true, rows: ROWS },
  ];
  const lines = pointsTable(points, '2 of 3 points halted: verify:pre: not evaluated: …; ship:pre: halted by …', { colour: false }).split('\n');
  assert.ok(lines.includes('verify:pre: not evaluated: no hooks of it in the input'));
  assert.ok(lines.includes('ship:pre: halted by security#1'));
  assert.equal(lines.filter((line) => line.includes('threats_open is 2')).length, 1);
  assert.equal(lines.at(-2), '2 of 3 points halted: verify:pre, ship:pre');
});

test('with no terminal width, a reason is one line of at most 1000 characters', () => {
  const out = gatesTable(point([row({ status: 'halt', caseStatus: 'failure', reason: 'x'.repeat(1100) })]), { colour: false });
  assert.ok(out.includes(` ${'x'.repeat(997)}...\n`), out);
  assert.ok(!out.includes('x'.repeat(998)), out);
});
