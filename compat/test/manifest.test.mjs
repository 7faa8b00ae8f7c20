// GSD 1.14's loader and `gsd-check validate` on the same capability
// manifests: gsd-check says GSD would not load a manifest (and flags it)
// exactly when GSD skips it, but for the documented differences, each
// recognised by its classifier. Hand-written cases pin GSD's verdict;
// generated ones (fast-check, a fixed seed) try what an author might write.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MANIFEST_CASES } from '../cases/manifest.mjs';
import { MANIFESTS } from '../generative/manifests.mjs';
import { documentedDifferences } from '../harness.mjs';
import { judgeManifest, loadBoth, MANIFEST_CLASSIFIERS } from '../manifest.mjs';

// CI's, fixed and bounded; a long run gives its own:
//   COMPAT_MANIFEST_SEED=7 COMPAT_MANIFEST_RUNS=10000 node --test compat/test/manifest.test.mjs
const MANIFEST_SEED = Number(process.env.COMPAT_MANIFEST_SEED ?? 20261130);
const MANIFEST_RUNS = Number(process.env.COMPAT_MANIFEST_RUNS ?? 2000);

const shown = (a) =>
  `\n  GSD: ${a.gsd.loaded ? 'loads' : 'skips'} ${JSON.stringify(a.gsd.warnings).slice(0, 600)}\n  its validator alone: ${JSON.stringify(a.gsd.validatorErrors).slice(0, 300)}\n  gsd-check: ${JSON.stringify(a.check).slice(0, 900)}\n  manifest: ${a.text.slice(0, 900)}`;

test('every classifier names a documented difference', () => {
  const documented = documentedDifferences();
  assert.deepEqual(
    MANIFEST_CLASSIFIERS.filter((k) => !documented.has(k.id)).map((k) => k.id),
    [],
  );
});

test("hand-written manifests: GSD's verdict as pinned, gsd-check's the same or a documented difference", { timeout: 600_000 }, async () => {
  const answers = [
    ...(await loadBoth(MANIFEST_CASES.filter((c) => !c.alone))),
    ...(await Promise.all(MANIFEST_CASES.filter((c) => c.alone).map(async (c) => (await loadBoth([c]))[0]))),
  ];
  for (const a of answers) {
    assert.equal(
      a.gsd.loaded,
      MANIFEST_CASES.find((c) => c.name === a.name).gsd,
      `${a.name}: GSD ${a.gsd.loaded ? 'loads' : 'skips'} it, the case says otherwise${shown(a)}`,
    );
    const judged = judgeManifest(a);
    if (a.differs === undefined) assert.equal(judged, 'same', `${a.name}${shown(a)}`);
    else {
      assert.equal(judged, a.differs, `${a.name}: classified as ${judged}${shown(a)}`);
      const pinned = MANIFEST_CASES.find((c) => c.name === a.name).check;
      for (const [key, value] of Object.entries(pinned)) assert.equal(a.check[key], value, `${a.name}: gsd-check's ${key}${shown(a)}`);
    }
  }
});

test(`seed ${MANIFEST_SEED}: ${MANIFEST_RUNS} generated manifests, every difference classified`, { timeout: 600_000 }, async () => {
  const cases = fc.sample(MANIFESTS, { seed: MANIFEST_SEED, numRuns: MANIFEST_RUNS });
  const answers = await loadBoth(cases);
  const byOutcome = {};
  const unclassified = [];
  answers.forEach((a, index) => {
    const judged = judgeManifest(a) ?? 'unclassified';
    byOutcome[judged] = (byOutcome[judged] ?? 0) + 1;
    if (judged === 'unclassified') unclassified.push(`case ${index} (${a.meta.changes.join(', ') || 'unchanged'}; ${a.meta.text})${shown(a)}`);
  });
  const refused = answers.filter((a) => !a.gsd.loaded).length;
  console.log(`seed ${MANIFEST_SEED}, ${answers.length} manifests: GSD loads ${answers.length - refused}, skips ${refused}; ${JSON.stringify(byOutcome)}`);
  assert.deepEqual(unclassified, []);
  // The generator reaches both verdicts, and most of GSD's skips are the manifest's.
  assert.ok(refused > answers.length / 4 && refused < answers.length, `GSD skips ${refused}`);
});
