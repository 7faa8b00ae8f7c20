import { join } from 'node:path';
import { readSmallFile } from '../fs/read.ts';
import { parseJson, isJsonObject } from '../json/parse.ts';

export interface WorkspaceConfig {
  // Top-level directories of the workspace that are repositories of its own
  // project: `sub_repos` at the top or under `planning` (GSD documents the
  // latter, still reads the former).
  readonly subRepos: readonly string[];
  // The legacy switch for the same thing: any nested repository belongs.
  readonly multiRepo: boolean;
}

const NONE: WorkspaceConfig = { subRepos: [], multiRepo: false };

// What `<dir>/.planning/config.json` says about the repositories below it. A
// config that is missing, not strict JSON (a key given twice included) or
// not an object says nothing, as in GSD, where the search then goes on.
export function workspaceConfig(dir: string): WorkspaceConfig {
  const text = readSmallFile(join(dir, '.planning', 'config.json'));
  if (text === undefined) return NONE;
  const parsed = parseJson(text, 'config');
  if (!parsed.ok || !isJsonObject(parsed.value)) return NONE;
  const config = parsed.value;
  const planning = config.planning;
  // GSD: the top-level key wins when it is there at all, even if not a list.
  const list = config.sub_repos ?? (isJsonObject(planning) ? planning.sub_repos : undefined);
  return {
    subRepos: Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [],
    multiRepo: config.multiRepo === true,
  };
}
