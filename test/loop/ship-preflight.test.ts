import { testGateContext } from '../helpers/deps.ts';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { project } from '../helpers/project.ts';
import { fakeRunner } from '../helpers/fake-runner.ts';
import { ok } from '../../src/failure.ts';
import { phaseFiles } from '../../src/loop/phase-files.ts';
import { shipPreflight, withPreflight } from '../../src/loop/ship-preflight.ts';
import { runPoints, type PointGates } from '../../src/gates/run-point.ts';

const DIR = '.planning/phases/04-ship';

// The preflight of the phase laid out from `files`, run as ship:pre's gate.
async function preflight(t: Parameters<typeof project>[0], files: Record<string, string>) {
  const root = project(t, Object.fromEntries(Object.entries(files).map(([name, text]) => [`${DIR}/${name}`, text])));
  const dir = join(root, DIR);
  const read = phaseFiles(dir, '04', undefined, []);
  assert.ok(read.ok);
  const gate = shipPreflight(read.value, dir, (path) => path.slice(root.length + 1));
  const context = testGateContext(root, fakeRunner());
  const ran = await runPoints([{ point: 'ship:pre', gates: ok([gate]) }], { context, concurrency: 1 });
  assert.ok(ran.ok && ran.value[0]!.envelope.ok);
  const [report] = ran.value[0]!.envelope.value.details.gates;
  return {
    status: report!.status,
    message: report!.envelope?.message,
    details: report!.envelope?.details,
    location: report!.location,
    label: `${report!.capability}#${report!.index}`,
  };
}

test("only a passed verification ships, as /gsd-ship's preflight reads the phase's own VERIFICATION.md", async (t) => {
  const passed = await preflight(t, { '04-CORRECTION-VERIFICATION.md': '# worksheet\n', '04-VERIFICATION.md': '---\nphase: 04\nstatus: passed\n---\n' });
  assert.deepEqual(passed, {
    status: 'pass',
    message: `verification passed (${DIR}/04-VERIFICATION.md)`,
    details: { kind: 'ship-preflight', code: null, status: 'passed', by: 'gsd-check', file: `${DIR}/04-VERIFICATION.md`, line: 3 },
    location: { file: `${DIR}/04-VERIFICATION.md`, line: 3 },
    label: 'ship-preflight#1',
  });
});

test('gaps_found, human_needed, a status GSD does not know, none, no report: PHASE_VERIFICATION_INCOMPLETE, halting, with what GSD tells the user', async (t) => {
  const halts = async (files: Record<string, string>) => {
    const result = await preflight(t, files);
    return [result.status, result.details?.code, result.details?.status, result.message];
  };
  assert.deepEqual(await halts({ '04-VERIFICATION.md': '---\nstatus: gaps_found\n---\n' }), [
    'halt',
    'PHASE_VERIFICATION_INCOMPLETE',
    'gaps_found',
    `PHASE_VERIFICATION_INCOMPLETE: ${DIR}/04-VERIFICATION.md says status gaps_found; /gsd-ship ships only a passed verification. Gaps found. Plan the fixes, then re-run execute-phase before shipping.`,
  ]);
  assert.deepEqual((await halts({ '04-VERIFICATION.md': '---\nstatus: human_needed\n---\n' })).slice(0, 3), [
    'halt',
    'PHASE_VERIFICATION_INCOMPLETE',
    'human_needed',
  ]);
  assert.deepEqual(await halts({ '04-VERIFICATION.md': '---\nstatus: Passed\n---\n' }), [
    'halt',
    'PHASE_VERIFICATION_INCOMPLETE',
    'unknown',
    `PHASE_VERIFICATION_INCOMPLETE: ${DIR}/04-VERIFICATION.md says status Passed; /gsd-ship ships only a passed verification. Unexpected verification status 'Passed'.`,
  ]);
  assert.deepEqual((await halts({ '04-VERIFICATION.md': '# Verification\n\nstatus: passed\n' })).slice(0, 3), [
    'halt',
    'PHASE_VERIFICATION_INCOMPLETE',
    'missing',
  ]);
  assert.deepEqual(await halts({ '04-01-PLAN.md': '' }), [
    'halt',
    'PHASE_VERIFICATION_INCOMPLETE',
    'missing',
    'PHASE_VERIFICATION_INCOMPLETE: the phase has no VERIFICATION.md; /gsd-ship ships only a passed verification. No verification report found — the verify step never completed.',
  ]);
});

test("the preflight goes first among ship:pre's gates, and nowhere else; a point whose gates could not be had keeps its failure", () => {
  const read = phaseFiles(undefined, '04', undefined, []);
  assert.ok(read.ok);
  const gate = shipPreflight(read.value, undefined, (path) => path);
  const other = { ...gate, capability: 'other', index: 0 };
  const failed = { ok: false as const, failure: { reason: 'usage' as const, message: 'x', issues: [] } };
  const points: PointGates[] = [
    { point: 'plan:pre', gates: ok([other]) },
    { point: 'ship:pre', gates: ok([other]) },
    { point: 'ship:pre', gates: failed },
  ];
  const out = withPreflight(points, gate);
  assert.deepEqual(
    out.map((p) => (p.gates.ok ? p.gates.value.map((g) => g.capability) : 'failed')),
    [['other'], ['ship-preflight', 'other'], 'failed'],
  );
});
