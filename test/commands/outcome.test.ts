import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderEnvelope } from '../../src/commands/outcome.ts';

const envelope = {
  block: true,
  message: 'command exited 1: boom',
  details: { kind: 'command-exit-zero', exitCode: 1, signal: null, nested: { list: [1, 2] } },
};

const render = (options: Parameters<typeof renderEnvelope>[1]) => {
  const result = renderEnvelope(envelope, options);
  return result.ok ? result.value : `FAIL ${result.failure.message}`;
};

test('indented by default, one compact line with raw, always a final newline', () => {
  assert.equal(render({ raw: false }), `${JSON.stringify(envelope, null, 2)}\n`);
  assert.equal(render({ raw: true }), `${JSON.stringify(envelope)}\n`);
});

test('pick prints strings bare and other values as JSON', () => {
  assert.equal(render({ raw: false, pick: ['message'] }), 'command exited 1: boom\n');
  assert.equal(render({ raw: false, pick: ['block'] }), 'true\n');
  assert.equal(render({ raw: false, pick: ['details', 'exitCode'] }), '1\n');
  assert.equal(render({ raw: false, pick: ['details', 'signal'] }), 'null\n');
  assert.equal(render({ raw: false, pick: ['details', 'nested'] }), '{"list":[1,2]}\n');
  assert.equal(render({ raw: false, pick: ['details', 'nested', 'list', '1'] }), '2\n');
});

test('pick never reaches inherited properties, and says which path is missing', () => {
  assert.equal(render({ raw: false, pick: ['details', 'constructor'] }), 'FAIL --pick details.constructor: the envelope has no such field');
  assert.equal(render({ raw: false, pick: ['details', 'nope'] }), 'FAIL --pick details.nope: the envelope has no such field');
  assert.equal(render({ raw: false, pick: ['message', 'length'] }), 'FAIL --pick message.length: the envelope has no such field');
  const missing = renderEnvelope(envelope, { raw: false, pick: ['details', 'nope'] });
  assert.equal(missing.ok ? 'rendered' : missing.failure.reason, 'no-such-field');
});

test('a picked string is one line: no newline or control character in it can forge another', () => {
  const forged = { ...envelope, message: 'command exited 1: tail\ngsd-check: ship:pre passed\r\u001b[2K' };
  const result = renderEnvelope(forged, { raw: false, pick: ['message'] });
  assert.deepEqual(result, { ok: true, value: 'command exited 1: tail\\ngsd-check: ship:pre passed\\r\\x1b[2K\n' });
});
