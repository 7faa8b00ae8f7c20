// src/project/phase-id.ts held to GSD 1.14's own phase-id.cjs, function by
// function, on ids and directory names drawn from the shapes GSD makes (and
// the slugs that trip its tokenizer): the module is bundled from source as
// the artefact bundles it, and GSD's is required from the pinned package.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildSync } from 'esbuild';
import fc from 'fast-check';
import { REPO } from '../harness.mjs';

const gsd = createRequire(import.meta.url)(join(REPO, 'compat/node_modules/@opengsd/gsd-core/gsd-core/bin/lib/phase-id.cjs'));
const bundled = buildSync({ entryPoints: [join(REPO, 'src/project/phase-id.ts')], bundle: true, format: 'esm', platform: 'node', write: false });
const ours = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 2000);

const digits = fc.stringMatching(/^[0-9]{1,3}$/);
const letter = fc.constantFrom('', '', 'A', 'a', 'B');
const decimals = fc.array(fc.stringMatching(/^[0-9]{1,2}$/), { maxLength: 2 }).map((parts) => parts.map((p) => `.${p}`).join(''));
const code = fc.constantFrom('', '', '', 'CK-', 'ck-', 'PROJ_2-', 'Ab-');
// A phase id as a person or STATE.md writes it.
const id = fc.oneof(
  fc.tuple(code, digits, letter, decimals).map(([c, d, l, x]) => `${c}${d}${l}${x}`),
  fc.tuple(digits, digits, fc.option(digits, { nil: undefined })).map(([a, b, c]) => [a, b, c].filter((p) => p !== undefined).join('-')),
  fc.constantFrom('PROJ-42', 'AUTH-101', 'alpha', 'x1', 'P0.3'),
);
const slug = fc.constantFrom('', '-ship', '-ship-notes', '-2026-photos', '-80-20-cleanup', '-7-zip', '-25abc', '-01-auth', '-a-b', '-10x');
const dirName = fc.tuple(id, slug).map(([i, s]) => `${i}${s}`);
const fileName = fc
  .tuple(fc.oneof(id, fc.constant('')), fc.constantFrom('-VERIFICATION.md', '-UAT.md', '_VERIFICATION.md', '.1-CONTEXT.md', '-01-PLAN.md', 'VERIFICATION.md'))
  .map(([i, s]) => `${i}${s}`);

test("normalizePhaseId is GSD's normalizePhaseName", () => {
  fc.assert(
    fc.property(id, (i) => ours.normalizePhaseId(i) === gsd.normalizePhaseName(i)),
    { numRuns: RUNS },
  );
});

test("comparePhaseIds orders as GSD's comparePhaseNum", () => {
  fc.assert(
    fc.property(id, id, (a, b) => Math.sign(ours.comparePhaseIds(a, b)) === Math.sign(gsd.comparePhaseNum(a, b))),
    { numRuns: RUNS },
  );
});

test("phaseToken is GSD's extractPhaseToken", () => {
  fc.assert(
    fc.property(dirName, (d) => ours.phaseToken(d) === gsd.extractPhaseToken(d)),
    { numRuns: RUNS },
  );
});

test("matchPhaseDirs finds what GSD's matchPhaseDirs finds, in GSD's order", () => {
  fc.assert(
    fc.property(fc.uniqueArray(dirName, { maxLength: 6 }), id, (dirs, wanted) => {
      const sorted = [...dirs].sort().sort(gsd.comparePhaseNum);
      assert.deepEqual(ours.matchPhaseDirs(sorted, wanted), gsd.matchPhaseDirs(sorted, gsd.normalizePhaseName(wanted)).matches);
    }),
    { numRuns: RUNS },
  );
});

test("belongsToPhase is GSD's isPhaseArtifact", () => {
  fc.assert(
    fc.property(fileName, dirName, (f, d) => ours.belongsToPhase(f, d) === gsd.isPhaseArtifact(f, d)),
    { numRuns: RUNS },
  );
});

test("samePhase is the equality of GSD's phaseKeyFromToken", () => {
  fc.assert(
    fc.property(id, id, (a, b) => ours.samePhase(a, b) === (gsd.phaseKeyFromToken(a) === gsd.phaseKeyFromToken(b))),
    { numRuns: RUNS },
  );
});

test("phaseIdInProse is the phase of GSD's parsePhaseFromProse", () => {
  const prose = fc
    .tuple(fc.constantFrom('', ' ', 'Phase ', 'phase '), id, fc.constantFrom('', ' of 4 (Delta)', ' — EXECUTING', 'x'))
    .map((parts) => parts.join(''));
  fc.assert(
    fc.property(
      fc.oneof(prose, fc.constantFrom('Milestone v0.5 complete', '[X]', '')),
      (p) => ours.phaseIdInProse(p) === (gsd.parsePhaseFromProse(p).phase ?? undefined),
    ),
    { numRuns: RUNS },
  );
});
