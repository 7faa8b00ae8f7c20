import { EXIT_NO } from '../failure.ts';
import { fewOf, visible } from '../text/format.ts';
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

interface FileReport {
  readonly file: string;
  readonly valid: boolean;
  readonly gates: number;
  // Whether GSD would load it; null where gsd-check cannot tell.
  readonly gsdLoads: boolean | null;
  readonly issues: readonly { readonly path: string; readonly message: string; readonly gsdRefuses: boolean }[];
}

// Checks capability manifests up front, as GSD checks one before it loads
// it and as gates run reads its gates, reporting every issue with its JSON
// path: EXIT_NO when any file has one, and a file that cannot be read
// stops the run as its failure.
export async function validate(options: ValidateOptions, deps: CliDeps): Promise<Reply> {
  const reports: { file: FileReport; unchecked: ManifestReport['unchecked'] }[] = [];
  for (const file of options.files) {
    const path = argumentPath(file, undefined, deps.cwd);
    if (!path.ok) return failureReply(path.failure, options.jsonErrors);
    const text = await textInput(deps.readInput, path.value, file === '-' ? 'standard input' : `capability file ${file}`);
    if (!text.ok) return failureReply(text.failure, options.jsonErrors);
    const json = readJson(text.value, 'the file');
    // Text JSON.parse refuses GSD cannot read either.
    const report: ManifestReport = json.ok
      ? withDuplicate(checkManifest(json.value.value, KINDS, file === '-' ? undefined : installedFolder(path.value)), json.value.duplicate)
      : { gates: 0, issues: [{ path: '', message: json.failure.message, refuses: true }], loads: false, unchecked: undefined };
    const issues = report.issues.map(({ path, message, refuses }) => ({ path, message, gsdRefuses: refuses }));
    reports.push({ file: { file, valid: issues.length === 0, gates: report.gates, gsdLoads: report.loads ?? null, issues }, unchecked: report.unchecked });
  }
  const valid = reports.every((r) => r.file.valid);
  const stdout = options.json ? `${JSON.stringify({ valid, files: reports.map((r) => r.file) })}\n` : reports.flatMap(({ file, unchecked }) => lines(file, unchecked)).join('\n') + '\n';
  return { exitCode: valid ? 0 : EXIT_NO, stdout, stderr: '' };
}

// A key given twice is gsd-check's issue; GSD reads the last value, and so
// is the rest checked.
function withDuplicate(report: ManifestReport, duplicate: { key: string; at: string } | undefined): ManifestReport {
  if (duplicate === undefined) return report;
  const issue: ManifestIssue = { path: duplicate.at, message: 'is given twice: which one counts is ambiguous (GSD reads the last, as the rest of this check does)', refuses: false };
  return { ...report, issues: [issue, ...report.issues] };
}

function lines(report: FileReport, unchecked: ManifestReport['unchecked']): string[] {
  const { file, gates } = report;
  const counted = `${gates} ${gates === 1 ? 'gate' : 'gates'}`;
  if (report.valid) return [visible(`${file}: valid (${counted}${unchecked === undefined ? '' : `; its ${unchecked} body is not checked`})`)];
  const out = report.issues.map((issue) => visible(issue.path === '' ? `${file}: ${issue.message}` : `${file}: ${issue.path}: ${issue.message}`));
  if (report.gsdLoads === false) {
    const why = fewOf([...new Set(report.issues.filter((i) => i.gsdRefuses).map((i) => (i.path === '' ? 'the file' : i.path)))]);
    const lost = gates === 0 ? '' : gates === 1 ? ', so its gate would not be enforced' : `, so none of its ${counted} would be enforced`;
    out.push(visible(`${file}: GSD ${BUILT_IN_VERSION} would not load this capability (for ${why})${lost}`));
  }
  return out;
}
