import { EXIT_INVALID, type Issue } from '../failure.ts';
import { visible } from '../text/format.ts';
import { parseCapability } from '../gates/declaration.ts';
import { KINDS } from '../kinds/table.ts';
import type { ValidateOptions } from '../cli/command-line.ts';
import { argumentPath } from './argument-path.ts';
import { parseJson } from '../json/parse.ts';
import { textInput } from '../io/input.ts';
import type { CliDeps } from './deps.ts';
import { failureReply, type Reply } from './reply.ts';

interface FileReport {
  readonly file: string;
  readonly valid: boolean;
  readonly gates: number;
  readonly issues: readonly Issue[];
}

// Checks capability files' gate declarations up front, reporting every issue
// with its JSON path: EXIT_INVALID when any file has one, and a file that
// cannot be read stops the run as its failure.
export async function validate(options: ValidateOptions, deps: CliDeps): Promise<Reply> {
  const reports: FileReport[] = [];
  for (const file of options.files) {
    const path = argumentPath(file, undefined, deps.cwd);
    if (!path.ok) return failureReply(path.failure, options.jsonErrors);
    const text = await textInput(deps.readInput, path.value, file === '-' ? 'standard input' : `capability file ${file}`);
    if (!text.ok) return failureReply(text.failure, options.jsonErrors);
    const json = parseJson(text.value, 'the file');
    const { gates, issues } = json.ok ? capabilityReport(json.value) : { gates: 0, issues: [{ path: '', message: json.failure.message }] };
    reports.push({ file, valid: issues.length === 0, gates, issues });
  }
  const valid = reports.every((r) => r.valid);
  const stdout = options.json
    ? `${JSON.stringify({ valid, files: reports })}\n`
    : reports.flatMap((r) => (r.valid ? [`${visible(r.file)}: valid (${r.gates} ${r.gates === 1 ? 'gate' : 'gates'})`] : r.issues.map((i) => line(r.file, i)))).join('\n') + '\n';
  return { exitCode: valid ? 0 : EXIT_INVALID, stdout, stderr: '' };
}

function capabilityReport(json: unknown): { gates: number; issues: readonly Issue[] } {
  const parsed = parseCapability(json, KINDS);
  return parsed.ok ? { gates: parsed.value.gates.length, issues: parsed.value.issues } : { gates: 0, issues: parsed.failure.issues };
}

function line(file: string, issue: Issue): string {
  return visible(issue.path === '' ? `${file}: ${issue.message}` : `${file}: ${issue.path}: ${issue.message}`);
}
