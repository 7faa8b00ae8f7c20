import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { actionOutputs, outputFileText } from '../../src/action/outputs.ts';

const gate = (capability: string, index: number, status: string) => ({ capability, index, status });

test("the outputs of a point's envelope and of a run's: block, message, the halted gates one a line, the envelope on one line", () => {
  const point = {
    block: true,
    message: 'ship:pre: halted by sec#1',
    details: { kind: 'gates', point: 'ship:pre', gates: [gate('sec', 0, 'pass'), gate('sec', 1, 'halt')] },
  };
  assert.deepEqual(actionOutputs(JSON.stringify(point, null, 2)), {
    block: 'true',
    message: 'ship:pre: halted by sec#1',
    halted: 'ship:pre sec#1',
    envelope: JSON.stringify(point),
  });
  const run = {
    block: true,
    message: '2 of 3 points halted',
    details: {
      kind: 'points',
      points: [
        { point: 'plan:pre', block: true, message: 'm', gates: [gate('ui', 0, 'halt'), gate('ui', 1, 'halt')] },
        { point: 'verify:pre', block: true, message: 'm', reason: 'invalid-json', gates: [] },
        { point: 'ship:pre', block: false, message: 'm', gates: [gate('sec', 0, 'advisory')] },
      ],
    },
  };
  assert.equal(actionOutputs(JSON.stringify(run))?.halted, 'plan:pre ui#0\nplan:pre ui#1\nverify:pre not-evaluated');
  assert.deepEqual(
    actionOutputs(JSON.stringify({ block: false, message: 'ship:pre: no gates', details: { kind: 'gates', point: 'ship:pre', gates: [] } }))?.halted,
    '',
  );
  for (const none of ['', 'not json', '{"block":"yes","message":"m"}', '{"block":true,"message":1}', '[]', 'null', '5', '"text"'])
    assert.equal(actionOutputs(none), undefined, none);
  // What a damaged copy could print: details of an unknown shape name no gate, and throw nothing.
  for (const details of [
    { kind: 'points', points: 'x' },
    { kind: 'points', points: [{ point: 'x' }, 5] },
    { kind: 'gates', point: 'x' },
  ]) {
    assert.equal(actionOutputs(JSON.stringify({ block: true, message: 'm', details }))?.halted, '', JSON.stringify(details));
  }
});

test('GITHUB_OUTPUT blocks: a fresh delimiter per value, never one the value holds', () => {
  const delimiters = ['d1', 'd2', 'd3'];
  const text = outputFileText({ a: 'x\ny', b: 'has d2 inside' }, () => delimiters.shift()!);
  assert.equal(text, 'a<<d1\nx\ny\nd1\nb<<d3\nhas d2 inside\nd3\n');
});
