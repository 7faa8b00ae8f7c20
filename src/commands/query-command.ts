import { findOnPath } from '../fs/which.ts';
import { GSD_TOOLS_QUERY, type QueryCommand } from '../gates/query.ts';
import type { GatesOptions } from '../cli/args.ts';

// --query-command, else GSD_CHECK_QUERY_COMMAND, else GSD's own form when
// gsd-tools is on PATH; else none, and each query gate says so.
export function queryCommand(options: Pick<GatesOptions, 'queryCommand' | 'queryTimeout'>, env: Readonly<Record<string, string | undefined>>): QueryCommand | undefined {
  const timeoutMs = options.queryTimeout * 1000;
  const given = options.queryCommand ?? (env.GSD_CHECK_QUERY_COMMAND?.trim() ? env.GSD_CHECK_QUERY_COMMAND : undefined);
  if (given !== undefined) return { command: given, timeoutMs };
  return findOnPath('gsd-tools', env.PATH) === undefined ? undefined : { command: GSD_TOOLS_QUERY, timeoutMs };
}
