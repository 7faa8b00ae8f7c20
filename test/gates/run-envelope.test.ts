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

test("the run's message cuts each halted point's message: the only one at 1000 characters, so that its several gates' causes show, each of several at 300", () => {
  const long = (point: 'plan:pre' | 'ship:pre', size: number): Result<PointEnvelope> => {
    const halted = envelope(point, ['halt']);
    return halted.ok ? ok({ ...halted.value, message: `${point}: ${'x'.repeat(size)}` }) : halted;
  };
  const run = (...entries: Parameters<typeof pointEntry>[0][]) => runEnvelope(entries.map(pointEntry)).message;
  const whole = `ship:pre: ${'x'.repeat(990)}`;
  assert.equal(run({ point: 'ship:pre', envelope: long('ship:pre', 990) }), `1 of 1 point halted: ${whole}`);
  assert.equal(run({ point: 'ship:pre', envelope: long('ship:pre', 991) }), `1 of 1 point halted: ${`ship:pre: ${'x'.repeat(991)}`.slice(0, 997)}...`);
  assert.equal(
    run({ point: 'plan:pre', envelope: long('plan:pre', 400) }, { point: 'ship:pre', envelope: long('ship:pre', 400) }),
    `2 of 2 points halted: ${`plan:pre: ${'x'.repeat(400)}`.slice(0, 297)}...; ${`ship:pre: ${'x'.repeat(400)}`.slice(0, 297)}...`,
  );
});
