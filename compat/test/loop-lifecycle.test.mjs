// The table of docs/research/loop-reached.md held to the real GSD: a project
// driven by compat/loop-lifecycle.mjs through phase 1 (discussed, three plans
// in two waves, human verification, shipped) and an inserted phase 1.1 (no
// discuss, the verifier passes). At each step what GSD itself reports
// (state-snapshot, STATE.md's Status line, the phase directories, roadmap
// analyze, phase-plan-index, verification status) must be the step's
// expectation, and the rule applied to it must give the step's points, in
// the working tree and in the step's last commit (what CI sees).
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { POINTS } from '../harness.mjs';
import { checkReached, observe, observeHead, reachedPoints, samePhase, steps } from '../loop-lifecycle.mjs';

// Bounds for a loaded two-core machine, so a hung gsd-tools fails a step
// instead of the run; a step takes a few seconds there.
const STEP_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 900_000;

test('each step of the lifecycle: GSD reports what the table says, and the rule gives its points', { timeout: RUN_TIMEOUT_MS }, async (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-loop-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A step builds on the state the one before left; after a failure the
  // rest would only report that state again.
  let failed = null;
  for (const step of steps) {
    await t.test(step.name, { timeout: STEP_TIMEOUT_MS, skip: failed === null ? false : `after "${failed}" failed` }, () => {
      try {
        step.run(dir);
        const o = observe(dir, step.expected.phase);
        const e = step.expected;
        assert.deepEqual(o.snapshot, { current_phase: e.current_phase, status: e.status }, 'gsd-tools state-snapshot --raw');
        assert.equal(o.statusLine, e.statusLine, "STATE.md's Status: line");
        assert.deepEqual(o.artifacts, e.artifacts, 'the files of .planning/phases/*');
        assert.equal(o.diskStatus, e.diskStatus, 'roadmap analyze: disk_status');
        assert.equal(o.roadmapComplete, e.roadmapComplete, 'roadmap analyze: roadmap_complete');
        assert.deepEqual(o.waves, e.waves, 'phase-plan-index: waves');
        assert.deepEqual(o.summarized, e.summarized, 'phase-plan-index: plans with has_summary');
        assert.equal(o.verification, e.verification, 'verification status');
        assert.equal(o.uat?.status ?? null, e.uat, "the UAT's frontmatter status");
        const rule = reachedPoints(o);
        assert.deepEqual(rule.reached, e.reached, 'points whose gates GSD has evaluated');
        assert.deepEqual(rule.passed, e.passed, 'points whose moment has passed');
        assert.deepEqual(
          { pre: rule.wavePre, post: rule.wavePost },
          { pre: e.wavePre, post: e.wavePost },
          'waves past execute:wave:pre / through execute:wave:post',
        );
        assert.deepEqual(reachedPoints(observeHead(dir, e.phase)).reached, e.atHead, 'points the rule finds in the last commit');
        // gsd-check's --reached gives the table's points, but for the ship:
        // GSD records it only after its pull request (a [ci skip] commit no
        // job sees), so --reached takes it from that record alone.
        assert.deepEqual(checkReached(dir, e.phase), { phase: e.phase, reached: e.reached }, 'gsd-check gates run --reached --phase-number');
        // As a CI job runs it, with the phase STATE.md names: after `phase
        // complete` STATE names the next one, and the completed phase, the
        // one its ship's pull request carries, is what it gates.
        const current = checkReached(dir);
        const want = e.current ?? { phase: e.phase, reached: e.reached };
        assert.deepEqual(current.reached, want.reached, 'gsd-check gates run --reached --current-phase: the points');
        if (want.reached.length > 0) assert.ok(samePhase(current.phase, want.phase), `--current-phase evaluated phase ${current.phase}, not ${want.phase}`);
      } catch (error) {
        failed = step.name;
        throw error;
      }
    });
  }
});

test('the table: points in loop order, reached within passed (but where the files cannot tell), the commit within reached, never the points 1.14 runs no gate at, never undone within a phase', {
  timeout: 10_000,
}, () => {
  const ungated = ['execute:pre', 'execute:wave:pre', 'verify:post', 'ship:post'];
  const last = new Map();
  for (const { name, expected: e } of steps) {
    for (const list of [e.reached, e.passed])
      assert.deepEqual(
        list,
        POINTS.filter((p) => list.includes(p)),
        `${name}: in loop order`,
      );
    assert.deepEqual(
      e.reached.filter((p) => !e.passed.includes(p)),
      e.early,
      `${name}: reached but not passed, beyond what the files cannot tell`,
    );
    assert.deepEqual(
      e.reached.filter((p) => ungated.includes(p)),
      [],
      `${name}: a point GSD 1.14 evaluates no gate at`,
    );
    assert.deepEqual(
      e.atHead.filter((p) => !e.reached.includes(p)),
      [],
      `${name}: the commit shows a point GSD has not evaluated`,
    );
    const before = last.get(e.phase) ?? { reached: [], passed: [] };
    assert.deepEqual(
      before.reached.filter((p) => !e.reached.includes(p)),
      [],
      `${name}: a reached point dropped`,
    );
    assert.deepEqual(
      before.passed.filter((p) => !e.passed.includes(p)),
      [],
      `${name}: a passed point dropped`,
    );
    last.set(e.phase, e);
  }
});
