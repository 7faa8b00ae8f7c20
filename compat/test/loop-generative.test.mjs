// The generative differential of a phase's reading: random phase trees of
// the shapes GSD's commands and workflows make (directories with project
// codes, letters, decimals and slugs that trip GSD's tokenizer; plans in
// the flat and nested layouts, depends_on as a list, a scalar or a plan's
// number, superseded and blocked ones; summaries; the phase's own
// VERIFICATION.md beside a correction, a bare one, any status), read by
// GSD 1.14 (find-phase, phase-plan-index, query verification.status) and
// by gsd-check's --reached --ship, reduced alike (loop-reading.mjs). A
// difference fails with the tree as its reproduction. GSD_CHECK_FUZZ_RUNS
// sets the number of trees (CI runs a sample).
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { phaseProject } from '../harness.mjs';
import { checkReads, gsdReads } from '../loop-reading.mjs';

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 20);

const code = fc.constantFrom('', '', '', 'CK-', 'ck-');
const number = fc.constantFrom('04', '4', '04', '004', '04.1', '04A', '05');
const slug = fc.constantFrom('-ship', '-ship', '-ship-notes', '-80-20-cleanup', '', '-2026-photos');
const directory = fc.tuple(code, number, slug).map((parts) => parts.join(''));
const depends = fc.constantFrom(undefined, '[]', '["01"]', '[04-01]', '04-01', '"02"', '[04-09]');
const status = fc.constantFrom(undefined, undefined, 'Superseded', 'superseded', 'complete');
const plan = fc.record({
  n: fc.constantFrom('01', '02', '03'),
  depends,
  status,
  summary: fc.constantFrom(undefined, 'complete', 'blocked', 'Blocked # later'),
});
const verification = fc.constantFrom(undefined, 'passed', 'gaps_found', 'human_needed', 'Passed', '');
const tree = fc.record({
  dirs: fc.uniqueArray(directory, { minLength: 1, maxLength: 2 }),
  plans: fc.uniqueArray(plan, { maxLength: 3, selector: (p) => p.n }),
  own: verification,
  correction: fc.boolean(),
  bare: fc.constantFrom(undefined, 'passed'),
  asked: fc.constantFrom('04', '4', 'CK-04', '04.1'),
});

// The files of the first directory; the second, if any, stays empty.
function filesOf(t) {
  const files = {};
  const fields = (pairs) =>
    `---\n${pairs
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')}\n---\n`;
  for (const p of t.plans) {
    files[`04-${p.n}-PLAN.md`] = fields([
      ['phase', '04'],
      ['depends_on', p.depends],
      ['status', p.status],
    ]);
    if (p.summary !== undefined) files[`04-${p.n}-SUMMARY.md`] = fields([['status', p.summary]]);
  }
  if (t.own !== undefined) files['04-VERIFICATION.md'] = fields([['status', t.own === '' ? '""' : t.own]]);
  if (t.correction) files['04-CORRECTION-VERIFICATION.md'] = '# worksheet\n';
  if (t.bare !== undefined) files['VERIFICATION.md'] = fields([['status', t.bare]]);
  return files;
}

test('a phase tree read by GSD and by gsd-check: the same reading, or the tree that differs', { timeout: 900_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(tree, async (t) => {
      const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-gen-reading-')));
      try {
        const { root, env } = phaseProject(base, t.dirs, filesOf(t));
        const gsd = await gsdReads(root, env, t.asked);
        const check = await checkReads(root, env, t.asked);
        assert.equal(check, gsd, JSON.stringify({ tree: t, files: filesOf(t) }));
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    }),
    { numRuns: RUNS },
  );
});
