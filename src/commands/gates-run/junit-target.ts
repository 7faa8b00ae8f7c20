import { ok, type Result } from '../../failure.ts';
import type { GatesOptions } from '../../cli/gates-options.ts';
import { realPath } from '../../fs/entry.ts';
import type { ReportTarget } from '../../io/report-file.ts';
import { argumentPath } from '../argument-path.ts';
import type { GatesDeps } from '../deps.ts';

// --report junit=<file>: the file as given, for messages, the path it is
// written to, resolved by the rule of every other file argument, and where
// it must stay once its links are followed when it is written there: the
// project root, and --cwd when given (both as found and as real paths).
// Resolved before anything runs: a path that cannot be resolved (its current
// directory deleted) fails the call before any gate's command.
export function junitTarget(options: GatesOptions, deps: Pick<GatesDeps, 'cwd'>, root: string): Result<ReportTarget | undefined> {
  const target = options.reports.find((report) => report.format === 'junit');
  if (target === undefined) return ok(undefined);
  const path = argumentPath(target.file, options.cwd, deps.cwd);
  if (!path.ok) return path;
  const cwd = options.cwd === undefined ? undefined : argumentPath('.', options.cwd, deps.cwd);
  const cwds = cwd?.ok ? [cwd.value, realPath(cwd.value) ?? cwd.value] : [];
  return ok({ path: path.value, shown: target.file, within: [...new Set([root, ...cwds])] });
}
