// verify-work's reading of a phase by both tools, tree by tree
// (test/loop-verify-work.test.mjs; the trees are generative/verify-work.mjs's
// shape, the readings loop-reading.mjs's gsdVerifyWork and checkVerifyWork).
// One that shows a difference names it and pins gsd-check's reading (`check`).
const tree = (t) => ({ dirs: ['04-ship'], uats: [], verification: undefined, status: 'passed', plan: false, asked: '04', ...t });
const fromExecute = (results, stray) => ({ status: 'testing', source: '04-VERIFICATION.md', scalarSource: false, results, stray });

export const VERIFY_WORK_CASES = [
  {
    name: "execute-phase's UAT, a result in a fenced example: verify-work has not run",
    tree: tree({ plan: true, uats: [['04-UAT.md', fromExecute(['[pending]', 'pending'], 'fence')]] }),
    gsd: 'found verification:none/missing uat:04-UAT.md from-verification:true verify-work:not-ran',
  },
  {
    name: 'a recorded result: verify-work has run',
    tree: tree({ verification: '04-VERIFICATION.md', status: 'human_needed', uats: [['04-UAT.md', fromExecute(['pass', '[pending]'], 'comment')]] }),
    gsd: 'found verification:.planning/phases/04-ship/04-VERIFICATION.md/human_needed uat:04-UAT.md from-verification:? verify-work:ran',
  },
  {
    name: "a smoke UAT beside the phase's own: the phase's own",
    tree: tree({
      uats: [
        ['04-00-smoke-UAT.md', { status: 'complete', source: '04-01-SUMMARY.md', scalarSource: false, results: ['pass'] }],
        ['04-UAT.md', fromExecute(['[pending]'])],
      ],
    }),
    gsd: 'found verification:none/missing uat:04-UAT.md from-verification:? verify-work:not-ran',
  },
  {
    name: 'a project code the project does not configure (CK-04 for 04-ship)',
    tree: tree({ verification: '04-VERIFICATION.md', asked: 'CK-04' }),
    gsd: 'none',
    check: 'found verification:.planning/phases/04-ship/04-VERIFICATION.md/passed uat:? from-verification:? verify-work:not-ran',
    differs: 'D76',
  },
];
