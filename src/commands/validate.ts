import { EXIT_NO } from '../failure.ts';
import { cut, fewOf, visible } from '../text/format.ts';
import { checkManifest, type ManifestReport } from '../gates/manifest.ts';
import type { ManifestIssue } from '../gates/manifest-fields.ts';
import { BUILT_IN_VERSION } from '../gsd/identity.ts';
import { KINDS } from '../kinds/table.ts';
import type { ValidateOptions } from '../cli/command-line.ts';
import { argumentPath } from './argument-path.ts';
import { readJson } from '../json/parse.ts';
import { textInput } from '../io/input.ts';
import { installedFolder } from '../project/installed-capabilities.ts';
import type { CliDeps } from './deps.ts';
import { failureReply, type Reply } from './reply.ts';

// How many issues of one file are told, and how long a path or a message
// may be: a hostile manifest (thousands of keys, a key of a megabyte) must
// not make an output many times its own size. The rest are counted.
const SHOWN_ISSUES = 100;
const ISSUE_TEXT_MAX = 1000;

// GSD's loader decodes a capability.json with a byte order mark kept, and
// JSON.parse refuses the mark.
const BOM = '\uFEFF';
const BOM_ISSUE = "the file starts with a UTF-8 byte order mark (EF BB BF), which GSD's loader cannot parse as JSON: save it without one";

interface FileReport {
  readonly file: string;
  readonly valid: boolean;
  readonly gates: number;
  // Whether GSD would load it; null where gsd-check cannot tell.
  readonly gsdLoads: boolean | null;
  readonly issues: readonly { readonly path: string; readonly message: string; readonly gsdRefuses: boolean }[];
  // How many issues there are beyond those told.
  readonly moreIssues: number;
}

interface Checked {
  readonly file: FileReport;
  readonly unchecked: ManifestReport['unchecked'];
  // Where the issues are for which GSD would not load it, every one.
  readonly refusedAt: readonly string[];
}

// Checks capability manifests up front, as GSD checks one before it loads
// it and as gates run reads its gates, reporting every issue with its JSON
// path: EXIT_NO when any file has one, and a file that cannot be read
// stops the run as its failure.
export async function validate(options: ValidateOptions, deps: CliDeps): Promise<Reply> {
  const reports: Checked[] = [];
  for (const file of options.files) {
    const path = argumentPath(file, undefined, deps.cwd);
    if (!path.ok) return failureReply(path.failure, options.jsonErrors);
    const text = await textInput(deps.readInput, path.value, file === '-' ? 'standard input' : `capability file ${file}`, 'keep');
    if (!text.ok) return failureReply(text.failure, options.jsonErrors);
    reports.push(checked(file, manifestReport(text.value, file === '-' ? undefined : installedFolder(path.value))));
  }
  const valid = reports.every((r) => r.file.valid);
  const stdout = options.json ? `${JSON.stringify({ valid, files: reports.map((r) => r.file) })}\n` : reports.flatMap(lines).join('\n') + '\n';
  return { exitCode: valid ? 0 : EXIT_NO, stdout, stderr: '' };
}

// The file as GSD's loader reads it. Text JSON.parse refuses GSD cannot
// read either; past a byte order mark, the rest is checked as if it had
// none, so that the gates GSD would not load are counted.
function manifestReport(text: string, folder: string | undefined): ManifestReport {
  const bom = text.startsWith(BOM);
  const json = readJson(bom ? text.slice(BOM.length) : text, 'the file');
  const report: ManifestReport = json.ok
    ? withDuplicate(checkManifest(json.value.value, KINDS, folder), json.value.duplicate)
    : { gates: 0, issues: [{ path: '', message: json.failure.message, refuses: true }], loads: false, unchecked: undefined };
  return bom ? { ...report, issues: [{ path: '', message: BOM_ISSUE, refuses: true }, ...report.issues], loads: false } : report;
}

// A key given twice is gsd-check's issue; GSD reads the last value, and so
// is the rest checked.
function withDuplicate(report: ManifestReport, duplicate: { key: string; at: string } | undefined): ManifestReport {
  if (duplicate === undefined) return report;
  const issue: ManifestIssue = {
    path: duplicate.at,
    message: 'is given twice: which one counts is ambiguous (GSD reads the last, as the rest of this check does)',
    refuses: false,
  };
  return { ...report, issues: [issue, ...report.issues] };
}

function checked(file: string, report: ManifestReport): Checked {
  const told = report.issues
    .slice(0, SHOWN_ISSUES)
    .map(({ path, message, refuses }) => ({ path: cut(path, ISSUE_TEXT_MAX), message: cut(message, ISSUE_TEXT_MAX), gsdRefuses: refuses }));
  const refusedAt = [...new Set(report.issues.filter((i) => i.refuses).map((i) => (i.path === '' ? 'the file' : i.path)))];
  const moreIssues = report.issues.length - told.length;
  return {
    file: { file, valid: report.issues.length === 0, gates: report.gates, gsdLoads: report.loads ?? null, issues: told, moreIssues },
    unchecked: report.unchecked,
    refusedAt,
  };
}

function lines({ file: report, unchecked, refusedAt }: Checked): string[] {
  const { file, gates } = report;
  const counted = `${gates} ${gates === 1 ? 'gate' : 'gates'}`;
  if (report.valid) return [visible(`${file}: valid (${counted}${unchecked === undefined ? '' : `; its ${unchecked} body is not checked`})`)];
  const out = report.issues.map((issue) => visible(issue.path === '' ? `${file}: ${issue.message}` : `${file}: ${issue.path}: ${issue.message}`));
  if (report.moreIssues > 0) out.push(visible(`${file}: and ${report.moreIssues} more ${report.moreIssues === 1 ? 'issue' : 'issues'}, not told`));
  if (report.gsdLoads === false) {
    const lost = gates === 0 ? '' : gates === 1 ? ', so its gate would not be enforced' : `, so none of its ${counted} would be enforced`;
    out.push(visible(`${file}: GSD ${BUILT_IN_VERSION} would not load this capability (for ${fewOf(refusedAt)})${lost}`));
  }
  return out;
}
