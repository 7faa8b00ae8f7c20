import { oneLine, printable } from '../text/format.ts';
import type { GateRow, PointRows } from './gate-row.ts';

// A run's gates as a JUnit XML report, the dialect GitLab, Jenkins and the
// GitHub test reporters read: one <testsuite> per loop point, one
// <testcase> per gate (classname the capability, name the gate and its
// check), a halt by the check's verdict as <failure>, a check that could not
// be evaluated as <error>, skipped and inactive gates as <skipped> with why,
// and an advisory as a passing case whose message is in <system-out>. A
// point that could not be evaluated is a suite of one <error>.
export function junitReport(points: readonly PointRows[], elapsedMs: number): string {
  const suites = points.map((point) => ({ point, cases: casesOf(point) }));
  const all = suites.flatMap((suite) => suite.cases);
  // One point's suite took the run's time; several ran in one pool, so each
  // is given the time its own gates took.
  const time = (cases: readonly Case[]): number => (suites.length === 1 ? elapsedMs : cases.reduce((sum, c) => sum + c.durationMs, 0));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="gsd-check gates run" ${totals(all, elapsedMs)}>`,
    ...suites.flatMap(({ point, cases }) => [
      `  <testsuite name=${attr(point.point)} ${totals(cases, time(cases))}>`,
      ...cases.flatMap(testcase),
      '  </testsuite>',
    ]),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

// A test case: a gate's row, or the error of a point with none.
type Case = Pick<GateRow, 'outcome' | 'status' | 'capability' | 'gate' | 'check' | 'durationMs' | 'reason'>;

function casesOf(point: PointRows): readonly Case[] {
  if (point.evaluated) return point.rows;
  return [{ outcome: 'error', status: 'halt', capability: 'gsd-check', gate: point.point, check: 'not evaluated', durationMs: 0, reason: point.message }];
}

function totals(cases: readonly Case[], ms: number): string {
  const count = (outcome: GateRow['outcome']): number => cases.filter((c) => c.outcome === outcome).length;
  return `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${seconds(ms)}"`;
}

function testcase(row: Case): string[] {
  const open = `    <testcase classname=${attr(row.capability)} name=${attr(`${row.gate} [${row.check}]`)} time="${seconds(row.durationMs)}"`;
  const message = attr(oneLine(row.reason, 200));
  switch (row.outcome) {
    case 'failure':
      return [`${open}>`, `      <failure message=${message} type="halt">${text(row.reason)}</failure>`, '    </testcase>'];
    case 'error':
      return [`${open}>`, `      <error message=${message} type="check-failed">${text(row.reason)}</error>`, '    </testcase>'];
    case 'skipped':
      return [`${open}>`, `      <skipped message=${message}/>`, '    </testcase>'];
    case 'passed':
      return row.status === 'advisory'
        ? [`${open}>`, `      <system-out>${text(`advisory: ${row.reason}`)}</system-out>`, '    </testcase>']
        : [`${open}/>`];
  }
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

// XML 1.0 allows no control character but tab, newline and carriage return,
// no U+FFFE/U+FFFF and no lone surrogate, not even as a character reference:
// each is written as a visible escape (\x1b, \ud800), as on stderr.
function xmlSafe(value: string): string {
  return printable(value).replace(/[\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function text(value: string): string {
  return xmlSafe(value).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

// Quoted, with newlines and tabs as character references: a parser would
// otherwise normalise them to spaces.
function attr(value: string): string {
  return `"${text(value).replaceAll('"', '&quot;').replaceAll('\n', '&#10;').replaceAll('\t', '&#9;')}"`;
}
