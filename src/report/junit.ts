import { oneLine, visible } from '../text/format.ts';
import type { GateRow, PointRows } from './gate-row.ts';

// A run's gates as a JUnit XML report, the dialect GitLab, Jenkins and the
// GitHub test reporters read: one <testsuite> per loop point, one
// <testcase> per gate (classname the capability, name the gate and its
// check), a halt by the check's verdict as <failure>, a check that could not
// be evaluated as <error>, skipped and inactive gates as <skipped> with why,
// and an advisory as a passing case whose message is in <system-out>. A
// point that could not be evaluated is a suite of one <error>; a point
// --reached left out, a suite of one <skipped> saying why. `properties`
// (which phase --reached gated, which GSD decided) are every suite's, and
// the phase names the run.
export function junitReport(points: readonly PointRows[], elapsedMs: number, properties: readonly (readonly [string, string])[] = [], phase?: string): string {
  const suites = points.map((point) => ({ point, cases: casesOf(point) }));
  const all = suites.flatMap((suite) => suite.cases);
  // One point's suite took the run's time; several ran in one pool, so each
  // is given the time its own gates took.
  const time = (cases: readonly Case[]): number => (suites.length === 1 ? elapsedMs : cases.reduce((sum, c) => sum + c.durationMs, 0));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name=${attr(phase === undefined ? 'gsd-check gates run' : `gsd-check gates run: ${phase}`)} ${totals(all, elapsedMs)}>`,
    ...suites.flatMap(({ point, cases }) => [
      `  <testsuite name=${attr(point.point)} ${totals(cases, time(cases))}>`,
      ...(properties.length === 0
        ? []
        : ['    <properties>', ...properties.map(([name, value]) => `      <property name=${attr(name)} value=${attr(value)}/>`), '    </properties>']),
      ...cases.flatMap(testcase),
      '  </testsuite>',
    ]),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

// A test case: a gate's row, or the error of a point with none.
type Case = Pick<GateRow, 'caseStatus' | 'status' | 'capability' | 'gate' | 'check' | 'durationMs' | 'reason'>;

function casesOf(point: PointRows): readonly Case[] {
  if (!point.reached)
    return [
      { caseStatus: 'skipped', status: 'inactive', capability: 'gsd-check', gate: point.point, check: 'not reached', durationMs: 0, reason: point.message },
    ];
  if (point.evaluated) return point.rows;
  return [{ caseStatus: 'error', status: 'halt', capability: 'gsd-check', gate: point.point, check: 'not evaluated', durationMs: 0, reason: point.message }];
}

function totals(cases: readonly Case[], ms: number): string {
  const count = (status: GateRow['caseStatus']): number => cases.filter((c) => c.caseStatus === status).length;
  return `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${seconds(ms)}"`;
}

function testcase(row: Case): string[] {
  const open = `    <testcase classname=${attr(row.capability)} name=${attr(`${row.gate} [${row.check}]`)} time="${seconds(row.durationMs)}"`;
  const message = attr(oneLine(row.reason, 200));
  switch (row.caseStatus) {
    case 'failure':
      return [`${open}>`, `      <failure message=${message} type="halt">${text(row.reason)}</failure>`, '    </testcase>'];
    case 'error':
      return [`${open}>`, `      <error message=${message} type="check-failed">${text(row.reason)}</error>`, '    </testcase>'];
    case 'skipped':
      return [`${open}>`, `      <skipped message=${message}/>`, '    </testcase>'];
    case 'passed':
      return row.status === 'advisory' ? [`${open}>`, `      <system-out>${text(`advisory: ${row.reason}`)}</system-out>`, '    </testcase>'] : [`${open}/>`];
  }
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

// Every value, in attributes and text alike, is one line of the file: tab,
// newlines (U+2028 and U+2029 too) and the control characters XML 1.0
// allows (DEL, C1) become
// character references, so no gate's output can choose whole lines of the
// file it is written into (a replaced ~/.ssh/authorized_keys held one key:
// the attacker's). The control characters XML 1.0 forbids even as a
// reference, U+FFFE, U+FFFF and lone surrogates are written as visible
// escapes (\x1b, \ud800), as on stderr, and so are the bidirectional
// overrides that would reorder what a reader sees.
const SPECIAL =
  /[&<>"\t\n\r\u007f-\u009f\u2028\u2029]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function text(value: string): string {
  return value.replace(SPECIAL, (c) => {
    const code = c.charCodeAt(0);
    if (ENTITY[c] !== undefined) return ENTITY[c];
    if (c === '\t' || c === '\n' || c === '\r' || (code >= 0x7f && code <= 0x9f) || c === '\u2028' || c === '\u2029') return `&#${code};`;
    // visible() escapes the controls and overrides; the rest it leaves.
    const shown = visible(c);
    return shown !== c ? shown : `\\u${code.toString(16)}`;
  });
}

function attr(value: string): string {
  return `"${text(value)}"`;
}
