// Capability manifests, installed where GSD 1.14 finds them, through GSD's
// loader and `gsd-check validate` (compat/manifest.mjs). Each pins whether
// GSD loads it (`gsd`); either gsd-check says the same (its `gsdLoads`, and
// an issue exactly when GSD refuses it), or the case names the difference
// (`differs`) and pins gsd-check's answer (`check`: gsdLoads and valid, or
// the exit status of a file it cannot read).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../harness.mjs';
import { BASE } from '../generative/manifests.mjs';

const manifest = (change = {}) => {
  const out = { ...BASE, ...change };
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete out[key];
  return out;
};
const json = (change, folder) => ({ folder: folder ?? (typeof change?.id === 'string' ? change.id : BASE.id), text: JSON.stringify(manifest(change)) });
const gate = (change = {}) => ({ ...BASE.gates[0], ...change });
const fixture = (name) => readFileSync(join(REPO, 'test', 'fixtures', 'capabilities', `${name}.json`), 'utf8');
// BASE's bytes, with two of its title's bytes that are no UTF-8 (FF FE):
// GSD decodes them as U+FFFD.
const notUtf8 = () => {
  const bytes = Buffer.from(JSON.stringify({ ...BASE, title: 'T__' }));
  const at = bytes.indexOf('T__');
  bytes[at + 1] = 0xff;
  bytes[at + 2] = 0xfe;
  return bytes;
};

// Another capability, installed beside the case's, whose step produces
// `artifact` at plan:pre.
const producer = (artifact) => ({
  folder: 'a-producer',
  text: JSON.stringify({
    ...BASE,
    id: 'a-producer',
    skills: ['producer-notes'],
    agents: [],
    config: { 'producer.enabled': { type: 'boolean', default: true, description: 'd' } },
    steps: [{ point: 'plan:pre', ref: { skill: 'producer-notes' }, produces: [artifact], consumes: [], onError: 'skip' }],
    contributions: [],
    gates: [],
  }),
});
const runtime = {
  id: 'my-host',
  role: 'runtime',
  version: '1.0.0',
  title: 'My host',
  description: 'A host GSD installs into.',
  tier: 'core',
  requires: [],
  runtime: {},
};

export const MANIFEST_CASES = [
  { name: 'a feature GSD loads', ...json(), gsd: true },
  { name: 'the issue: only an id, a version and gates', folder: 'x', text: JSON.stringify({ id: 'x', version: '1.0.0', gates: BASE.gates }), gsd: false },
  { name: 'no runtimeCompat', ...json({ runtimeCompat: undefined }), gsd: false },
  { name: 'an empty runtimeCompat.supported', ...json({ runtimeCompat: { supported: [], unsupported: [] } }), gsd: false },
  { name: 'engines.gsd that excludes 1.14.0', ...json({ engines: { gsd: '>=2.0.0' } }), gsd: false },
  { name: 'engines.gsd ^1.14', ...json({ engines: { gsd: '^1.14' } }), gsd: true },
  // The GSD both read the range against is 1.14.0 exactly.
  { name: 'engines.gsd 1.14.0', ...json({ engines: { gsd: '1.14.0' } }), gsd: true },
  { name: 'engines.gsd >1.14.0', ...json({ engines: { gsd: '>1.14.0' } }), gsd: false },
  { name: 'engines.gsd <1.14.0', ...json({ engines: { gsd: '<1.14.0' } }), gsd: false },
  { name: 'engines.gsd with a space after the operator (GSD reads it as nothing)', ...json({ engines: { gsd: '>= 1.6.0' } }), gsd: false },
  { name: 'engines.gsd that is no range', ...json({ engines: { gsd: 'latest' } }), gsd: false },
  {
    name: 'a config key without a description (the registry build drops every overlay)',
    ...json({ config: { ...BASE.config, 'release.mode': { type: 'boolean', default: false } } }),
    gsd: false,
  },
  {
    name: 'an enum whose default is not one of its values',
    ...json({ config: { ...BASE.config, 'release.mode': { type: 'enum', values: ['a'], default: 'b', description: 'd' } } }),
    gsd: false,
  },
  { name: 'a folder that is not the id', ...json({}, 'release'), gsd: false },
  { name: 'an id GSD keeps for itself', ...json({ id: 'gsd-release' }), gsd: false },
  { name: 'a folder GSD keeps for itself, the id another', ...json({}, 'anthropic-x'), gsd: false },
  { name: 'not JSON', folder: BASE.id, text: JSON.stringify(BASE).slice(0, -1), gsd: false },
  { name: 'a null gate', ...json({ gates: [null] }), gsd: false },
  { name: 'a gate whose when is null', ...json({ gates: [gate({ when: null })] }), gsd: false },
  { name: 'a gate whose when names no config key', ...json({ gates: [gate({ when: 'release.enable' })] }), gsd: false },
  { name: 'an agentVerdict gate that blocks', ...json({ gates: [gate({ check: { agentVerdict: { prompt: 'p' } } })] }), gsd: false },
  { name: 'a contribution into an agent its point has not', ...json({ contributions: [{ ...BASE.contributions[0], into: 'executor' }] }), gsd: false },
  { name: 'a step whose skill the capability does not declare', ...json({ skills: [] }), gsd: false },
  {
    name: 'two steps that produce one artifact at one point',
    ...json({ steps: [BASE.steps[0], { ...BASE.steps[0], ref: { agent: 'release-writer' } }] }),
    gsd: false,
  },
  { name: 'an unsafe hook script', ...json({ hooks: [{ event: 'Stop', script: 'run.sh; touch /tmp/x' }] }), gsd: false },
  { name: 'a reviewer body on a feature', ...json({ reviewer: { slug: 'x' } }), gsd: false },
  { name: 'a runtime with feature fields', folder: 'my-host', text: JSON.stringify({ ...runtime, gates: BASE.gates }), gsd: false },

  // D67: what is inside a runtime's or a reviewer's body.
  {
    name: 'a runtime whose runtime body is empty',
    folder: 'my-host',
    text: JSON.stringify(runtime),
    gsd: false,
    differs: 'D67',
    check: { gsdLoads: null, valid: true },
  },
  {
    name: 'a reviewer whose lane has only a slug',
    folder: 'my-lane',
    text: JSON.stringify({ ...runtime, id: 'my-lane', role: 'reviewer', runtime: undefined, reviewer: { slug: 'my-lane' } }),
    gsd: false,
    differs: 'D67',
    check: { gsdLoads: null, valid: true },
  },

  // What GSD 1.14's own registry has.
  { name: "gsd-check's own tdd fixture: GSD has a tdd of its own", folder: 'tdd', text: fixture('tdd'), gsd: false },
  ...['security', 'broken-windows'].map((name) => ({ name: `gsd-check's own ${name} fixture`, folder: name, text: fixture(name), gsd: false })),
  {
    name: "a config key one of GSD's own capabilities has",
    ...json({ config: { ...BASE.config, 'workflow.tdd_mode': { type: 'boolean', default: false, description: 'd' } } }),
    gsd: false,
  },
  {
    name: "a config key of GSD's central schema",
    ...json({ config: { ...BASE.config, mode: { type: 'string', default: 'x', description: 'd' } } }),
    gsd: false,
  },
  { name: "a skill one of GSD's own capabilities has", ...json({ skills: ['release-notes', 'code-review'] }), gsd: false },
  { name: "an agent one of GSD's own capabilities has", ...json({ agents: ['gsd-ui-auditor'] }), gsd: false },
  { name: "a command family one of GSD's own capabilities has", ...json({ commands: [{ family: 'graphify', module: 'g.cjs', router: 'r' }] }), gsd: false },
  { name: 'requires itself', ...json({ requires: [BASE.id] }), gsd: false },
  { name: "requires one of GSD's of a higher tier", ...json({ requires: ['security'] }), gsd: false },
  { name: "requires one of GSD's of its tier", ...json({ tier: 'full', requires: ['security'] }), gsd: true },
  {
    name: "a step that produces what one of GSD's produces at that point",
    ...json({ steps: [{ ...BASE.steps[0], point: 'plan:pre', consumes: [], produces: ['RESEARCH.md'] }] }),
    gsd: false,
  },
  {
    name: 'a step that produces it at another point',
    ...json({ steps: [{ ...BASE.steps[0], point: 'plan:post', consumes: [], produces: ['RESEARCH.md'] }] }),
    gsd: true,
  },
  { name: 'a runtime GSD has', ...json({ runtimeCompat: { supported: ['claude', 'codex'], unsupported: ['cursor'] } }), gsd: true },
  { name: "a runtime that is one of GSD's own features", ...json({ runtimeCompat: { supported: ['security'], unsupported: [] } }), gsd: false },
  {
    name: "a runtime that is one of GSD's own reviewers, in unsupported",
    ...json({ runtimeCompat: { supported: ['*'], unsupported: ['gemini'] } }),
    gsd: false,
  },
  {
    name: 'a runtime that is the feature itself, in notes',
    ...json({ runtimeCompat: { supported: ['*'], unsupported: [], notes: { 'release-checks': 'n' } } }),
    gsd: false,
  },

  // What GSD holds the manifest to with itself among the capabilities it loads.
  { name: 'a skill listed twice (owned by both it and itself)', ...json({ skills: ['release-notes', 'release-notes'] }), gsd: false },
  { name: 'an agent listed twice', ...json({ agents: ['release-writer', 'release-writer'] }), gsd: false },
  {
    name: 'a command family listed twice',
    ...json({
      commands: [
        { family: 'rel', module: 'r.cjs', router: 'r' },
        { family: 'rel', module: 's.cjs', router: 's' },
      ],
    }),
    gsd: false,
  },
  { name: 'requires "" (no capability has that id)', ...json({ requires: [''] }), gsd: false },
  { name: 'requires "Security" (ids are kebab-case)', ...json({ requires: ['Security'] }), gsd: false },
  { name: "requires one of GSD's twice", ...json({ tier: 'full', requires: ['security', 'security'] }), gsd: true },
  {
    name: 'a step that consumes "", which another of its steps produces before it',
    ...json({
      agents: ['release-writer'],
      steps: [
        { ...BASE.steps[0], point: 'plan:pre', produces: [''], consumes: [] },
        { ...BASE.steps[0], consumes: [''] },
      ],
    }),
    gsd: true,
  },
  {
    name: 'a step that consumes "", which another capability produces before it',
    ...json({ steps: [{ ...BASE.steps[0], consumes: [''] }] }),
    others: [producer('')],
    gsd: true,
  },

  // D68: what turns on the capabilities installed beside it, or on the machine.
  {
    name: 'a runtime GSD does not have',
    ...json({ runtimeCompat: { supported: ['no-such-host'], unsupported: [] } }),
    gsd: false,
    differs: 'D68',
    check: { gsdLoads: true, valid: true },
  },
  {
    name: 'requires a capability GSD does not have',
    ...json({ requires: ['no-such-capability'] }),
    gsd: false,
    differs: 'D68',
    check: { gsdLoads: true, valid: true },
  },
  {
    name: 'a step that consumes what nothing produces before it',
    ...json({ steps: [{ ...BASE.steps[0], point: 'discuss:pre', consumes: ['PLAN.md'] }] }),
    gsd: false,
    differs: 'D68',
    check: { gsdLoads: true, valid: true },
  },
  {
    name: 'a step that consumes "", which nothing produces',
    ...json({ steps: [{ ...BASE.steps[0], consumes: [''] }] }),
    gsd: false,
    differs: 'D68',
    check: { gsdLoads: true, valid: true },
  },
  {
    name: 'a contribution whose fragment file is not there',
    ...json({ contributions: [{ ...BASE.contributions[0], fragment: { path: 'fragments/plan.md' } }] }),
    gsd: false,
    differs: 'D68',
    check: { gsdLoads: true, valid: true },
  },
  {
    name: 'a contribution whose fragment file is there',
    ...json({ contributions: [{ ...BASE.contributions[0], fragment: { path: 'fragments/plan.md' } }] }),
    beside: { 'fragments/plan.md': 'Plan it.\n' },
    gsd: true,
  },
  {
    name: 'a project capability its user has not consented to',
    ...json(),
    scope: 'project',
    gsd: false,
    differs: 'D68',
    check: { gsdLoads: true, valid: true },
  },

  // D69: gsd-check's own rules for a gate, which GSD loads past.
  {
    name: 'a gate with a field GSD ignores',
    ...json({ gates: [gate({ blockng: false })] }),
    gsd: true,
    differs: 'D69',
    check: { gsdLoads: true, valid: false },
  },
  { name: 'a blank query', ...json({ gates: [gate({ check: { query: ' ' } })] }), gsd: true, differs: 'D69', check: { gsdLoads: true, valid: false } },
  {
    name: 'a predicate gsd-check refuses (timeOut)',
    ...json({ gates: [gate({ check: { predicate: { kind: 'command-exit-zero', command: 'true', timeOut: 5 } } })] }),
    gsd: true,
    differs: 'D69',
    check: { gsdLoads: true, valid: false },
  },

  // D15, D70: what gsd-check reads of the file.
  { name: 'a byte order mark before the JSON', folder: BASE.id, text: `\uFEFF${JSON.stringify(BASE)}`, gsd: false },
  { name: 'a byte order mark before a runtime', folder: 'my-host', text: `\uFEFF${JSON.stringify(runtime)}`, gsd: false },
  { name: 'blanks before the JSON', folder: BASE.id, text: ` \n\t${JSON.stringify(BASE)}`, gsd: true },
  {
    name: 'a key given twice',
    folder: BASE.id,
    text: `{"title": "First", ${JSON.stringify(BASE).slice(1)}`,
    gsd: true,
    differs: 'D15',
    check: { gsdLoads: true, valid: false },
  },
  {
    name: 'a key given twice, the last value one GSD refuses',
    folder: BASE.id,
    text: `{"tier": "full", ${JSON.stringify({ ...BASE, tier: 'max' }).slice(1)}`,
    gsd: false,
  },
  { name: 'a manifest over 1 MiB', ...json({ description: 'x'.repeat(1536 * 1024) }), gsd: true, differs: 'D70', check: { status: 2 }, alone: true },
  { name: 'a title with bytes that are not UTF-8', folder: BASE.id, text: notUtf8(), gsd: true, differs: 'D71', check: { status: 2 }, alone: true },
];
