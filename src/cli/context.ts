import { resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import type { GateContext } from '../predicate/kind.ts';
import { findDuplicateKey } from '../text/duplicate-keys.ts';
import { jsonPath } from '../text/json-path.ts';
import { isReadableDirectory } from '../project/readable.ts';
import { entryKind, findProjectRoot } from '../project/root.ts';
import type { EvalOptions } from './args.ts';
import type { CliDeps } from './deps.ts';

// The gate context every evaluating command builds the same way: the project
// root found from --cwd, the phase values, the runner and the stop signals.
export function gateContext(options: EvalOptions, deps: CliDeps): Result<GateContext> {
  const start = startDirectory(options.cwd, deps.cwd);
  if (!start.ok) return start;
  const projectRoot = findProjectRoot(start.value, deps.home);
  const denied = !isReadableDirectory(start.value)
    ? (options.cwd === undefined ? 'the current directory' : `--cwd ${options.cwd}`)
    : !isReadableDirectory(projectRoot) ? `project root ${projectRoot}` : undefined;
  if (denied !== undefined) return fail('bad-cwd', `${denied}: permission denied (cannot list or enter it)`);
  return ok({
    projectRoot,
    phaseNumber: options.phaseNumber,
    phaseDir: options.phaseDir,
    phaseReqIds: options.phaseReqIds,
    env: deps.env,
    killAfterMs: options.killAfter * 1000,
    signal: deps.signal,
    force: deps.force,
    run: deps.run,
  });
}

function startDirectory(cwd: string | undefined, current: () => string): Result<string> {
  let start: string;
  try {
    start = resolve(current(), cwd ?? '.');
  } catch {
    return fail('bad-cwd', 'the current directory no longer exists');
  }
  const kind = entryKind(start);
  if (kind === 'dir') return ok(start);
  const label = cwd === undefined ? 'the current directory' : `--cwd ${cwd}`;
  return fail('bad-cwd', `${label}: ${kind === undefined ? 'no such directory' : 'not a directory'}`);
}

// JSON as gsd-check accepts it: what JSON.parse accepts, less objects that
// give one key twice. `root` names the document in the path of a duplicate.
export function parseJson(text: string, label: string, root = ''): Result<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ') : String(error);
    return fail('invalid-json', `${label} is not valid JSON: ${reason}`);
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    const at = jsonPath(root, [...duplicate.path, duplicate.key]);
    return fail('invalid-json', `${label} gives the key ${JSON.stringify(duplicate.key)} twice (at ${at}): which one counts is ambiguous`);
  }
  return ok(value);
}
