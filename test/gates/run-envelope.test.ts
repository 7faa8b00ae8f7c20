import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { fail, ok } from '../../src/failure.ts';
import { pointEntry, runEnvelope } from '../../src/gates/run-envelope.ts';
import type { GateReport, PointEnvelope } from '../../src/gates/run-point.ts';
import type { Result } from '../../src/failure.ts';

const envelope = (point: 'plan:pre' | 'ship:pre', statuses: GateReport['status'][]): Result<PointEnvelope> =>
  ok({
    block: statuses.includes('halt'),
    message: `${point}: …`,
    details: {
      kind: 'gates',
      point,
      gates: statuses.map(
        (status, index) => ({ capability: 'c', index, check: {}, when: null, blocking: true, onError: 'halt', status, durationMs: 1 }) as GateReport,
      ),
    },
  });

test("the run's message: the points that halted by their messages, else the gates of all points counted, or none", () => {
  const run = (...entries: Parameters<typeof pointEntry>[0][]) => runEnvelope(entries.map(pointEntry)).message;
  assert.equal(run({ point: 'plan:pre', envelope: envelope('plan:pre', []) }, { point: 'ship:pre', envelope: envelope('ship:pre', []) }), '2 points: no gates');
  assert.equal(run({ point: 'ship:pre', envelope: envelope('ship:pre', ['pass']) }), '1 point: passed (1 pass)');
  assert.equal(
    run({ point: 'plan:pre', envelope: envelope('plan:pre', ['pass', 'inactive']) }, { point: 'ship:pre', envelope: envelope('ship:pre', ['advisory']) }),
    '2 points: passed (1 pass, 1 advisory, 1 inactive)',
  );
  assert.equal(
    run({ point: 'plan:pre', envelope: envelope('plan:pre', ['halt']) }, { point: 'ship:pre', envelope: fail('invalid-json', 'no hooks') }),
    '2 of 2 points halted: plan:pre: …; ship:pre: not evaluated: no hooks',
  );
});
