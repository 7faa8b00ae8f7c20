import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import type { GateRow, PointRows } from '../../src/report/gate-row.ts';
import { githubAnnotations, githubSummary } from '../../src/report/github.ts';

const row = (fields: Partial<GateRow>): GateRow => ({
  status: 'pass', caseStatus: 'passed', capability: 'sec', gate: 'sec#0', check: 'query q', durationMs: 12, reason: '', ...fields,
});

const at = (point: PointRows['point'], rows: readonly GateRow[], message = ''): PointRows[] => [{ point, message, evaluated: true, rows }];
const asGiven = (location: { file: string }): string => location.file;

const ROWS: GateRow[] = [
  row({}),
  row({ status: 'halt', caseStatus: 'failure', gate: 'sec#1', reason: '100% of 2:\r\nthreats, open' }),
  row({ status: 'advisory', gate: 'a,b:c#2', reason: 'UI spec missing' }),
  row({ status: 'skipped', caseStatus: 'skipped', gate: 'sec#3', reason: 'onError skip: exited 2' }),
  row({ status: 'inactive', caseStatus: 'skipped', gate: 'sec#4', reason: 'inactive: workflow.x is false' }),
];

test('an error per halted gate, a warning per advisory, a notice per skipped: GitHub escaping in data and properties', () => {
  assert.equal(githubAnnotations(at('ship:pre', ROWS), asGiven), [
    '::error title=gsd-check ship%3Apre sec#1 [query q] halt::100%25 of 2:%0D%0Athreats, open',
    '::warning title=gsd-check ship%3Apre a%2Cb%3Ac#2 [query q] advisory::UI spec missing',
    '::notice title=gsd-check ship%3Apre sec#3 [query q] skipped::onError skip: exited 2',
    '',
  ].join('\n'));
  assert.equal(githubAnnotations(at('ship:pre', [row({})]), asGiven), '');
});

test('a command cannot forge a workflow command or drive the log: no raw newline or control character', () => {
  const out = githubAnnotations(at('ship:pre', [row({ status: 'halt', caseStatus: 'failure', reason: 'x\n::add-mask::secret\u001b[2J' })]), asGiven);
  assert.equal(out, '::error title=gsd-check ship%3Apre sec#0 [query q] halt::x%0A::add-mask::secret\\x1b[2J\n');
});

test('the job summary: heading, the verdict naming the halted gates (the Reason column says why), one row per gate, Markdown that text cannot break', () => {
  const message = 'ship:pre: halted by sec#1 (sec#1: a | b)';
  const summary = githubSummary(at('ship:pre', [ROWS[0]!, row({ status: 'halt', caseStatus: 'failure', gate: 'sec#1', reason: 'a | b\n<img src=x> *c* [d](e) `f`' })], message), message);
  assert.equal(summary, [
    '### gsd-check gates run: ship:pre',
    '',
    'ship:pre: halted by sec#1',
    '',
    '| Status | Gate | Check | Time | Reason |',
    '| --- | --- | --- | ---: | --- |',
    '| ✅ pass | sec#0 | query q | 12 ms |  |',
    '| ❌ halt | sec#1 | query q | 12 ms | a \\| b \\<img src=x\\> \\*c\\* \\[d\\](e) \\`f\\` |',
    '',
    '',
  ].join('\n'));
  assert.equal(githubSummary(at('plan:pre', [], 'plan:pre: no gates'), 'plan:pre: no gates'), '### gsd-check gates run: plan:pre\n\nplan:pre: no gates\n\n');
});

test('a gate with a location is annotated at its file and line, the file as `where` gives it; a point not evaluated is an error', () => {
  const located = row({ status: 'halt', caseStatus: 'failure', gate: 'sec#0', reason: 'is 2', location: { file: 'a,b:c.md', line: 7 } });
  const points: PointRows[] = [
    { point: 'plan:pre', message: 'plan:pre: not evaluated: no hooks', evaluated: false, rows: [] },
    { point: 'ship:pre', message: '', evaluated: true, rows: [located, row({ status: 'advisory', gate: 'sec#1', reason: 'late', location: { file: 'x.md', line: 1 } })] },
  ];
  assert.equal(githubAnnotations(points, (location) => `ws/${location.file}`), [
    '::error title=gsd-check plan%3Apre not evaluated::plan:pre: not evaluated: no hooks',
    '::error file=ws/a%2Cb%3Ac.md,line=7,title=gsd-check ship%3Apre sec#0 [query q] halt::is 2',
    '::warning file=ws/x.md,line=1,title=gsd-check ship%3Apre sec#1 [query q] advisory::late',
    '',
  ].join('\n'));
});

test('the job summary of several points: the run\'s heading and verdict, then each point\'s', () => {
  const points: PointRows[] = [
    { point: 'plan:pre', message: 'plan:pre: passed (1 pass)', evaluated: true, rows: [row({})] },
    { point: 'ship:pre', message: 'ship:pre: no gates', evaluated: true, rows: [] },
  ];
  assert.equal(githubSummary(points, '2 points: passed (1 pass)'), [
    '### gsd-check gates run: 2 points',
    '',
    '2 points: passed (1 pass)',
    '',
    '#### plan:pre',
    '',
    'plan:pre: passed (1 pass)',
    '',
    '| Status | Gate | Check | Time | Reason |',
    '| --- | --- | --- | ---: | --- |',
    '| ✅ pass | sec#0 | query q | 12 ms |  |',
    '',
    '#### ship:pre',
    '',
    'ship:pre: no gates',
    '',
    '',
  ].join('\n'));
});

test('the job summary of several points where one halted: the run names the points that halted, the point its halted gates', () => {
  const points: PointRows[] = [
    { point: 'plan:pre', message: 'plan:pre: passed (1 pass)', evaluated: true, rows: [row({})] },
    { point: 'ship:pre', message: 'ship:pre: halted by sec#1 (sec#1: open)', evaluated: true, rows: [row({ status: 'halt', caseStatus: 'failure', gate: 'sec#1', reason: 'open' })] },
  ];
  const lines = githubSummary(points, '1 of 2 points halted: ship:pre: halted by sec#1 (sec#1: open)').split('\n');
  assert.equal(lines[2], '1 of 2 points halted: ship:pre');
  assert.ok(lines.includes('ship:pre: halted by sec#1'));
  assert.equal(lines.filter((line) => line.includes('open')).length, 1, 'the reason is told once, in its row');
});

test('a cell of the job summary is one line of at most 300 characters', () => {
  const summary = githubSummary(at('ship:pre', [row({ status: 'halt', caseStatus: 'failure', reason: 'x'.repeat(400) })], 'm'), 'm');
  assert.ok(summary.includes(`| ${'x'.repeat(297)}... |`), summary);
});
