import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { entryKind, errorCode, realPath } from '../fs/entry.ts';
import { readRegular } from '../fs/read.ts';
import { isJsonObject, readJson } from '../json/parse.ts';
import { installedCapabilities } from '../project/installed-capabilities.ts';
import { bundleContentHash } from './bundle-hash.ts';

// A project's capability loads in GSD 1.14 only where its user consented to
// it on that machine: a record in GSD's home (`.gsd/consent.json` under
// GSD_HOME, else the home directory), keyed by the project's real path and
// the capability's id, bound to the folder's content hash
// (capability-loader.cjs, capability-consent.cjs). A CI runner has no such
// record, so GSD there renders none of the project's gates. --consent gives
// the record for one run, in a home of the run's own that GSD is pointed at:
// the user's own home is never written, and what else GSD reads there (its
// installed capabilities, their ledger, defaults.json, the user's other
// consent records) is still read, through links.

// Every capability the project has, as --consent's value: `*` is no id GSD
// takes (an id is kebab-case), so it cannot name one.
export const EVERY_CAPABILITY = '*';
// GSD's rule for an id it keeps a record for.
export const CAPABILITY_ID = /^[a-z][a-z0-9-]*$/;
// GSD reads no store larger than this, nor one of more records.
const STORE_BYTES = 8 * 1024 * 1024;
const MAX_RECORDS = 4096;
const UNSAFE_KEYS = ['__proto__', 'constructor', 'prototype'];
// Ids of GSD's form it still keeps no record for (isUnsafeCapabilityId): a
// folder so named is never loaded, whatever the store holds.
const UNRECORDED_IDS = ['constructor', 'prototype'];
const STORE = ['.gsd', 'consent.json'] as const;
// GSD's per-home ledger of what it installed, beside `.gsd/`.
const LEDGER = '.gsd-capabilities.json';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProjectConsent {
  // The project's real path, which GSD keys a record by.
  readonly root: string;
  // The capabilities given consent for this run, and the hash each record binds.
  readonly given: readonly { readonly id: string; readonly hash: string }[];
  // The project's capabilities GSD does not load here: neither a record of
  // the user's on this machine, nor given.
  readonly missing: readonly string[];
  // Of those, the ones no consent can make GSD load, and why.
  readonly cannot: Readonly<Record<string, string>>;
}

// What --consent gives, checked against the project's capabilities: an id
// that names none fails, as does a folder GSD could not bind a record to
// (it would stay unloaded, and its gates unrun).
export function projectConsent(ids: readonly string[], projectRoot: string, env: Env, home: string | undefined): Result<ProjectConsent> {
  const root = realPath(projectRoot) ?? projectRoot;
  // The project's own folder, by its real path: GSD's home may be the
  // project's root under another name, which GSD reads as the project's.
  const own = realPath(join(projectRoot, '.gsd', 'capabilities'));
  const gsdHome = gsdHomeOf(env, home, root);
  const folders = installedCapabilities(projectRoot, { ...env, GSD_HOME: gsdHome }, undefined).filter(
    (c) => c.scope === 'project' && own !== undefined && realPath(dirname(dirname(c.path))) === own && CAPABILITY_ID.test(c.id) && entryKind(c.path) === 'file',
  );
  const wanted = ids.includes(EVERY_CAPABILITY) ? folders.map((c) => c.id) : [...new Set(ids)];
  const unknown = wanted.find((id) => !folders.some((c) => c.id === id));
  if (unknown !== undefined) {
    const there =
      folders.length === 0
        ? 'which holds none'
        : `which holds ${folders
            .map((c) => c.id)
            .sort()
            .join(', ')}`;
    return fail('usage', `--consent ${unknown}: the project has no such capability in .gsd/capabilities/ (${there})`);
  }
  const unrecorded = wanted.find((id) => UNRECORDED_IDS.includes(id));
  if (unrecorded !== undefined)
    return fail(
      'usage',
      `--consent ${unrecorded}: GSD keeps no consent record for the id ${unrecorded} (nor ${UNRECORDED_IDS.find((id) => id !== unrecorded)}), so it never loads .gsd/capabilities/${unrecorded}/`,
    );
  // GSD keeps the last record of an id.
  const recorded = new Map(Object.values(storedRecords(gsdHome, root)).map((r) => [r.id, r.contentHash]));
  const given: { id: string; hash: string }[] = [];
  const missing: string[] = [];
  const cannot: Record<string, string> = {};
  for (const { id, path } of folders) {
    const hash = bundleContentHash(dirname(path));
    if (wanted.includes(id)) {
      if (!hash.ok) return fail('unreadable-file', `--consent ${id}: GSD could not bind a consent record to .gsd/capabilities/${id}/: ${hash.failure}`);
      given.push({ id, hash: hash.value });
    } else if (!hash.ok || recorded.get(id) !== hash.value) {
      missing.push(id);
      if (!hash.ok) cannot[id] = `GSD cannot bind a consent record to it: ${hash.failure}`;
      else if (UNRECORDED_IDS.includes(id)) cannot[id] = `GSD keeps no consent record for the id ${id}`;
    }
  }
  return ok({ root, given, missing: missing.sort(), cannot });
}

// The home GSD is pointed at for the run, holding the consent given, and
// how to remove it; none where none is given.
export function consentHome(
  consent: ProjectConsent,
  env: Env,
  home: string | undefined,
): Result<{ readonly env: Readonly<Record<string, string>>; readonly remove: () => void } | undefined> {
  if (consent.given.length === 0) return ok(undefined);
  const real = gsdHomeOf(env, home, consent.root);
  // GSD takes the last record of an id whatever its key, so the user's
  // records for an id given here are left out, not merely overwritten.
  const ids = new Set(consent.given.map((g) => g.id));
  const records: Record<string, unknown> = Object.fromEntries(Object.entries(storedRecords(real, consent.root)).filter(([, r]) => !ids.has(r.id)));
  const at = new Date().toISOString();
  for (const { id, hash } of consent.given) {
    records[JSON.stringify({ r: consent.root, i: id })] = {
      projectRoot: consent.root,
      id,
      scope: 'project',
      integrity: '',
      disclosureSignature: '',
      contentHash: hash,
      consentedAt: at,
    };
  }
  const count = Object.keys(records).length;
  if (count > MAX_RECORDS)
    return fail(
      'usage',
      `--consent: the run's consent store would hold ${count} records for this project, and GSD reads none of a store of more than ${MAX_RECORDS}`,
    );
  // node:os is loaded only for a run that consents, not at every start.
  const temp = (require('node:os') as typeof import('node:os')).tmpdir();
  const shared = sharedWithoutSticky(temp);
  if (shared !== undefined)
    return fail(
      'unreadable-file',
      `--consent: the temp directory ${temp} ${shared}, where another user could put a home of theirs in the run's place: set TMPDIR to a directory of yours`,
    );
  let made: string | undefined;
  try {
    made = mkdtempSync(join(temp, 'gsd-check-consent-'));
    const own = join(made, STORE[0]);
    mkdirSync(own);
    if (real !== undefined) {
      for (const name of listed(join(real, STORE[0])))
        if (name !== STORE[1] && name !== '.consent.lock') symlinkSync(join(real, STORE[0], name), join(own, name));
      if (entryKind(join(real, LEDGER)) !== undefined) symlinkSync(join(real, LEDGER), join(made, LEDGER));
    }
    // The user's own records for the project, which GSD reads from this home now, and those given.
    writeFileSync(join(own, STORE[1]), `${JSON.stringify({ version: '1', records }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    if (made !== undefined) rmSync(made, { recursive: true, force: true });
    return fail('unreadable-file', `--consent: could not make the run's consent home: ${errorCode(error)}`);
  }
  const dir = made;
  return ok({ env: { GSD_HOME: dir }, remove: () => rmSync(dir, { recursive: true, force: true }) });
}

// GSD's home as GSD reads it: GSD_HOME, else the home directory, a relative
// one from where GSD runs, the project's root (its real path: GSD's cwd).
// Why others could rename the run's home away in `dir` and put theirs in
// its place: `dir` writable by them without the sticky bit (which keeps an
// entry to its owner), or not there to judge.
function sharedWithoutSticky(dir: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(dir).mode;
  } catch (error) {
    return `cannot be read (${errorCode(error)})`;
  }
  return (mode & 0o022) !== 0 && (mode & 0o1000) === 0 ? 'is writable by others and has no sticky bit' : undefined;
}

function gsdHomeOf(env: Env, home: string | undefined, root: string): string | undefined {
  const given = env.GSD_HOME !== undefined && env.GSD_HOME !== '' ? env.GSD_HOME : home;
  return given === undefined || given === '' ? undefined : resolve(root, given);
}

function listed(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

// The user's records for this project, as GSD reads its store: none where
// it is missing, too large, not a store, or holds more records than GSD
// takes; a record GSD would not take is none.
function storedRecords(home: string | undefined, root: string): Record<string, ConsentRecord> {
  if (home === undefined) return {};
  const read = readRegular(join(home, ...STORE), STORE_BYTES);
  if (!read.ok || !read.value.complete) return {};
  // JSON.parse's reading, as GSD's: a key given twice is its last.
  const parsed = readJson(read.value.bytes.toString('utf8'), 'consent.json');
  if (!parsed.ok || !isJsonObject(parsed.value.value) || !isJsonObject(parsed.value.value.records)) return {};
  const records = Object.entries(parsed.value.value.records);
  if (records.length > MAX_RECORDS) return {};
  return Object.fromEntries(
    records.filter((entry): entry is [string, ConsentRecord] => !UNSAFE_KEYS.includes(entry[0]) && isRecord(entry[1]) && entry[1].projectRoot === root),
  );
}

interface ConsentRecord {
  readonly projectRoot: string;
  readonly id: string;
  readonly contentHash: string;
}

// capability-consent.cjs's isValidConsentRecord.
function isRecord(value: unknown): value is ConsentRecord {
  if (!isJsonObject(value)) return false;
  const text = (field: string) => typeof value[field] === 'string' && value[field] !== '';
  return (
    text('projectRoot') &&
    typeof value.id === 'string' &&
    CAPABILITY_ID.test(value.id) &&
    !UNRECORDED_IDS.includes(value.id) &&
    value.scope === 'project' &&
    typeof value.integrity === 'string' &&
    typeof value.disclosureSignature === 'string' &&
    text('contentHash') &&
    text('consentedAt') &&
    (value.reviewerHost === undefined || typeof value.reviewerHost === 'string')
  );
}
