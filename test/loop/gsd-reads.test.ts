import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { runResult, type RunResultSketch } from '../helpers/fake-runner.ts';
import type { GsdAsk, GsdRequest } from '../../src/gsd/ask.ts';
import { gsdPhaseReads } from '../../src/loop/gsd-reads.ts';
import type { PhaseFiles } from '../../src/loop/phase-files.ts';

// The phase as the port read it, which GSD's answers amend.
const PORT: PhaseFiles = {
  names: ['04-01-PLAN.md'],
  context: undefined,
  uat: undefined,
  verification: undefined,
  plans: [{ id: '04-01', file: '04-01-PLAN.md', summarized: false }],
  waves: [['04-01']],
  imported: [],
  pastShip: undefined,
  shipped: false,
  verificationPassed: false,
  verificationStatus: undefined,
  verificationLine: undefined,
};

// A GSD answering phase-plan-index and verification.status as the test says.
function gsd(index: RunResultSketch, verification: RunResultSketch, seen: GsdRequest[] = []): GsdAsk {
  const ask = async (requests: readonly GsdRequest[]) => {
    seen.push(...requests);
    return requests.map((request) => runResult(request.args[0] === 'phase-plan-index' ? index : verification));
  };
  return Object.assign(ask, { batches: true });
}
const answer = (value: unknown): RunResultSketch => ({ stdout: { text: JSON.stringify(value), complete: true } });

test("GSD's plans, waves and verification over the port's, asked together as the workflows ask them", async () => {
  const seen: GsdRequest[] = [];
  const index = answer({
    phase: '04',
    plans: [
      { id: '04-01', wave: 1, has_summary: true },
      { id: '04-02', wave: 2, has_summary: false },
      { id: 'plans/PLAN-03.md', wave: 2, has_summary: true },
    ],
    waves: { 10: ['x'], 2: ['04-02', 'plans/PLAN-03.md'], 1: ['04-01'] },
  });
  const read = await gsdPhaseReads(gsd(index, answer({ status: 'passed' }), seen))('04', '/p/.planning/phases/04-ship', PORT);
  assert.deepEqual(read, {
    ok: true,
    value: {
      ...PORT,
      plans: [
        { id: '04-01', file: '04-01-PLAN.md', summarized: true },
        { id: '04-02', file: '04-02-PLAN.md', summarized: false },
        { id: 'plans/PLAN-03.md', file: 'plans/PLAN-03.md', summarized: true },
      ],
      waves: [['04-01'], ['04-02', 'plans/PLAN-03.md'], ['x']],
      verificationPassed: true,
    },
  });
  assert.deepEqual(
    seen.map((r) => r.args.join(' ')),
    ['phase-plan-index 04 --raw', 'query verification.status /p/.planning/phases/04-ship --raw'],
  );
  // GSD's staleness: a stale report is not passed, whatever the file says.
  const stale = await gsdPhaseReads(gsd(index, answer({ status: 'stale' })))('04', '/d', { ...PORT, verificationPassed: true });
  assert.equal(stale.ok && stale.value.verificationPassed, false);
});

test('what GSD calls ambiguous fails the reading; where it answers nothing usable, the port stands', async () => {
  const ambiguous = await gsdPhaseReads(
    gsd(answer({ phase: '04', error: 'Phase 04 is ambiguous: 2 directories match ("04-a", "04-b").', plans: [], waves: {} }), answer({ status: 'missing' })),
  )('04', '/d', PORT);
  assert.deepEqual(ambiguous.ok ? undefined : [ambiguous.failure.reason, ambiguous.failure.message], [
    'ambiguous-phase',
    `GSD's phase-plan-index: Phase 04 is ambiguous: 2 directories match ("04-a", "04-b").: give --phase-dir`,
  ]);
  for (const [index, verification] of [
    [answer({ phase: '07', error: 'Phase not found', plans: [], waves: {} }), { exitCode: 1 }],
    [{ exitCode: 1, output: { text: 'depends_on cycle detected', stdoutBytes: 0, stderrBytes: 25, truncated: false } }, answer({ nostatus: true })],
    [answer([1]), { spawnError: 'ENOENT' }],
    [answer({ plans: 'x', waves: {} }), answer({ status: 3 })],
  ] as const) {
    const read = await gsdPhaseReads(gsd(index, verification))('04', '/d', PORT);
    assert.deepEqual(read, { ok: true, value: PORT }, JSON.stringify(index));
  }
  const stopped = await gsdPhaseReads(gsd({ interrupted: 'SIGTERM' }, { interrupted: 'SIGTERM' }))('04', '/d', PORT);
  assert.deepEqual(stopped.ok ? undefined : stopped.failure.reason, 'stopped');
});
