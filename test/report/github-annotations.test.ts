import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import type { GateRow, PointRows } from '../../src/report/gate-row.ts';
import { droppedAnnotations, githubAnnotations } from '../../src/report/github-annotations.ts';
import { workflowCommands } from '../helpers/workflow-commands.ts';

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

const at = (point: PointRows['point'], rows: readonly GateRow[], message = ''): PointRows[] => [{ point, message, evaluated: true, reached: true, rows }];
const asGiven = (location: { file: string }): string => location.file;

const ROWS: GateRow[] = [
  row({}),
  row({ status: 'advisory', gate: 'a,b:c#2', reason: 'UI spec missing' }),
  row({ status: 'halt', caseStatus: 'failure', gate: 'sec#1', reason: '100% of 2:\r\nthreats, open' }),
  row({ status: 'skipped', caseStatus: 'skipped', gate: 'sec#3', reason: 'onError skip: exited 2' }),
  row({ status: 'inactive', caseStatus: 'skipped', gate: 'sec#4', reason: 'inactive: workflow.x is false' }),
];

test('an error per halted gate, a warning per advisory, a notice per skipped, the halts first: GitHub escaping in data and properties', () => {
  assert.deepEqual(githubAnnotations(at('ship:pre', ROWS), asGiven), {
    commands: [
      '::error title=gsd-check ship%3Apre sec#1 [query q] halt::100%25 of 2:%0D%0Athreats, open',
      '::warning title=gsd-check ship%3Apre a%2Cb%3Ac#2 [query q] advisory::UI spec missing',
      '::notice title=gsd-check ship%3Apre sec#3 [query q] skipped::onError skip: exited 2',
      '',
    ].join('\n'),
    dropped: { error: 0, warning: 0, notice: 0 },
  });
  assert.equal(githubAnnotations(at('ship:pre', [row({})]), asGiven).commands, '');
});

test('a command cannot forge a workflow command or drive the log: no raw newline or control character', () => {
  const out = githubAnnotations(at('ship:pre', [row({ status: 'halt', caseStatus: 'failure', reason: 'x\n::add-mask::secret\u001b[2J' })]), asGiven).commands;
  assert.equal(out, '::error title=gsd-check ship%3Apre sec#0 [query q] halt::x%0A::add-mask::secret\\x1b[2J\n');
});

test('a gate with a location is annotated at its file and line, the file as `where` gives it; a point not evaluated is an error, one not reached none', () => {
  const located = row({ status: 'halt', caseStatus: 'failure', gate: 'sec#0', reason: 'is 2', location: { file: 'a,b:c.md', line: 7 } });
  const points: PointRows[] = [
    { point: 'plan:pre', message: 'plan:pre: not evaluated: no hooks', evaluated: false, reached: true, rows: [] },
    { point: 'plan:post', message: 'plan:post: not reached: no plan', evaluated: true, reached: false, rows: [] },
    {
      point: 'ship:pre',
      message: '',
      evaluated: true,
      reached: true,
      rows: [located, row({ status: 'advisory', gate: 'sec#1', reason: 'late', location: { file: 'x.md', line: 1 } })],
    },
  ];
  assert.equal(
    githubAnnotations(points, (location) => `ws/${location.file}`).commands,
    [
      '::error title=gsd-check plan%3Apre not evaluated::plan:pre: not evaluated: no hooks',
      '::error file=ws/a%2Cb%3Ac.md,line=7,title=gsd-check ship%3Apre sec#0 [query q] halt::is 2',
      '::warning file=ws/x.md,line=1,title=gsd-check ship%3Apre sec#1 [query q] advisory::late',
      '',
    ].join('\n'),
  );
});

test('at most ten annotations of each level, as GitHub shows a step: the rest counted, and said in one line each', () => {
  const many = (status: 'halt' | 'advisory' | 'skipped', n: number) =>
    Array.from({ length: n }, (_, i) => row({ status, gate: `${status}#${i}`, reason: 'r' }));
  const annotated = githubAnnotations(at('ship:pre', [...many('advisory', 12), ...many('halt', 15), ...many('skipped', 10)]), asGiven);
  const commands = workflowCommands(annotated.commands);
  assert.deepEqual(
    ['error', 'warning', 'notice'].map((level) => commands.filter((c) => c.command === level).length),
    [10, 10, 10],
  );
  // The first ten halts, in order, and before any warning.
  assert.deepEqual(
    commands.slice(0, 10).map((c) => c.properties.title),
    Array.from({ length: 10 }, (_, i) => `gsd-check ship:pre halt#${i} [query q] halt`),
  );
  assert.deepEqual(annotated.dropped, { error: 5, warning: 2, notice: 0 });
  assert.deepEqual(droppedAnnotations(annotated.dropped), [
    '5 more halts than the 10 error annotations GitHub shows a step were not annotated: every gate is in the envelope and the job summary',
    '2 more advisories than the 10 warning annotations GitHub shows a step were not annotated: every gate is in the envelope and the job summary',
  ]);
  assert.deepEqual(droppedAnnotations({ error: 0, warning: 0, notice: 1 }), [
    '1 more skipped gates than the 10 notice annotations GitHub shows a step were not annotated: every gate is in the envelope and the job summary',
  ]);
});
