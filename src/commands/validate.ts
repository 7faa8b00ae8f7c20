import { EXIT_INVALID } from '../failure.ts';
import { fewOf, visible } from '../text/format.ts';
import { checkManifest, type ManifestReport } from '../gates/manifest.ts';
import type { ManifestIssue } from '../gates/manifest-fields.ts';
import { GSD_VERSION } from '../gates/manifest-version.ts';
import { KINDS } from '../kinds/table.ts';
import type { ValidateOptions } from '../cli/command-line.ts';
import { argumentPath } from './argument-path.ts';
import { parseJson } from '../json/parse.ts';
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
// path: EXIT_INVALID when any file has one, and a file that cannot be read
// stops the run as its failure.
export async function validate(options: ValidateOptions, deps: CliDeps): Promise<Reply> {
  const reports: { file: FileReport; unchecked: ManifestReport['unchecked'] }[] = [];
  for (const file of options.files) {
    const path = argumentPath(file, undefined, deps.cwd);
    if (!path.ok) return failureReply(path.failure, options.jsonErrors);
    const text = await textInput(deps.readInput, path.value, file === '-' ? 'standard input' : `capability file ${file}`);
    if (!text.ok) return failureReply(text.failure, options.jsonErrors);
    const json = parseJson(text.value, 'the file');
    const report: ManifestReport = json.ok
      ? checkManifest(json.value, KINDS, file === '-' ? undefined : installedFolder(path.value))
      : // Text JSON.parse refuses, GSD cannot read either; a key given
        // twice (the failure's issue) it reads, keeping the last.
        { gates: 0, issues: unreadable(json.failure.message, json.failure.issues), loads: json.failure.issues.length === 0 ? false : undefined, unchecked: undefined };
    const issues = report.issues.map(({ path, message, refuses }) => ({ path, message, gsdRefuses: refuses }));
    reports.push({ file: { file, valid: issues.length === 0, gates: report.gates, gsdLoads: report.loads ?? null, issues }, unchecked: report.unchecked });
  }
  const valid = reports.every((r) => r.file.valid);
  const stdout = options.json ? `${JSON.stringify({ valid, files: reports.map((r) => r.file) })}\n` : reports.flatMap(({ file, unchecked }) => lines(file, unchecked)).join('\n') + '\n';
  return { exitCode: valid ? 0 : EXIT_INVALID, stdout, stderr: '' };
}

function unreadable(message: string, duplicates: readonly { path: string; message: string }[]): ManifestIssue[] {
  return duplicates.length === 0 ? [{ path: '', message, refuses: true }] : duplicates.map((issue) => ({ ...issue, refuses: false }));
}

function lines(report: FileReport, unchecked: ManifestReport['unchecked']): string[] {
  const { file, gates } = report;
  const counted = `${gates} ${gates === 1 ? 'gate' : 'gates'}`;
  if (report.valid) return [visible(`${file}: valid (${counted}${unchecked === undefined ? '' : `; its ${unchecked} body is not checked`})`)];
  const out = report.issues.map((issue) => visible(issue.path === '' ? `${file}: ${issue.message}` : `${file}: ${issue.path}: ${issue.message}`));
  if (report.gsdLoads === false) {
    const why = fewOf([...new Set(report.issues.filter((i) => i.gsdRefuses).map((i) => (i.path === '' ? 'the file' : i.path)))]);
    const lost = gates === 0 ? '' : gates === 1 ? ', so its gate would not be enforced' : `, so none of its ${counted} would be enforced`;
    out.push(visible(`${file}: GSD ${GSD_VERSION} would not load this capability (for ${why})${lost}`));
  }
  return out;
}
