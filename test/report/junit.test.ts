import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import fc from 'fast-check';
import type { GateRow, PointRows } from '../../src/report/gate-row.ts';
import { junitReport } from '../../src/report/junit.ts';
import { readJunit, values } from '../helpers/junit-consumer.ts';

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

const at = (point: PointRows['point'], rows: readonly GateRow[]): PointRows[] => [{ point, message: '', evaluated: true, reached: true, rows }];

const ROWS: GateRow[] = [
  row({}),
  row({
    status: 'halt',
    caseStatus: 'failure',
    gate: 'sec#1',
    check: 'predicate command-exit-zero',
    durationMs: 1500,
    reason: 'command exited 3: <a & "b">\nnext',
  }),
  row({ status: 'halt', caseStatus: 'error', gate: 'sec#2', reason: 'query q: exited 2' }),
  row({ status: 'advisory', gate: 'sec#3', reason: 'UI spec missing' }),
  row({ status: 'skipped', caseStatus: 'skipped', gate: 'sec#4', reason: 'onError skip: query q: exited 2' }),
  row({ status: 'inactive', caseStatus: 'skipped', gate: 'sec#5', durationMs: 0, reason: 'inactive: workflow.x is null (set nowhere)' }),
];

test('one testcase per gate: failure, error, skipped with why, advisory in system-out', () => {
  assert.equal(
    junitReport(at('ship:pre', ROWS), 2345),
    `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="gsd-check gates run" tests="6" failures="1" errors="1" skipped="2" time="2.345">
  <testsuite name="ship:pre" tests="6" failures="1" errors="1" skipped="2" time="2.345">
    <testcase classname="sec" name="sec#0 [query q]" time="0.012"/>
    <testcase classname="sec" name="sec#1 [predicate command-exit-zero]" time="1.500">
      <failure message="command exited 3: &lt;a &amp; &quot;b&quot;&gt; next" type="halt">command exited 3: &lt;a &amp; &quot;b&quot;&gt;&#10;next</failure>
    </testcase>
    <testcase classname="sec" name="sec#2 [query q]" time="0.012">
      <error message="query q: exited 2" type="check-failed">query q: exited 2</error>
    </testcase>
    <testcase classname="sec" name="sec#3 [query q]" time="0.012">
      <system-out>advisory: UI spec missing</system-out>
    </testcase>
    <testcase classname="sec" name="sec#4 [query q]" time="0.012">
      <skipped message="onError skip: query q: exited 2"/>
    </testcase>
    <testcase classname="sec" name="sec#5 [query q]" time="0.000">
      <skipped message="inactive: workflow.x is null (set nowhere)"/>
    </testcase>
  </testsuite>
</testsuites>
`,
  );
});

test('a consumer reads it back: valid against the schema, counts and texts as meant', () => {
  const doc = readJunit(junitReport(at('ship:pre', ROWS), 2345));
  assert.deepEqual(values(doc, '/testsuites/testsuite/@name'), ['ship:pre']);
  assert.deepEqual(values(doc, '//testcase/@name').length, 6);
  assert.deepEqual(values(doc, '//failure'), ['command exited 3: <a & "b">\nnext']);
  assert.deepEqual(values(doc, '//failure/@message'), ['command exited 3: <a & "b"> next']);
  assert.deepEqual(values(doc, '//skipped/@message'), ['onError skip: query q: exited 2', 'inactive: workflow.x is null (set nowhere)']);
  doc.dispose();
});

test('no gates: an empty suite, still valid', () => {
  const text = junitReport(at('plan:pre', []), 0);
  assert.match(text, /<testsuite name="plan:pre" tests="0" failures="0" errors="0" skipped="0" time="0.000">/);
  readJunit(text).dispose();
});

test('characters XML 1.0 cannot hold (controls, U+FFFE, lone surrogates) are shown as escapes; those it can, as references', () => {
  const reason = 'a\u0000b\u001b[2Jc\rd\ufffee\ud800f\udc00g\u{1f600}h\u2028i\u007fj\u0085k\u009bl\u202em';
  const report = junitReport(at('ship:pre', [row({ status: 'halt', caseStatus: 'failure', capability: 'x\u0007', reason })]), 1);
  assert.ok(report.includes('c&#13;d'), report);
  assert.ok(report.includes('i&#127;j&#133;k&#155;l'), report);
  const doc = readJunit(report);
  assert.deepEqual(values(doc, '//failure'), ['a\\x00b\\x1b[2Jc\rd\\ufffee\\ud800f\\udc00g\u{1f600}h\u2028i\u007fj\u0085k\u009bl\\u202em']);
  assert.deepEqual(values(doc, '//testcase/@classname'), ['x\\x07']);
  doc.dispose();
  // The last C1 control is a reference too; the no-break space after it is text.
  assert.ok(junitReport(at('ship:pre', [row({ status: 'halt', caseStatus: 'failure', reason: 'p\u009fq\u00a0r' })]), 1).includes('p&#159;q\u00a0r'));
});

test("a failure's message attribute holds the reason on one line, cut to 200 characters; its text holds the whole", () => {
  const report = junitReport(at('ship:pre', [row({ status: 'halt', caseStatus: 'failure', reason: 'x'.repeat(250) })]), 1);
  assert.ok(report.includes(`message="${'x'.repeat(197)}..."`), report);
  assert.ok(report.includes(`>${'x'.repeat(250)}<`), report);
});

// A gate's output must not choose whole lines of the file the report is
// written into (through a link, ~/.ssh/authorized_keys once held the
// attacker's key alone): whatever the values, the report has the lines its
// structure gives, each value on the line of its element.
test('no value, in an attribute or in text, starts a line of the file: newlines and every control character are references or escapes', () => {
  const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 30 });
  fc.assert(
    fc.property(anyText, anyText, anyText, (capability, gate, reason) => {
      const rows = [row({ capability, gate, status: 'halt', caseStatus: 'failure', reason }), row({ capability, gate, status: 'advisory', reason })];
      const plain = [row({ status: 'halt', caseStatus: 'failure', reason: 'x' }), row({ status: 'advisory', reason: 'x' })];
      const lines = junitReport(at('ship:pre', rows), 1).split('\n');
      assert.equal(lines.length, junitReport(at('ship:pre', plain), 1).split('\n').length);
      for (const line of lines) assert.doesNotMatch(line, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    }),
    { numRuns: 300 },
  );
});

// Any text at all, in every field a gate's author or its command controls,
// gives a report the consumer accepts, whose values read back as written
// (newlines, tabs and quotes in attributes included).
test('any text in any field: well-formed, valid, and read back', () => {
  const text = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 30 });
  const printableText = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\t', '"', "'", '<', '>', '&', ']]>', 'é', '\u{1f600}'), maxLength: 20 });
  fc.assert(
    fc.property(
      text,
      text,
      printableText,
      fc.constantFrom<GateRow['caseStatus']>('passed', 'failure', 'error', 'skipped'),
      (capability, reason, plain, caseStatus) => {
        const status = caseStatus === 'failure' || caseStatus === 'error' ? 'halt' : caseStatus === 'skipped' ? 'skipped' : 'advisory';
        const doc = readJunit(
          junitReport(
            at('ship:pre', [row({ capability, reason, status, caseStatus }), row({ capability: plain, status: 'halt', caseStatus: 'failure', reason: plain })]),
            5,
          ),
        );
        assert.deepEqual(values(doc, '//testcase/@classname')[1], plain);
        assert.deepEqual(values(doc, '//failure').at(-1), plain);
        doc.dispose();
      },
    ),
    { numRuns: 300 },
  );
});

test("several points: a <testsuite> each with its own counts and its gates' time; a point not evaluated is a suite of one <error>", () => {
  const points: PointRows[] = [
    {
      point: 'plan:pre',
      message: '',
      evaluated: true,
      reached: true,
      rows: [row({ durationMs: 250 }), row({ gate: 'sec#1', durationMs: 750, status: 'halt', caseStatus: 'failure', reason: 'no' })],
    },
    { point: 'ship:pre', message: 'ship:pre: not evaluated: no hooks', evaluated: false, reached: true, rows: [] },
  ];
  assert.equal(
    junitReport(points, 1200),
    `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="gsd-check gates run" tests="3" failures="1" errors="1" skipped="0" time="1.200">
  <testsuite name="plan:pre" tests="2" failures="1" errors="0" skipped="0" time="1.000">
    <testcase classname="sec" name="sec#0 [query q]" time="0.250"/>
    <testcase classname="sec" name="sec#1 [query q]" time="0.750">
      <failure message="no" type="halt">no</failure>
    </testcase>
  </testsuite>
  <testsuite name="ship:pre" tests="1" failures="0" errors="1" skipped="0" time="0.000">
    <testcase classname="gsd-check" name="ship:pre [not evaluated]" time="0.000">
      <error message="ship:pre: not evaluated: no hooks" type="check-failed">ship:pre: not evaluated: no hooks</error>
    </testcase>
  </testsuite>
</testsuites>
`,
  );
  const doc = readJunit(junitReport(points, 1200));
  assert.deepEqual(values(doc, '/testsuites/testsuite/@name'), ['plan:pre', 'ship:pre']);
  doc.dispose();
});

test('the phase --reached gated names the run and is a property of every suite, escaped as any attribute', () => {
  const phase = 'phase 04 (STATE.md names 05, which has reached no point; 04 is complete) <&>';
  const report = junitReport([...at('plan:pre', []), ...at('ship:pre', [row({})])], 10, [['phase', phase]], phase);
  const doc = readJunit(report);
  assert.ok(
    report.includes('<testsuites name="gsd-check gates run: phase 04 (STATE.md names 05, which has reached no point; 04 is complete) &lt;&amp;&gt;" '),
    report,
  );
  assert.equal(
    report.split('<property name="phase" value="phase 04 (STATE.md names 05, which has reached no point; 04 is complete) &lt;&amp;&gt;"/>').length,
    3,
  );
  assert.ok(doc !== undefined);
  assert.ok(junitReport(at('ship:pre', []), 1).includes('<testsuites name="gsd-check gates run" '));
});
