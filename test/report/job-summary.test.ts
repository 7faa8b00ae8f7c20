import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import type { GateRow, PointRows } from '../../src/report/gate-row.ts';
import { githubSummary } from '../../src/report/job-summary.ts';

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

const point = (name: PointRows['point'], rows: readonly GateRow[], message = ''): PointRows => ({ point: name, message, evaluated: true, reached: true, rows });
const none = { link: () => undefined, dropped: [] };

test('the job summary: heading, the verdict naming the halted gates (the Reason column says why), the halted rows first, Markdown that text cannot break', () => {
  const message = 'ship:pre: halted by sec#1 (sec#1: a | b)';
  const summary = githubSummary(
    [point('ship:pre', [row({}), row({ status: 'halt', caseStatus: 'failure', gate: 'sec#1', reason: 'a | b\n<img src=x> *c* [d](e) `f`' })], message)],
    message,
    none,
  );
  assert.equal(
    summary,
    [
      '### gsd-check gates run: ship:pre',
      '',
      'ship:pre: halted by sec#1',
      '',
      '| Status | Gate | Check | Time | Reason |',
      '| --- | --- | --- | ---: | --- |',
      '| ❌ halt | sec#1 | query q | 12 ms | a \\| b \\<img src=x\\> \\*c\\* \\[d\\](e) \\`f\\` |',
      '| ✅ pass | sec#0 | query q | 12 ms |  |',
      '',
      '',
    ].join('\n'),
  );
  assert.equal(
    githubSummary([point('plan:pre', [], 'plan:pre: no gates')], 'plan:pre: no gates', none),
    '### gsd-check gates run: plan:pre\n\nplan:pre: no gates\n\n',
  );
});

test('several points: the halted ones first and open, the passing and empty ones folded, the ones not reached listed with why', () => {
  const points: PointRows[] = [
    point('plan:pre', [row({})], 'plan:pre: passed (1 pass)'),
    { point: 'plan:post', message: 'plan:post: not reached: no plan', evaluated: true, reached: false, rows: [] },
    point('ship:pre', [row({ status: 'halt', caseStatus: 'failure', gate: 'sec#1', reason: 'open' })], 'ship:pre: halted by sec#1 (sec#1: open)'),
    point('verify:pre', [], 'verify:pre: no gates'),
  ];
  const summary = githubSummary(points, '1 of 3 points reached (of 4) halted: ship:pre: halted by sec#1 (sec#1: open)', none);
  assert.equal(
    summary,
    [
      '### gsd-check gates run: 4 points',
      '',
      '1 of 3 points reached (of 4) halted: ship:pre',
      '',
      '#### ship:pre',
      '',
      'ship:pre: halted by sec#1',
      '',
      '| Status | Gate | Check | Time | Reason |',
      '| --- | --- | --- | ---: | --- |',
      '| ❌ halt | sec#1 | query q | 12 ms | open |',
      '',
      '<details>',
      '<summary>plan:pre: passed (1 pass)</summary>',
      '',
      '| Status | Gate | Check | Time | Reason |',
      '| --- | --- | --- | ---: | --- |',
      '| ✅ pass | sec#0 | query q | 12 ms |  |',
      '',
      '</details>',
      '',
      '<details>',
      '<summary>verify:pre: no gates</summary>',
      '',
      '</details>',
      '',
      '<details>',
      '<summary>1 not reached</summary>',
      '',
      '- plan:post: not reached: no plan',
      '',
      '</details>',
      '',
      '',
    ].join('\n'),
  );
  assert.equal(summary.split('\n').filter((line) => line.includes('open')).length, 1, 'the reason is told once, in its row');
});

test('a located gate links to its line where the run knows the address; which GSD decided; annotations GitHub would not show', () => {
  const located = row({ status: 'halt', caseStatus: 'failure', location: { file: '.planning/04-SECURITY.md', line: 3 } });
  const summary = githubSummary([point('ship:pre', [located, row({ gate: 'sec#1' })], 'm')], 'm', {
    gsd: { found: '/repo/gsd-core/bin/gsd-tools.cjs', version: '1.11.0', tested: false },
    link: (location) => `https://github.com/o/r/blob/${'a'.repeat(40)}/${location.file}#L${location.line}`,
    dropped: ['5 more halts than the 10 error annotations GitHub shows a step were not annotated'],
  });
  const lines = summary.split('\n');
  assert.ok(lines.includes('Rendered by GSD 1.11.0 at /repo/gsd-core/bin/gsd-tools.cjs, not a version gsd-check is tested with'), summary);
  assert.ok(lines.includes('5 more halts than the 10 error annotations GitHub shows a step were not annotated'), summary);
  assert.ok(lines.includes('| Status | Gate | Check | Time | Reason | Where |'), summary);
  assert.ok(
    lines.includes(
      `| ❌ halt | sec#0 | query q | 12 ms |  | [.planning/04-SECURITY.md:3](https://github.com/o/r/blob/${'a'.repeat(40)}/.planning/04-SECURITY.md#L3) |`,
    ),
    summary,
  );
  assert.ok(lines.includes('| ✅ pass | sec#1 | query q | 12 ms |  |  |'), summary);
  const builtin = githubSummary([point('ship:pre', [], 'm')], 'm', { ...none, gsd: { found: null, version: null, tested: false, registry: '1.14.0' } });
  assert.ok(builtin.includes("GSD 1.14.0's built-in gates; no GSD found where gsd\\_run looks"), builtin);
});

test('a cell of the job summary is one line of at most 300 characters', () => {
  const summary = githubSummary([point('ship:pre', [row({ status: 'halt', caseStatus: 'failure', reason: 'x'.repeat(400) })], 'm')], 'm', none);
  assert.ok(summary.includes(`| ${'x'.repeat(297)}... |`), summary);
});

test('the heading names the phase --reached gated, as Markdown text', () => {
  const phase = 'phase 04 (STATE.md names 05, which has reached no point; 04 is complete)';
  assert.ok(
    githubSummary([point('plan:pre', [], 'm'), point('ship:pre', [], 'm')], 'm', { ...none, phase }).startsWith(
      `### gsd-check gates run: ${phase}, 2 points\n`,
    ),
  );
  assert.ok(githubSummary([point('ship:pre', [], 'm')], 'm', { ...none, phase: 'phase *4*' }).startsWith('### gsd-check gates run: phase \\*4\\*, ship:pre\n'));
});

test("the point GSD's loop evaluates next is said under the heading, with what it waits for; none when the loop has none left", () => {
  const next = { point: 'verify:pre', why: 'verify-work has not run (no UAT.md it wrote)' };
  const summary = githubSummary([point('plan:pre', [], 'm'), point('ship:pre', [], 'm')], 'm', { ...none, phase: 'phase 04', next });
  assert.ok(summary.includes("\n\nNext in GSD's loop: verify:pre, not reached: verify-work has not run (no UAT.md it wrote)\n\n"), summary);
  assert.equal(githubSummary([point('ship:pre', [], 'm')], 'm', { ...none, next: null }).includes('Next'), false);
});
