// A phase's files read by both tools: what GSD 1.14's own reads answer
// (`find-phase`, `phase-plan-index`, `query verification.status`) against
// what `gates run --reached --ship --phase-number` makes of the same tree
// (test/loop-reading.test.mjs reduces both alike). A case gives the files
// under .planning/phases/, the phase asked for and what GSD answers (`gsd`);
// one that shows a difference names it and pins gsd-check's (`check`).
const verification = (status) => `---\nphase: 04\nstatus: ${status}\n---\n# Verification\n`;
const plan = (fields = '') => `---\nphase: 04\n${fields}---\n# Plan\n`;
const SUMMARY = '---\nphase: 04\nstatus: complete\n---\n# Summary\n';

// `gsd` and `check`: `ambiguous` (GSD names several directories; gsd-check
// fails, exit 2), `none` (no directory), or what the phase reads as:
// `waves:<ids of the done waves>` and `verification:<status>`.
export const LOOP_CASES = [
  { name: 'a second directory for the phase', phase: '04', files: { '04-ship/04-01-PLAN.md': plan(), '04-ship-notes/notes.md': 'x' }, gsd: 'ambiguous' },
  {
    name: 'a project code',
    phase: '04',
    files: { 'CK-04-ship/04-01-PLAN.md': plan(), 'CK-04-ship/04-01-SUMMARY.md': SUMMARY, 'CK-04-ship/04-VERIFICATION.md': verification('passed') },
    gsd: 'waves:04-01 verification:passed',
  },
  {
    name: "a correction report sorting before the phase's own",
    phase: '04',
    files: { '04-ship/04-CORRECTION-VERIFICATION.md': '# worksheet\n', '04-ship/04-VERIFICATION.md': verification('passed') },
    gsd: 'waves: verification:passed',
  },
  { name: 'gaps found', phase: '04', files: { '04-ship/04-VERIFICATION.md': verification('gaps_found') }, gsd: 'waves: verification:gaps_found' },
  { name: 'a status GSD does not know', phase: '04', files: { '04-ship/04-VERIFICATION.md': verification('Passed') }, gsd: 'waves: verification:unknown' },
  { name: 'no report', phase: '04', files: { '04-ship/04-01-PLAN.md': plan() }, gsd: 'waves: verification:missing' },
  { name: 'a bare VERIFICATION.md', phase: '04', files: { '04-ship/VERIFICATION.md': verification('passed') }, gsd: 'waves: verification:passed' },
  {
    name: 'depends_on as a plan number and as a scalar',
    phase: '04',
    files: {
      '04-ship/04-01-PLAN.md': plan(),
      '04-ship/04-01-SUMMARY.md': SUMMARY,
      '04-ship/04-02-PLAN.md': plan('depends_on: ["01"]\n'),
      '04-ship/04-03-PLAN.md': plan('depends_on: 04-02\n'),
    },
    gsd: 'waves:04-01 verification:missing',
  },
  {
    name: 'a superseded plan, in capitals',
    phase: '04',
    files: { '04-ship/04-01-PLAN.md': plan(), '04-ship/04-01-SUMMARY.md': SUMMARY, '04-ship/04-02-PLAN.md': plan('status: Superseded\n') },
    gsd: 'waves:04-01 verification:missing',
  },
  {
    name: 'the nested plans/ layout',
    phase: '04',
    files: { '04-ship/plans/PLAN-01.md': plan(), '04-ship/plans/SUMMARY-01.md': SUMMARY },
    gsd: 'waves:plans/PLAN-01.md verification:missing',
  },
  {
    name: 'a blocked summary does not count',
    phase: '04',
    files: { '04-ship/04-01-PLAN.md': plan(), '04-ship/04-01-SUMMARY.md': '---\nstatus: Blocked # later\n---\n' },
    gsd: 'waves: verification:missing',
  },
  {
    name: 'plans in a cycle',
    phase: '04',
    files: { '04-ship/04-01-PLAN.md': plan('depends_on: [04-02]\n'), '04-ship/04-02-PLAN.md': plan('depends_on: [04-01]\n') },
    gsd: 'ambiguous',
  },
  {
    name: 'a lettered decimal phase',
    phase: '12A.1',
    files: { '12A.1-x/12A.1-01-PLAN.md': plan(), '12A.1-x/12A.1-01-SUMMARY.md': SUMMARY, '12A-y/12A-01-PLAN.md': plan() },
    gsd: 'waves:12A.1-01 verification:missing',
  },
  { name: 'a phase with no directory', phase: '07', files: { '04-ship/04-01-PLAN.md': plan() }, gsd: 'none' },
  {
    name: 'a summary written after a passed verification',
    phase: '04',
    files: { '04-ship/04-01-PLAN.md': plan(), '04-ship/04-VERIFICATION.md': verification('passed'), '04-ship/04-01-SUMMARY.md': SUMMARY },
    later: '04-ship/04-01-SUMMARY.md',
    gsd: 'waves:04-01 verification:stale',
    differs: 'D75',
    check: 'waves:04-01 verification:passed',
  },
];
