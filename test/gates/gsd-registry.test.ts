import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { checkAgainstGsd } from '../../src/gates/gsd-registry.ts';
import { checkManifest } from '../../src/gates/manifest.ts';
import { ManifestIssues } from '../../src/gates/manifest-fields.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { FEATURE, feature, told } from '../helpers/manifest.ts';
import { ROOT } from '../helpers/support.ts';

const against = (cap: Record<string, unknown>, installed = typeof cap.id === 'string' ? cap.id : undefined): string[] => {
  const issues = new ManifestIssues();
  checkAgainstGsd(cap, installed, issues);
  return told(issues.list);
};

test('a capability of names GSD has not taken clashes with nothing', () => {
  assert.deepEqual(against({ ...FEATURE }), []);
});

test("GSD's own capability wins every clash: id, skill, agent, command family, config key", () => {
  assert.deepEqual(against(feature({ id: 'tdd' })), ['refused id: "tdd" is the id of one of GSD 1.14\'s own capabilities, which GSD keeps']);
  assert.deepEqual(against(feature({}), 'security'), ['refused "security" is the id of one of GSD 1.14\'s own capabilities, which GSD keeps']);
  assert.deepEqual(against(feature({ skills: ['notes', 'code-review'], agents: ['gsd-code-reviewer'] })), [
    'refused skills[1]: "code-review" is a skill of GSD\'s own capability "code-review"',
    'refused agents[0]: "gsd-code-reviewer" is an agent of GSD\'s own capability "code-review"',
  ]);
  assert.deepEqual(against(feature({ commands: [{ family: 'intel', module: 'x.cjs', router: 'r' }, null] })), [
    'refused commands[0].family: "intel" is a command family of GSD\'s own capability "intel"',
  ]);
  assert.deepEqual(against(feature({ config: { 'workflow.tdd_mode': {}, mode: {}, 'release.x': {} } })), [
    'refused config["workflow.tdd_mode"]: is a config key of GSD\'s own capability "tdd"',
    "refused config.mode: is a key of GSD's own config schema",
  ]);
  // A runtime's config is GSD's registry's too.
  assert.deepEqual(against({ id: 'my-host', role: 'runtime', config: { granularity: {} } }), [
    "refused config.granularity: is a key of GSD's own config schema",
  ]);
});

test('requires: not itself, nothing of a higher tier', () => {
  assert.deepEqual(against(feature({ requires: ['release-checks'] })), ['refused requires[0]: a capability cannot require itself']);
  assert.deepEqual(against(feature({ tier: 'standard', requires: ['research', 'security', 'claude', 'elsewhere', 3] })), [
    'refused requires[1]: "security" is of tier "full", above this capability\'s "standard": a capability may require only its own tier or a lower one',
  ]);
  assert.deepEqual(against(feature({ tier: 'full', requires: ['security'] })), []);
  assert.deepEqual(against(feature({ tier: 'max', requires: ['security'] })), [], 'a tier GSD does not know is refused elsewhere');
});

test('requires: a name no capability can have, since every id GSD loads is kebab-case', () => {
  const rule =
    "can be no capability's id (a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens)): GSD finds no capability it requires, and would skip this one";
  assert.deepEqual(against(feature({ tier: 'full', requires: ['', 'Security', 'x_y', 'security', 'elsewhere'] })), [
    `refused requires[0]: "" ${rule}`,
    `refused requires[1]: "Security" ${rule}`,
    `refused requires[2]: "x_y" ${rule}`,
  ]);
});

test("runtimeCompat: a runtime that is one of GSD's own of another role, or the feature itself, is none", () => {
  const named = {
    supported: ['claude', 'security', 'gemini', 'release-checks', 'elsewhere', 3, ''],
    unsupported: ['tdd'],
    notes: { research: 'n', '*': 'n', codex: 'n' },
  };
  assert.deepEqual(against(feature({ runtimeCompat: named })), [
    'refused runtimeCompat.supported[1]: "security" is GSD\'s own feature capability, not a runtime: GSD finds no runtime it names, and would skip this capability',
    'refused runtimeCompat.supported[2]: "gemini" is GSD\'s own reviewer capability, not a runtime: GSD finds no runtime it names, and would skip this capability',
    'refused runtimeCompat.supported[3]: "release-checks" is this capability itself, not a runtime: GSD finds no runtime it names, and would skip this capability',
    'refused runtimeCompat.unsupported[0]: "tdd" is GSD\'s own feature capability, not a runtime: GSD finds no runtime it names, and would skip this capability',
    'refused runtimeCompat.notes.research: "research" is GSD\'s own feature capability, not a runtime: GSD finds no runtime it names, and would skip this capability',
  ]);
  // GSD reads only a feature's.
  assert.deepEqual(against({ id: 'my-host', role: 'runtime', runtimeCompat: named }), []);
});

test("a step may not produce what one of GSD's own steps produces at the same point", () => {
  const step = (FEATURE.steps as Record<string, unknown>[])[0]!;
  assert.deepEqual(
    against(
      feature({
        steps: [
          { ...step, point: 'plan:pre', produces: ['AI-SPEC.md', 'AI-SPEC.md'] },
          { ...step, point: 'plan:post', produces: ['AI-SPEC.md'] },
        ],
      }),
    ),
    ['refused steps[0].produces: GSD\'s own capability "ai-integration" produces "AI-SPEC.md" at plan:pre: one artifact has one producer at a point'],
  );
  assert.deepEqual(
    against({ ...feature({ steps: [{ ...step, point: 'plan:pre', produces: ['AI-SPEC.md'] }] }), role: 'runtime' }),
    [],
    'only a feature has steps',
  );
});

test("GSD 1.14's own 46 manifests, copied: valid but for the clashes with themselves", () => {
  const dir = join(ROOT, 'test/fixtures/gsd-1.14/capabilities');
  const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  assert.equal(names.length, 46);
  const roles = new Map<string, number>();
  for (const name of names) {
    const cap = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
    const report = checkManifest(cap, KINDS, cap.id as string);
    const clashes = against(cap);
    assert.deepEqual(told(report.issues), clashes, name);
    assert.ok(clashes[0]?.endsWith("is the id of one of GSD 1.14's own capabilities, which GSD keeps"), name);
    roles.set(report.unchecked ?? 'feature', (roles.get(report.unchecked ?? 'feature') ?? 0) + 1);
  }
  assert.deepEqual(Object.fromEntries(roles), { feature: 22, runtime: 19, reviewer: 5 });
});
