import { entryKind, realPath } from '../../fs/entry.ts';
import { readSmallFile } from '../../fs/read.ts';
import type { LoopPoint } from '../../gates/activation.ts';
import { isJsonObject, parseJson } from '../../json/parse.ts';
import type { GateContext } from '../../predicate/kind.ts';
import { installedCapabilities, type InstalledCapability } from '../../project/installed-capabilities.ts';

// --builtin runs GSD 1.14's own capabilities; GSD itself also loads those
// installed beside them, in the project and in its home. Their gates are
// not among --builtin's unless --capability gives them: the run says which
// are left out, in one line, and what runs them.

const SHOWN = 5;

// `given`: the --capability files, resolved; `points`: the run's. A folder
// with no capability.json is none (GSD skips it: its own `.staging`, say),
// and one whose gates are all at other points leaves nothing out.
export function builtinLeavesOut(context: GateContext, home: string | undefined, given: readonly string[], points: readonly LoopPoint[]): string | undefined {
  const taken = new Set(given.map((file) => realPath(file) ?? file));
  const installed = installedCapabilities(context.projectRoot, context.env, home).filter(
    (c) => !taken.has(realPath(c.path) ?? c.path) && entryKind(c.path) === 'file' && gatesAtAny(c.path, points),
  );
  return installed.length === 0 ? undefined : leftOutLine(installed);
}

// Whether the manifest declares a gate at one of the points; one that cannot
// be read as a list of gates may, as far as anyone can tell.
function gatesAtAny(path: string, points: readonly LoopPoint[]): boolean {
  const text = readSmallFile(path);
  const parsed = text === undefined ? undefined : parseJson(text, path);
  if (parsed === undefined || !parsed.ok || !isJsonObject(parsed.value) || !Array.isArray(parsed.value.gates)) return true;
  return parsed.value.gates.some((gate) => !isJsonObject(gate) || typeof gate.point !== 'string' || (points as readonly string[]).includes(gate.point));
}

// By name, GSD's home first, whatever order the file system lists them in,
// so that one project gives one line on every machine.
export function leftOutLine(installed: readonly InstalledCapability[]): string {
  const names = (scope: InstalledCapability['scope']) =>
    installed
      .filter((c) => c.scope === scope)
      .map((c) => c.id)
      .sort();
  const ids = [...names('global').map((id) => `${id} (GSD's home)`), ...names('project')];
  const list = ids.length <= SHOWN ? ids.join(', ') : `${ids.slice(0, SHOWN).join(', ')} and ${ids.length - SHOWN} more`;
  const what = installed.length === 1 ? 'the capability' : `the ${installed.length} capabilities`;
  return `--builtin leaves out ${what} installed in .gsd/capabilities/: ${list}; --render evaluates what GSD loads, --capability adds one`;
}
