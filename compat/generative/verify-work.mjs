// Phase trees for the differential of verify-work's reading
// (test/loop-verify-work.test.mjs): UAT files of the shapes execute-phase and
// verify-work write, from GSD's own templates/UAT.md (loop-lifecycle.mjs's
// `uat`), and what an agent might write beside them; each tree read by both
// tools (loop-reading.mjs's gsdVerifyWork and checkVerifyWork).
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { phaseProject } from '../harness.mjs';
import { uat } from '../loop-lifecycle.mjs';
import { checkVerifyWork, gsdVerifyWork } from '../loop-reading.mjs';

const directory = fc
  .tuple(fc.constantFrom('', '', '', 'CK-'), fc.constantFrom('04', '04', '4', '004', '04.1'), fc.constantFrom('-ship', '-ship', ''))
  .map((p) => p.join(''));
// What execute-phase writes (testing, the report's items all pending) and
// verify-work (its statuses, SUMMARY sources, results as they are recorded),
// and what an agent might write beside them.
const stray = fc.constantFrom(undefined, undefined, 'fence', 'quote', 'comment', 'frontmatter');
const pendingResult = fc.constantFrom('[pending]', '[pending]', 'pending', '[Pending]', '[pending] ');
// execute-phase's: testing, sourced from the report, every result pending
// (as a person might spell pending), and a result line elsewhere.
const fromExecute = fc.record({
  status: fc.constant('testing'),
  source: fc.constant('04-VERIFICATION.md'),
  scalarSource: fc.boolean(),
  results: fc.array(pendingResult, { minLength: 1, maxLength: 3 }),
  stray,
});
const uatFile = fc.oneof(
  fromExecute,
  fc.record({
    status: fc.constantFrom('testing', 'testing', 'partial', 'complete', 'diagnosed', 'resolved', 'Complete', '"complete"', 'pending', undefined),
    source: fc.constantFrom('04-VERIFICATION.md', '04-01-SUMMARY.md, 04-02-SUMMARY.md', '04-01-SUMMARY.md', '', 'automated'),
    scalarSource: fc.boolean(),
    results: fc.array(fc.oneof(pendingResult, fc.constantFrom('pass', 'issue', 'skipped', 'blocked', '')), { maxLength: 3 }),
    stray,
  }),
);
export const verifyWorkTree = fc.record({
  dirs: fc.uniqueArray(directory, { minLength: 1, maxLength: 2 }),
  uats: fc.uniqueArray(fc.tuple(fc.constantFrom('04-UAT.md', '04-UAT.md', '04-00-smoke-UAT.md', '05-UAT.md', 'UAT.md', '4-UAT.md', '04.1-UAT.md'), uatFile), {
    maxLength: 2,
    selector: ([name]) => name,
  }),
  verification: fc.constantFrom(undefined, undefined, '04-VERIFICATION.md', 'VERIFICATION.md', '05-VERIFICATION.md'),
  status: fc.constantFrom('human_needed', 'passed', 'gaps_found', 'Passed'),
  plan: fc.boolean(),
  asked: fc.constantFrom('04', '04', '4', 'CK-04', '04.1'),
});

const STRAY = {
  fence: '\n```yaml\nresult: pass\n```\n',
  quote: '\n> result: pass\n',
  comment: '\n<!--\nresult: pass\n-->\n',
};

function uatText(dir, u) {
  let text = uat({ dir }, { status: u.status ?? 'testing', source: u.source, results: u.results });
  if (u.status === undefined) text = text.replace(/^status: testing\n/m, '');
  if (u.scalarSource) text = text.replace(`source: [${u.source}]`, `source: ${u.source === '' ? '""' : u.source}`);
  if (u.stray === 'frontmatter') text = text.replace(/^phase: /m, 'result: pass\nphase: ');
  else if (u.stray !== undefined) text = text.replace('\n## Summary', `${STRAY[u.stray]}\n## Summary`);
  return text;
}

// The files of the first directory; a second, if any, stays empty.
export function filesOf(t) {
  const files = {};
  for (const [name, u] of t.uats) files[name] = uatText(t.dirs[0], u);
  if (t.verification !== undefined) files[t.verification] = `---\nphase: 04\nstatus: ${t.status}\n---\n\n# Verification\n`;
  if (t.plan) files['04-01-PLAN.md'] = '---\nphase: 04\nplan: 01\nwave: 1\n---\n';
  return files;
}

// Both tools' readings of one tree, each in the same fresh copy (neither writes).
export async function readBoth(t) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-verify-work-')));
  try {
    const { root, env } = phaseProject(base, t.dirs, filesOf(t));
    return { gsd: await gsdVerifyWork(root, env, t.asked, t.plan), check: await checkVerifyWork(root, env, t.asked, t.plan) };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

// The difference a tree may show, by its id (docs/reference/differences.md):
// D76, an id with a project code (`CK-04`) in a project that configures
// none, which every `init` of GSD's refuses for a directory not named by
// that exact id, where gsd-check finds the phase as find-phase does.
export function knownDifference(t, { gsd, check }) {
  return /^[A-Z][A-Z0-9_]*-\d/i.test(t.asked) && gsd === 'none' && check !== 'none' ? 'D76' : undefined;
}
