import type { LoopPoint } from '../gates/activation.ts';
import { oneLine, visible } from '../text/format.ts';
import type { GateRow } from './gate-row.ts';

// GitHub Actions' workflow commands for a point's gates: an error annotation
// per halted gate, a warning per advisory, a notice per gate skipped because
// its check failed (a check that said nothing should not pass unseen).
// Inactive and passing gates make none.
export function githubAnnotations(point: LoopPoint, rows: readonly GateRow[]): string {
  const lines = rows.flatMap((row) => {
    const level = row.status === 'halt' ? 'error' : row.status === 'advisory' ? 'warning' : row.status === 'skipped' ? 'notice' : undefined;
    if (level === undefined) return [];
    const title = `gsd-check ${point} ${row.gate} [${row.check}] ${row.status}`;
    return [`::${level} title=${property(title)}::${data(row.reason === '' ? row.status : row.reason)}`];
  });
  return lines.map((line) => `${line}\n`).join('');
}

// GitHub's escaping of a command's message: %, CR and LF; other control
// characters, which would drive the log's terminal, are shown as escapes.
function data(value: string): string {
  return visible(value.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A'));
}

// A property value also escapes the separators of the property list.
function property(value: string): string {
  return data(value).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

// The job summary's Markdown ($GITHUB_STEP_SUMMARY): a heading, the
// envelope's message, and a table of every gate.
export function githubSummary(point: LoopPoint, rows: readonly GateRow[], message: string): string {
  const table = rows.map((row) =>
    `| ${ICON[row.status]} ${row.status} | ${cell(row.gate)} | ${cell(row.check)} | ${row.durationMs} ms | ${cell(row.reason)} |`,
  );
  return [
    `### gsd-check gates run: ${cell(point)}`,
    '',
    cell(message),
    '',
    ...(rows.length === 0 ? [] : ['| Status | Gate | Check | Time | Reason |', '| --- | --- | --- | ---: | --- |', ...table, '']),
  ].join('\n') + '\n';
}

const ICON = { pass: '✅', advisory: '⚠️', halt: '❌', skipped: '⏭️', inactive: '➖' } as const;

// One line, every ASCII punctuation mark backslash-escaped (CommonMark
// allows it for any), so that text from a gate can neither end a cell nor
// make a link, an HTML tag or emphasis.
function cell(value: string): string {
  return visible(oneLine(value, 300)).replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`);
}
