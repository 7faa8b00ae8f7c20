// The generative differential of verify-work's reading of a phase (issue
// 42): random phase trees holding UAT files of the shapes execute-phase and
// verify-work write (GSD's own templates/UAT.md, through loop-lifecycle.mjs's
// `uat`: status testing, partial, complete, diagnosed and others; `source:`
// the phase's VERIFICATION.md or its SUMMARY files; results pending or
// recorded), beside a `NN-00-smoke-UAT.md`, another phase's, a bare one or
// none, with or without a VERIFICATION.md and a plan, read by GSD 1.14
// (`init verify-work`, `init phase-op`'s picks, `frontmatter get` and `phase
// uat-passed` of the UAT it picks) and by gsd-check's --reached --ship,
// reduced alike (loop-reading.mjs). A difference fails with the tree as its
// reproduction. GSD_CHECK_FUZZ_RUNS sets the number of trees (CI runs a
// sample), GSD_CHECK_FUZZ_SEED the seed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { VERIFY_WORK_CASES } from '../cases/verify-work.mjs';
import { filesOf, knownDifference, readBoth, verifyWorkTree } from '../generative/verify-work.mjs';

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 8);
const SEED = process.env.GSD_CHECK_FUZZ_SEED === undefined ? 20261203 : Number(process.env.GSD_CHECK_FUZZ_SEED);

for (const c of VERIFY_WORK_CASES) {
  test(`${c.name}${c.differs === undefined ? '' : ` (${c.differs})`}`, { timeout: 60_000 }, async () => {
    const { gsd, check } = await readBoth(c.tree);
    assert.equal(gsd, c.gsd, 'GSD 1.14');
    assert.equal(check, c.check ?? c.gsd, 'gsd-check');
    assert.equal(knownDifference(c.tree, { gsd, check }), c.differs);
  });
}

// A tree that differs fails, unless a difference of differences.md explains
// it (counted, and printed at the end).
test("verify-work's reading of a phase by GSD and by gsd-check: the same, or the tree that differs", { timeout: 900_000 }, async (t) => {
  const counts = { trees: 0, agree: 0 };
  await fc.assert(
    fc.asyncProperty(verifyWorkTree, async (tree) => {
      const read = await readBoth(tree);
      counts.trees++;
      const known = read.gsd === read.check ? 'agree' : knownDifference(tree, read);
      if (known !== undefined) counts[known] = (counts[known] ?? 0) + 1;
      else assert.equal(read.check, read.gsd, JSON.stringify({ tree, files: filesOf(tree) }, null, 1));
    }),
    { numRuns: RUNS, seed: SEED },
  );
  t.diagnostic(`seed ${SEED}: ${JSON.stringify(counts)}`);
});
