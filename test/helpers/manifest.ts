import type { ManifestIssue } from '../../src/gates/manifest-fields.ts';

// A feature capability GSD 1.14 loads, for the manifest tests to break one
// field of at a time.
export const FEATURE: Readonly<Record<string, unknown>> = {
  id: 'release-checks',
  role: 'feature',
  version: '1.0.0',
  title: 'Release checks',
  description: 'Blocks shipping while the changelog is empty.',
  tier: 'standard',
  requires: [],
  engines: { gsd: '>=1.6.0' },
  runtimeCompat: { supported: ['*'], unsupported: [] },
  skills: ['release-notes'],
  agents: [],
  hooks: [],
  config: { 'workflow.release_checks': { type: 'boolean', default: true, description: 'Run the release checks.' } },
  steps: [
    { point: 'ship:pre', ref: { skill: 'release-notes' }, produces: ['NOTES.md'], consumes: ['UAT.md'], when: 'workflow.release_checks', onError: 'skip' },
  ],
  contributions: [{ point: 'plan:pre', into: 'planner', produces: [], consumes: [], fragment: { inline: 'Plan the changelog entry.' } }],
  gates: [
    {
      point: 'ship:pre',
      check: { predicate: { kind: 'command-exit-zero', command: 'test -s CHANGELOG.md' } },
      when: 'workflow.release_checks',
      blocking: true,
      onError: 'halt',
    },
  ],
};

// FEATURE with `change` over it; a key set to undefined is left out.
export function feature(change: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...FEATURE, ...change };
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete out[key];
  return out;
}

// Issues as a reader sees them, those GSD refuses the capability for marked.
export const told = (issues: readonly ManifestIssue[]): string[] =>
  issues.map((i) => `${i.refuses ? 'refused ' : ''}${i.path === '' ? '' : `${i.path}: `}${i.message}`);
