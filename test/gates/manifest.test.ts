import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { checkManifest } from '../../src/gates/manifest.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { FEATURE, feature, told } from '../helpers/manifest.ts';

const check = (input: unknown, folder?: string) => checkManifest(input, KINDS, folder);
const issues = (input: unknown, folder?: string) => told(check(input, folder).issues);

test('a feature capability GSD loads: no issues, its gates counted', () => {
  assert.deepEqual(check(FEATURE), { gates: 1, issues: [], loads: true, unchecked: undefined });
  assert.deepEqual(check(FEATURE, 'release-checks').issues, []);
});

test('what is not an object is refused whole', () => {
  for (const input of [[], null, 'x', 3])
    assert.deepEqual(check(input), {
      gates: 0,
      issues: [
        { path: '', message: `must be a JSON object, got ${input === null ? 'null' : Array.isArray(input) ? '[]' : JSON.stringify(input)}`, refuses: true },
      ],
      loads: false,
      unchecked: undefined,
    });
});

test('a manifest of only an id, a version and gates: GSD refuses it, and says what a feature needs', () => {
  const report = check({ id: 'x', version: '1.0.0', gates: [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }] });
  assert.equal(report.loads, false);
  assert.equal(report.gates, 1);
  assert.deepEqual(told(report.issues), [
    'refused role: is required (one of "feature", "runtime", "reviewer")',
    'refused title: is required (a non-empty string)',
    'refused description: is required (a non-empty string)',
    'refused tier: is required (one of "core", "standard", "full")',
    'refused requires: is required (an array of capability ids)',
    'refused runtimeCompat: is required (an object {"supported": [...], "unsupported": [...]}, such as {"supported": ["*"], "unsupported": []})',
    'refused skills: is required (an array of skill names)',
    'refused agents: is required (an array of agent names)',
    'refused config: is required (an object from config keys to {"type", "default", "description"})',
    'refused steps: is required (an array of steps)',
    'refused contributions: is required (an array of contributions)',
  ]);
  // Without gates, no role says what it is: GSD reads no further.
  assert.deepEqual(issues({ id: 'x', version: '1.0.0', role: 'featur', title: 't', description: 'd', tier: 'full', requires: [] }), [
    'refused role: must be one of "feature", "runtime", "reviewer", got "featur"; did you mean "feature"?',
  ]);
});

test('the envelope, one field at a time', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ id: undefined }, ['refused id: is required (a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens))']],
    [{ id: 'Release' }, ['refused id: must be a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens), got "Release"']],
    [{ id: '1x' }, ['refused id: must be a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens), got "1x"']],
    [{ role: 'Feature' }, ['refused role: must be one of "feature", "runtime", "reviewer", got "Feature"; did you mean "feature"?']],
    [{ title: '' }, ['refused title: must be a non-empty string, got ""']],
    [{ description: 3 }, ['refused description: must be a non-empty string, got 3']],
    [{ tier: 'max' }, ['refused tier: must be one of "core", "standard", "full", got "max"']],
    [{ requires: 'other-cap' }, ['refused requires: must be an array of capability ids, got "other-cap"']],
    [{ requires: ['other-cap', 2] }, ['refused requires[1]: must be a string, got 2']],
  ];
  for (const [change, expected] of cases) assert.deepEqual(issues(feature(change)), expected, JSON.stringify(change));
  // GSD takes a blank title as given.
  assert.deepEqual(issues(feature({ title: ' ' })), []);
});

test("at GSD's layout the id is its folder's name; ids GSD keeps for its own are refused", () => {
  assert.deepEqual(issues(FEATURE, 'release'), ['refused id: must be the name of its folder, "release", got "release-checks"']);
  assert.deepEqual(issues(feature({ id: 'gsd-release' })), [
    'refused id: the id, "gsd-release", starts with "gsd-": GSD keeps the prefixes gsd-, gsd-core- and anthropic- for its own capabilities',
  ]);
  assert.deepEqual(issues(feature({ id: 'anthropic-x' }), 'anthropic-x'), [
    'refused the name of its folder, "anthropic-x", starts with "anthropic-": GSD keeps the prefixes gsd-, gsd-core- and anthropic- for its own capabilities',
  ]);
  // GSD reads the folder's name first, whatever the id.
  assert.deepEqual(issues(feature({ id: 'x' }), 'gsd-core-x'), [
    'refused id: must be the name of its folder, "gsd-core-x", got "x"',
    'refused the name of its folder, "gsd-core-x", starts with "gsd-": GSD keeps the prefixes gsd-, gsd-core- and anthropic- for its own capabilities',
  ]);
});

test('a gate issue GSD loads past is kept, and does not refuse the capability', () => {
  const report = check(feature({ gates: [{ point: 'ship:pre', check: { query: '' }, blocking: true, onError: 'halt', extra: 1 }] }));
  assert.deepEqual(told(report.issues), [
    'gates[0].extra: unknown field (known fields: point, check, when, blocking, onError)',
    'gates[0].check.query: must be a non-empty string, got ""',
  ]);
  assert.equal(report.loads, true);
  assert.match(
    issues(feature({ gates: [{ point: 'ship', check: { query: 'q' }, blocking: true, onError: 'halt' }] })).join('\n'),
    /^refused gates\[0\]\.point: must be a loop point, got "ship" \(one of: /,
  );
  assert.deepEqual(issues(feature({ gates: {} })), ['refused gates: must be an array, got an object']);
  assert.deepEqual(issues(feature({ gates: undefined })), ['refused gates: is required (an array of gates, maybe empty)']);
});

test('a runtime or a reviewer: no feature fields, its own body, which gsd-check does not check', () => {
  const runtime = { id: 'my-host', role: 'runtime', version: '1.0.0', title: 'Host', description: 'A host.', tier: 'core', requires: [], runtime: {} };
  assert.deepEqual(check(runtime), { gates: 0, issues: [], loads: undefined, unchecked: 'runtime' });
  const reviewer = { ...runtime, role: 'reviewer', runtime: undefined, reviewer: { slug: 'x' } };
  assert.deepEqual(check(reviewer), { gates: 0, issues: [], loads: undefined, unchecked: 'reviewer' });
  const gated = check({ ...runtime, runtime: undefined, gates: [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }], skills: [] });
  assert.deepEqual(
    [told(gated.issues), gated.gates, gated.loads],
    [
      [
        'refused runtime: is required (an object (the body of a runtime capability))',
        'refused skills: must not be given on a runtime capability: only a feature capability has skills',
        'refused gates: must not be given on a runtime capability: only a feature capability has gates',
      ],
      1,
      false,
    ],
  );
  assert.deepEqual(issues({ ...reviewer, reviewer: undefined, runtime: {}, taskContentResolver: {} }), [
    'refused reviewer: is required (the body of a reviewer capability: its lane)',
    'refused runtime: must not be given on a reviewer capability: it is not a runtime GSD installs into',
    'refused taskContentResolver: must not be given on a reviewer capability: only a feature capability has taskContentResolver',
  ]);
  // Their config slices are built into GSD's registry like a feature's.
  assert.deepEqual(issues({ ...runtime, config: { k: { type: 'boolean', default: 1, description: 'd' } } }), [
    'refused config.k.default: must be true or false, as its type says, got 1',
  ]);
});
