// Generated capability manifests for the manifest differential
// (test/manifest.test.mjs): a feature GSD 1.14 loads, with up to three of
// its fields broken, left out or given an edge an author reaches for, each
// from the values GSD's validator tells apart. Every case carries `meta`,
// what was chosen, so that a classifier can tell a documented difference
// from the case itself.
import fc from 'fast-check';

export const BASE = {
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
  agents: ['release-writer'],
  hooks: [],
  config: { 'release.enabled': { type: 'boolean', default: true, description: 'Run the release checks.' } },
  steps: [{ point: 'ship:pre', ref: { skill: 'release-notes' }, produces: ['NOTES.md'], consumes: ['UAT.md'], when: 'release.enabled', onError: 'skip' }],
  contributions: [{ point: 'plan:pre', into: 'planner', produces: [], consumes: [], fragment: { inline: 'Plan the changelog entry.' } }],
  gates: [
    {
      point: 'ship:pre',
      check: { predicate: { kind: 'command-exit-zero', command: 'test -s CHANGELOG.md' } },
      when: 'release.enabled',
      blocking: true,
      onError: 'halt',
    },
  ],
};

// Values of no field's type, and the edges of a string.
const ODD = [null, 0, 1, -1, 1.5, true, false, '', ' ', 'x', [], ['x'], [1], {}, { a: 1 }];
const odd = fc.constantFrom(...ODD);

const POINTS = ['discuss:pre', 'plan:pre', 'plan:post', 'execute:wave:post', 'verify:pre', 'verify:post', 'ship:pre', 'ship:post'];
const point = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...POINTS) },
  { weight: 1, arbitrary: fc.constantFrom('ship', 'ship-pre', 'Ship:pre', 'execute:wave', '') },
  { weight: 1, arbitrary: odd },
);

// A range from GSD's grammar, and past it.
const versionPart = fc.constantFrom('0', '1', '2', '6', '13', '14', '15', 'x', '*', '01');
const version = fc.array(versionPart, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.'));
const comparator = fc
  .tuple(fc.constantFrom('', '', '>=', '>', '<', '<=', '=', '^', '~', '>= ', 'v'), version, fc.constantFrom('', '', '-rc.1', '+b'))
  .map(([op, v, tail]) => `${op}${v}${tail}`);
const range = fc.oneof(
  fc
    .array(
      fc.array(comparator, { minLength: 1, maxLength: 2 }).map((set) => set.join(' ')),
      { minLength: 1, maxLength: 2 },
    )
    .map((sets) => sets.join(' || ')),
  fc.constantFrom('>=1.6.0', '>=2.0.0', '^1.14', '~1.13', '1.x', '*', 'x', 'latest', '', ' ', '>=1.0; rm -rf /', '1.0.0 - 2.0.0', '||', '<1.0.0 || >=1.14.0'),
);

// A valid entry with up to two of its fields changed (`undefined` leaves
// one out): one slip at a time is what a reviewer misses.
const slipped = (valid, fields) =>
  fc.array(fc.oneof(...Object.entries(fields).map(([key, values]) => values.map((value) => [key, value]))), { maxLength: 2 }).map((changes) => {
    const out = { ...valid };
    for (const [key, value] of changes) {
      if (value === undefined) delete out[key];
      else out[key] = value;
    }
    return out;
  });

const slice = fc.oneof(
  {
    weight: 6,
    arbitrary: slipped(
      { type: 'boolean', default: false, description: 'd' },
      {
        type: fc.constantFrom('string', 'number', 'bool', 1, undefined),
        default: fc.constantFrom(true, 'a', 3, null, 1e400, undefined),
        description: fc.constantFrom('', ' ', 1, undefined),
      },
    ),
  },
  {
    weight: 3,
    arbitrary: slipped(
      { type: 'enum', values: ['plan:pre', 'ship:pre'], default: 'ship:pre', description: 'd' },
      { values: fc.constantFrom([], ['ship:pre', 1], 'ship:pre', ['plan:pre'], undefined), default: fc.constantFrom('plan:pre', 'x', 1, undefined) },
    ),
  },
  { weight: 1, arbitrary: odd },
);
// A key of GSD's own (tdd's, the central schema's) is taken.
const configKey = fc.constantFrom(
  'release.enabled',
  'release.enabled',
  'release.where',
  'release.other',
  '',
  'constructor',
  '__proto__',
  'workflow.tdd_mode',
  'mode',
);

const gate = slipped(BASE.gates[0], {
  point,
  check: fc.constantFrom(
    { query: 'release.ready' },
    { predicate: { kind: 'command-exit-zero', command: 'true', timeOut: 5 } },
    { predicate: { kind: 'nope' } },
    { agentVerdict: { prompt: 'p' } },
    { agentVerdict: null },
    { query: '' },
    { query: 'q', extra: 1 },
    { query: 'q', agentVerdict: {} },
    {},
    [],
    null,
    'npm test',
    undefined,
  ),
  when: fc.oneof(configKey, odd, fc.constant(undefined)),
  blocking: fc.oneof(fc.boolean(), odd, fc.constant(undefined)),
  onError: fc.constantFrom('halt', 'skip', 'stop', 'Halt', '', null, 1, undefined),
  blockng: fc.constant(true),
});

const step = slipped(BASE.steps[0], {
  point,
  ref: fc.constantFrom(
    { agent: 'release-writer' },
    { command: 'gsd-tools x' },
    { skill: 'gsd-release-notes' },
    { skill: 'other' },
    { agent: 'other' },
    { skill: 'release-notes', agent: 'release-writer' },
    {},
    [],
    null,
    'x',
    { skill: 1 },
    undefined,
  ),
  produces: fc.constantFrom([], ['A.md', 'B.md'], [1], 'x', undefined, ['RESEARCH.md'], ['AI-SPEC.md']),
  // What the host makes before the step; what another capability could make ("" too) is D68's.
  consumes: fc.constantFrom([], ['CONTEXT.md'], [1], 'x', undefined, ['']),
  when: fc.oneof(configKey, odd, fc.constant(undefined)),
  pointFrom: fc.constantFrom('release.where', 'release.enabled', 'nope', 1),
  supportsReviewerLanes: fc.constantFrom(true, false, 'yes'),
  fragment: fc.constantFrom({ inline: 'x' }, { inline: '' }, {}, { path: '../x.md' }, null),
  onError: fc.constantFrom('halt', 'stop', null, undefined),
});

const contribution = slipped(BASE.contributions[0], {
  point,
  into: fc.constantFrom('researcher', 'checker', 'executor', 'verifier', 'orchestrator', 'nobody', 1, undefined),
  produces: fc.constantFrom(['PLAN-NOTES.md'], [1], undefined),
  consumes: fc.constantFrom([1], 'x', undefined),
  fragment: fc.constantFrom({ inline: '' }, {}, { path: '/abs.md' }, { path: 'a/../../x.md' }, 'x', undefined),
  when: fc.oneof(configKey, odd),
  onError: fc.constantFrom('skip', 'halt', 'stop'),
});

// One change to the base: a field left out, set to an odd value, or to a
// value from its own domain.
const FIELDS = Object.keys(BASE);
const change = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...FIELDS).map((field) => ({ field, value: undefined, how: 'left out' })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...FIELDS), odd).map(([field, value]) => ({ field, value, how: 'odd' })) },
  {
    weight: 14,
    arbitrary: fc
      .oneof(
        fc
          .constantFrom(
            'release-checks',
            'Release',
            '1x',
            'a',
            'a-b-c',
            'gsd-x',
            'gsd-core-x',
            'anthropic-x',
            'x_y',
            'x.y',
            'r-',
            'tdd',
            'security',
            'claude',
            'gemini',
          )
          .map((value) => ({ field: 'id', value })),
        fc.constantFrom('feature', 'runtime', 'reviewer', 'Feature', 'featur', '').map((value) => ({ field: 'role', value })),
        fc.constantFrom('core', 'standard', 'full', 'full', 'max', 'Full').map((value) => ({ field: 'tier', value })),
        fc
          .constantFrom('1.0.0', '1.0', 'v1.0.0', '01.0.0', '1.2.3-rc.1', '1.2.3+b.5', '1.2.3-01', '1.2.3-', '0.0.0')
          .map((value) => ({ field: 'version', value })),
        fc.constantFrom('t', ' ', '').map((value) => ({ field: 'title', value })),
        fc
          .oneof(
            range.map((gsd) => ({ gsd })),
            fc.constantFrom({}, { gsd: 3 }, '>=1', null, []),
          )
          .map((value) => ({ field: 'engines', value })),
        fc.constantFrom({ '1.0.0': '>=1.6.0' }, { '1.0': '>=1' }, { '1.0.0': '' }, { '1.0.0': 3 }, []).map((value) => ({ field: 'compatVersions', value })),
        fc.constantFrom(`sha512-${'A'.repeat(86)}==`, 'sha512-abc', 3).map((value) => ({ field: 'integrity', value })),
        fc.constantFrom({ sourceRepo: 'r', commit: 'c' }, { sourceRepo: '' }, { commit: 'c' }, 'x').map((value) => ({ field: 'provenance', value })),
        // GSD's own, of each tier, and the capability itself; another's is D68's.
        // Or a name no capability can have (ids are kebab-case).
        fc
          .constantFrom(
            [1],
            ['x', 2],
            ['security'],
            ['research'],
            ['claude'],
            ['release-checks'],
            ['tdd', 'research'],
            [''],
            ['Security'],
            ['x_y'],
            ['security', 'security'],
          )
          .map((value) => ({ field: 'requires', value })),
        fc
          .constantFrom(
            { supported: [], unsupported: [] },
            { supported: ['*', 'claude'], unsupported: [] },
            { supported: ['Claude'], unsupported: [] },
            { supported: ['*'], unsupported: ['*'] },
            { supported: ['*'] },
            { unsupported: [] },
            { supported: ['*'], unsupported: [], notes: { '*': 'n' } },
            { supported: ['*'], unsupported: [], notes: { Bad: 'n' } },
            { supported: ['*'], unsupported: [], notes: { '*': '' } },
            { supported: [''], unsupported: [] },
            { supported: ['constructor'], unsupported: [] },
            { supported: ['__proto__'], unsupported: [] },
            { supported: ['claude', 'codex'], unsupported: ['cursor'] },
            { supported: ['*'], unsupported: [], notes: { claude: 'n' } },
            // GSD's own that are no runtimes, and the feature itself.
            { supported: ['security'], unsupported: [] },
            { supported: ['claude'], unsupported: ['gemini'] },
            { supported: ['*'], unsupported: [], notes: { 'release-checks': 'n' } },
          )
          .map((value) => ({ field: 'runtimeCompat', value })),
        fc
          .constantFrom(
            ['release-notes', 1],
            ['release-notes', '__proto__'],
            ['constructor'],
            [],
            ['release-notes', 'code-review'],
            ['ui-phase', 'release-notes'],
            ['release-notes', 'release-notes'],
          )
          .map((value) => ({ field: 'skills', value })),
        fc
          .constantFrom(['release-writer', 1], ['prototype'], [], ['release-writer', 'gsd-ui-auditor'], ['release-writer', 'release-writer'])
          .map((value) => ({ field: 'agents', value })),
        fc
          .constantFrom(
            [{ family: 'rel', module: 'rel.cjs', router: 'r' }],
            [{ family: '', module: '../x.cjs', router: '' }],
            [{ family: 'prototype', module: 'x.js', router: 'r', subcommands: [''] }],
            [null],
            {},
            [{ family: 'intel', module: 'i.cjs', router: 'r' }],
            [
              { family: 'rel', module: 'rel.cjs', router: 'r' },
              { family: 'rel', module: 'b.cjs', router: 'b' },
            ],
          )
          .map((value) => ({ field: 'commands', value })),
        fc.dictionary(configKey, slice, { maxKeys: 3 }).map((extra) => ({ field: 'config', value: { ...BASE.config, ...extra } })),
        fc.dictionary(configKey, slice, { maxKeys: 2 }).map((value) => ({ field: 'config', value })),
        fc
          .constantFrom(
            [{ event: 'Stop', script: 'hooks/x.js' }],
            [{ event: '', script: 'a b.js' }],
            [{ event: 'Stop', script: '../x.js', matcher: 'a\u0007' }],
            [{ event: 'Stop', script: 'x.pyc' }],
            [null],
            {},
          )
          .map((value) => ({ field: 'hooks', value })),
        fc.array(step, { maxLength: 2 }).map((value) => ({ field: 'steps', value })),
        fc.array(step, { maxLength: 2 }).map((value) => ({ field: 'steps', value })),
        fc.array(contribution, { maxLength: 2 }).map((value) => ({ field: 'contributions', value })),
        fc.array(fc.oneof({ weight: 8, arbitrary: gate }, { weight: 1, arbitrary: odd }), { maxLength: 3 }).map((value) => ({ field: 'gates', value })),
        fc.array(gate, { minLength: 1, maxLength: 2 }).map((value) => ({ field: 'gates', value })),
        fc.constantFrom('release.enabled', 'release.other', '', 'constructor', 1).map((value) => ({ field: 'activationKey', value })),
        fc
          .constantFrom(
            { trackerPrefix: 'jira', invoke: { binary: 'jira', args: ['{{id}}'], timeoutMs: 5000 } },
            { trackerPrefix: 'JIRA', invoke: { binary: '', args: ['x'], timeoutMs: 120_001 } },
            { trackerPrefix: 'j', invoke: { binary: 'b', args: ['{{id}}'], timeoutMs: 1.5 } },
            { trackerPrefix: 'j' },
            null,
          )
          .map((value) => ({ field: 'taskContentResolver', value })),
        fc.constantFrom({ slug: 'x' }).map((value) => ({ field: 'reviewer', value })),
        fc.constantFrom({ configHome: {} }).map((value) => ({ field: 'runtime', value })),
      )
      .map((c) => ({ ...c, how: 'domain' })),
  },
);

// Where the manifest sits: its folder, the id as a rule, else another name.
const folder = fc.oneof({ weight: 30, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('other', 'gsd-x', 'anthropic-x') });
// The text: the manifest's JSON, mostly; a key given twice, cut short, or
// after a byte order mark.
const text = fc.oneof({ weight: 30, arbitrary: fc.constant('json') }, { weight: 1, arbitrary: fc.constantFrom('twice', 'broken', 'bom') });

export const MANIFESTS = fc.record({ changes: fc.array(change, { maxLength: 3 }), folder, text }).map(({ changes, folder: given, text: form }) => {
  const manifest = { ...BASE };
  for (const { field, value } of changes) {
    if (value === undefined) delete manifest[field];
    else manifest[field] = value;
  }
  const id = manifest.id;
  const name = given ?? (typeof id === 'string' && /^[A-Za-z0-9._-]+$/.test(id) && id !== '.' && id !== '..' ? id : 'unnamed');
  let json = JSON.stringify(manifest);
  if (form === 'twice') json = `{"title": "first", ${json.slice(1)}`;
  if (form === 'broken') json = json.slice(0, -1);
  if (form === 'bom') json = `\uFEFF${json}`;
  return { folder: name, text: json, meta: { changes: changes.map((c) => `${c.field} ${c.how}`), role: manifest.role, text: form } };
});
