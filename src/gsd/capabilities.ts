import { isJsonObject, parseJson } from '../json/parse.ts';
import type { GsdAsk, GsdRequest } from './ask.ts';

// The capabilities GSD discovered but does not load, by its own answer to
// `capability list --raw`: a project capability on a machine with no
// consent record for it (GSD keeps consent in the user's home, keyed by the
// project's path, so a CI runner has none) renders no hooks, and its gates
// are evaluated nowhere. A run with --render says so, rather than pass
// without them.

export const CAPABILITY_LIST: GsdRequest = { args: ['capability', 'list', '--raw'], env: {}, timeoutMs: 30_000, keepStdout: 1024 * 1024 };
// Every capability of the registry GSD composed, loaded ones only, whoever
// installed them: what a consent given is checked against.
export const CAPABILITY_STATE: GsdRequest = { args: ['capability', 'state', '--raw'], env: {}, timeoutMs: 30_000, keepStdout: 4 * 1024 * 1024 };

// One line for each such capability, but those `named` already; none where
// GSD gave no list it could be read from.
export async function unloadedCapabilities(ask: GsdAsk, named: readonly string[]): Promise<string[]> {
  const [result] = await ask([CAPABILITY_LIST]);
  if (result === undefined || result.status !== 'ended' || result.exitCode !== 0 || result.stdout?.complete !== true) return [];
  const parsed = parseJson(result.stdout.text, 'capability list');
  if (!parsed.ok || !Array.isArray(parsed.value)) return [];
  return parsed.value.flatMap((entry) => {
    if (!isJsonObject(entry) || typeof entry.id !== 'string' || entry.scope === 'first-party' || entry.status === 'active' || named.includes(entry.id))
      return [];
    const why = typeof entry.reason === 'string' && entry.reason !== '' ? entry.reason : `status ${String(entry.status)}`;
    return [
      `GSD does not load the ${typeof entry.scope === 'string' ? `${entry.scope} ` : ''}capability ${entry.id} (${why}): its gates are evaluated nowhere in this run`,
    ];
  });
}

// A project capability GSD has no consent record for on this machine, and
// --consent did not give one (gsd/consent.ts): GSD lists only what it
// installed itself, so this is said of every folder of the project's.
// `cannot`: why no consent can make GSD load it, where none can.
export const unconsentedLine = (id: string, cannot?: string): string =>
  `GSD does not load the project capability ${id} (no consent record of its user on this machine; ${cannot ?? `--consent ${id} gives it for this run`}): its gates are evaluated nowhere in this run`;

// A project capability --consent gives that GSD still does not load: a
// record lets GSD load it, it does not make GSD take it (GSD first reads its
// capability.json, the project's ledger, and checks it, and leaves it out
// on any of them, saying nothing of most). None where GSD gave no state it
// could be read from.
export async function refusedCapabilities(ask: GsdAsk, given: readonly string[]): Promise<string[]> {
  if (given.length === 0) return [];
  const [result] = await ask([CAPABILITY_STATE]);
  if (result === undefined || result.status !== 'ended' || result.exitCode !== 0 || result.stdout?.complete !== true) return [];
  const parsed = parseJson(result.stdout.text, 'capability state');
  if (!parsed.ok || !isJsonObject(parsed.value) || !Array.isArray(parsed.value.capabilities)) return [];
  const loaded = new Set(parsed.value.capabilities.flatMap((entry) => (isJsonObject(entry) && typeof entry.id === 'string' ? [entry.id] : [])));
  return given
    .filter((id) => !loaded.has(id))
    .map(
      (id) =>
        `GSD does not load the project capability ${id} though --consent gives it (GSD leaves it out: an unreadable or invalid capability.json, an install the project's ledger says is unfinished, or a check of GSD's it fails): its gates are evaluated nowhere in this run`,
    );
}
