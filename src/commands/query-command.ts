import { findOnPath } from '../fs/entry.ts';
import { gsdToolsQuery, type QueryCommand } from '../gates/query.ts';
import type { GatesOptions } from '../cli/args.ts';

// --query-command, else GSD_CHECK_QUERY_COMMAND, else GSD's own form when
// gsd-tools is on PATH (that one, by its absolute path); else none, and
// each query gate says so.
export function queryCommand(options: Pick<GatesOptions, 'queryCommand' | 'queryTimeout'>, env: Readonly<Record<string, string | undefined>>): QueryCommand | undefined {
  const timeoutMs = options.queryTimeout * 1000;
  const given = options.queryCommand ?? (env.GSD_CHECK_QUERY_COMMAND?.trim() ? env.GSD_CHECK_QUERY_COMMAND : undefined);
  if (given !== undefined) return { command: given, timeoutMs };
  const program = findOnPath('gsd-tools', env.PATH);
  return program === undefined ? undefined : { command: gsdToolsQuery(program), timeoutMs };
}
