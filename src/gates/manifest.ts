import { isJsonObject } from '../json/parse.ts';
import type { Kind } from '../predicate/kind.ts';
import { describe } from '../text/format.ts';
import { checkConfig } from './config-slice.ts';
import { parseCapability } from './declaration.ts';
import { checkFeatureBody } from './feature-body.ts';
import { checkAgainstGsd } from './gsd-registry.ts';
import { isKebab, KEBAB_RULE, ManifestIssues, type ManifestIssue } from './manifest-fields.ts';
import { checkVersionEnvelope } from './manifest-version.ts';

// A whole capability manifest, checked as GSD 1.14 checks one before it
// loads it (capability-loader.cjs over capability-validator.cjs): a manifest
// it refuses is skipped with a warning, and none of its gates is enforced.
// Beside those, the issues gsd-check finds in its gates (declaration.ts),
// which GSD loads and then runs wrong or not at all.

const ROLES = ['feature', 'runtime', 'reviewer'];
const TIERS = ['core', 'standard', 'full'];
// The fields only a feature capability may have (capability-validator.cjs's
// FEATURE_FIELDS_FORBIDDEN_ON_RUNTIME and _ON_REVIEWER, with
// taskContentResolver, which both roles refuse too).
const FEATURE_ONLY = ['skills', 'agents', 'steps', 'contributions', 'gates', 'hooks', 'activationKey', 'taskContentResolver'];
// Ids GSD keeps for its own capabilities.
const RESERVED_PREFIX = /^(gsd-|gsd-core-|anthropic-)/;

export interface ManifestReport {
  // How many gates it declares.
  readonly gates: number;
  readonly issues: readonly ManifestIssue[];
  // Whether GSD would load it: false when an issue refuses it, undefined
  // when that turns on a body gsd-check does not check (a runtime's, a
  // reviewer lane's: neither declares gates).
  readonly loads: boolean | undefined;
  // That body, when there is one.
  readonly unchecked: 'runtime' | 'reviewer' | undefined;
}

// `folder`: the name of the folder GSD would find it in, which its id must
// equal; undefined for a file outside GSD's layout, which would be
// installed under its id.
export function checkManifest(input: unknown, kinds: ReadonlyMap<string, Kind>, folder?: string): ManifestReport {
  const issues = new ManifestIssues();
  const gates = parseCapability(input, kinds);
  if (!isJsonObject(input)) {
    issues.refuse('', `must be a JSON object, got ${describe(input)}`);
    return { gates: 0, issues: issues.list, loads: false, unchecked: undefined };
  }
  identity(input.id, folder, issues);
  const { role } = input;
  issues.oneOf('role', role, ROLES);
  issues.text('title', input.title);
  issues.text('description', input.description);
  issues.oneOf('tier', input.tier, TIERS);
  issues.strings('requires', input.requires, 'capability ids');
  checkVersionEnvelope(input, issues);
  let unchecked: ManifestReport['unchecked'];
  // Without a role GSD reads no further; one that declares gates can only
  // be a feature, and is told the rest of what a feature needs at once.
  if (role === 'feature' || (!ROLES.includes(role as string) && Object.hasOwn(input, 'gates'))) checkFeatureBody(input, gates, issues);
  else {
    if (role === 'runtime' || role === 'reviewer') {
      unchecked = role;
      nonFeature(input, role, issues);
      checkConfig(input.config, false, issues);
    }
    // A runtime's or a reviewer's gates are refused above, whatever they are.
    if (gates.ok) for (const gate of gates.value.gates) issues.keep(gate.issues, gate.refusals);
    else if (unchecked === undefined) issues.keep(gates.failure.issues, gates.failure.issues);
  }
  // After its own fields, what it would share with GSD's own capabilities.
  checkAgainstGsd(input, folder ?? (typeof input.id === 'string' ? input.id : undefined), issues);
  const declared = Array.isArray(input.gates) ? input.gates.length : 0;
  const refused = issues.list.some((issue) => issue.refuses);
  return { gates: declared, issues: issues.list, loads: refused ? false : unchecked === undefined ? true : undefined, unchecked };
}

function identity(id: unknown, folder: string | undefined, issues: ManifestIssues): void {
  if (issues.expect('id', id, isKebab(id), KEBAB_RULE) && folder !== undefined && id !== folder) {
    issues.refuse('id', `must be the name of its folder, ${describe(folder)}, got ${describe(id)}`);
  }
  // GSD tests the folder's name, before it reads a field.
  const installed = folder ?? (typeof id === 'string' ? id : undefined);
  const prefix = installed === undefined ? null : RESERVED_PREFIX.exec(installed);
  if (prefix !== null) {
    const named = folder === undefined ? 'the id' : 'the name of its folder';
    issues.refuse(
      folder === undefined ? 'id' : '',
      `${named}, ${describe(installed)}, starts with ${describe(prefix[1])}: GSD keeps the prefixes gsd-, gsd-core- and anthropic- for its own capabilities`,
    );
  }
}

// A runtime (a host GSD installs into) or a reviewer lane: a body of its
// own, and none of a feature's fields.
function nonFeature(input: Readonly<Record<string, unknown>>, role: 'runtime' | 'reviewer', issues: ManifestIssues): void {
  const article = role === 'runtime' ? 'a runtime' : 'a reviewer';
  if (role === 'runtime' && !isJsonObject(input.runtime)) issues.expect('runtime', input.runtime, false, `an object (the body of ${article} capability)`);
  if (role === 'reviewer') {
    if (input.reviewer === undefined) issues.refuse('reviewer', 'is required (the body of a reviewer capability: its lane)');
    if (input.runtime !== undefined) issues.refuse('runtime', 'must not be given on a reviewer capability: it is not a runtime GSD installs into');
  }
  for (const field of FEATURE_ONLY) {
    if (input[field] !== undefined) issues.refuse(field, `must not be given on ${article} capability: only a feature capability has ${field}`);
  }
}
