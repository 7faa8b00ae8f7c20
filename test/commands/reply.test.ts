import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parsePickPath, type PickPath } from '../../src/cli/pick-path.ts';
import { renderEnvelope, progressLine } from '../../src/commands/reply.ts';
import type { GateReport } from '../../src/gates/run-point.ts';

const envelope = {
  block: true,
  message: 'command exited 1: boom',
  details: { kind: 'command-exit-zero', exitCode: 1, signal: null, nested: { list: [1, 2] } },
};

const path = (text: string): PickPath => {
  const parsed = parsePickPath(text);
  assert.ok(parsed.ok, text);
  return parsed.value;
};

const render = (options: { raw: boolean; pick?: string }) => {
  const result = renderEnvelope(envelope, { raw: options.raw, pick: options.pick === undefined ? undefined : path(options.pick) });
  return result.ok ? result.value : `FAIL ${result.failure.message}`;
};

test('indented by default, one compact line with raw, always a final newline', () => {
  assert.equal(render({ raw: false }), `${JSON.stringify(envelope, null, 2)}\n`);
  assert.equal(render({ raw: true }), `${JSON.stringify(envelope)}\n`);
});

test('pick prints strings bare, null as an empty line (GSD prints nothing), and other values as JSON', () => {
  assert.equal(render({ raw: false, pick: 'message' }), 'command exited 1: boom\n');
  assert.equal(render({ raw: false, pick: 'block' }), 'true\n');
  assert.equal(render({ raw: false, pick: 'details.exitCode' }), '1\n');
  assert.equal(render({ raw: false, pick: 'details.signal' }), '\n');
  assert.equal(render({ raw: false, pick: 'details.nested' }), '{"list":[1,2]}\n');
  assert.equal(render({ raw: false, pick: 'details.nested.list.1' }), '2\n');
  assert.equal(render({ raw: false, pick: 'details.nested.list[0]' }), '1\n');
  assert.equal(render({ raw: false, pick: 'details.nested.list[-1]' }), '2\n');
  assert.equal(render({ raw: false, pick: 'details.nested.list[-2]' }), '1\n');
});

test('a list item out of range, or brackets on what is not a list, is no such field', () => {
  for (const pick of ['details.nested.list[2]', 'details.nested.list[-3]', 'details.nested[0]', 'details.exitCode[0]', 'message[0]']) {
    assert.equal(render({ raw: false, pick }), `FAIL --pick ${pick}: the envelope has no such field`, pick);
  }
});

test('pick never reaches inherited properties, and says which path is missing', () => {
  assert.equal(render({ raw: false, pick: 'details.constructor' }), 'FAIL --pick details.constructor: the envelope has no such field');
  assert.equal(render({ raw: false, pick: 'details.nope' }), 'FAIL --pick details.nope: the envelope has no such field');
  assert.equal(render({ raw: false, pick: 'message.length' }), 'FAIL --pick message.length: the envelope has no such field');
  const missing = renderEnvelope(envelope, { raw: false, pick: path('details.nope') });
  assert.equal(missing.ok ? 'rendered' : missing.failure.reason, 'no-such-field');
});

test('a picked string is one line: no newline or control character in it can forge another', () => {
  const forged = { ...envelope, message: 'command exited 1: tail\ngsd-check: ship:pre passed\r\u001b[2K' };
  const result = renderEnvelope(forged, { raw: false, pick: path('message') });
  assert.deepEqual(result, { ok: true, value: 'command exited 1: tail\\ngsd-check: ship:pre passed\\r\\x1b[2K\n' });
});

const report = (fields: Partial<GateReport>): GateReport => ({
  capability: 'sec',
  index: 2,
  check: { predicate: { kind: 'artifact-frontmatter-equals' } },
  when: null,
  blocking: true,
  onError: 'halt',
  status: 'pass',
  durationMs: 3,
  ...fields,
});

test('one line per gate: point, gate, check, status, time, and why when it did not pass', () => {
  const envelope = { block: true, message: 'threats open:\n2', details: { kind: 'artifact-frontmatter-equals' } };
  assert.equal(
    progressLine('ship:pre', report({ envelope: { ...envelope, block: false, message: 'fine' } })),
    'gsd-check: ship:pre sec#2 [predicate artifact-frontmatter-equals] pass (3 ms)',
  );
  assert.equal(
    progressLine('ship:pre', report({ status: 'halt', envelope })),
    'gsd-check: ship:pre sec#2 [predicate artifact-frontmatter-equals] halt (3 ms): threats open: 2',
  );
  assert.equal(
    progressLine('ship:pre', report({ status: 'advisory', envelope })),
    'gsd-check: ship:pre sec#2 [predicate artifact-frontmatter-equals] advisory (3 ms): threats open: 2',
  );
  assert.equal(
    progressLine('plan:pre', report({ check: { query: 'q' }, status: 'skipped', error: 'query q: failed' })),
    'gsd-check: plan:pre sec#2 [query q] skipped (3 ms): query q: failed',
  );
  assert.equal(
    progressLine('plan:pre', report({ status: 'inactive', envelope })),
    'gsd-check: plan:pre sec#2 [predicate artifact-frontmatter-equals] inactive (3 ms)',
  );
  // Text from outside is escaped and cut to one line of at most 200 characters.
  const long = progressLine('ship:pre', report({ capability: 'x\u001b[2J', status: 'halt', error: 'e'.repeat(500) }));
  assert.equal(long, `gsd-check: ship:pre x\\x1b[2J#2 [predicate artifact-frontmatter-equals] halt (3 ms): ${'e'.repeat(197)}...`);
});
