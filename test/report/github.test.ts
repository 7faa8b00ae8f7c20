import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GateRow } from '../../src/report/gate-row.ts';
import { githubAnnotations, githubSummary } from '../../src/report/github.ts';

const row = (fields: Partial<GateRow>): GateRow => ({
  status: 'pass', outcome: 'passed', capability: 'sec', gate: 'sec#0', check: 'query q', durationMs: 12, reason: '', ...fields,
});

const ROWS: GateRow[] = [
  row({}),
  row({ status: 'halt', outcome: 'failure', gate: 'sec#1', reason: '100% of 2:\r\nthreats, open' }),
  row({ status: 'advisory', gate: 'a,b:c#2', reason: 'UI spec missing' }),
  row({ status: 'skipped', outcome: 'skipped', gate: 'sec#3', reason: 'onError skip: exited 2' }),
  row({ status: 'inactive', outcome: 'skipped', gate: 'sec#4', reason: 'inactive: workflow.x is false' }),
];

test('an error per halted gate, a warning per advisory, a notice per skipped: GitHub escaping in data and properties', () => {
  assert.equal(githubAnnotations('ship:pre', ROWS), [
    '::error title=gsd-check ship%3Apre sec#1 [query q] halt::100%25 of 2:%0D%0Athreats, open',
    '::warning title=gsd-check ship%3Apre a%2Cb%3Ac#2 [query q] advisory::UI spec missing',
    '::notice title=gsd-check ship%3Apre sec#3 [query q] skipped::onError skip: exited 2',
    '',
  ].join('\n'));
  assert.equal(githubAnnotations('ship:pre', [row({})]), '');
});

test('a command cannot forge a workflow command or drive the log: no raw newline or control character', () => {
  const out = githubAnnotations('ship:pre', [row({ status: 'halt', outcome: 'failure', reason: 'x\n::add-mask::secret\u001b[2J' })]);
  assert.equal(out, '::error title=gsd-check ship%3Apre sec#0 [query q] halt::x%0A::add-mask::secret\\x1b[2J\n');
});

test('the job summary: heading, message, one row per gate, Markdown that text cannot break', () => {
  const summary = githubSummary('ship:pre', [ROWS[0]!, row({ status: 'halt', outcome: 'failure', gate: 'sec#1', reason: 'a | b\n<img src=x> *c* [d](e) `f`' })], 'ship:pre: halted by sec#1');
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
  assert.equal(githubSummary('plan:pre', [], 'plan:pre: no gates'), '### gsd-check gates run: plan:pre\n\nplan:pre: no gates\n\n');
});
