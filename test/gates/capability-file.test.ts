import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { loadCapability } from '../../src/gates/capability-file.ts';
import { ok, fail } from '../../src/failure.ts';

const from = (text: string) => async () => ok(Buffer.from(text));

test('a capability: its id names it, else the path as given; its gates parsed', async () => {
  const gates = [{ point: 'ship:pre', check: { query: 'q' }, blocking: true, onError: 'halt' }];
  const named = await loadCapability('/p/caps/sec.json', 'caps/sec.json', from(JSON.stringify({ id: 'sec', gates })));
  assert.ok(named.ok);
  assert.deepEqual([named.value.file, named.value.name, named.value.declaration.gates.length], ['/p/caps/sec.json', 'sec', 1]);
  const anonymous = await loadCapability('/p/caps/x.json', 'caps/x.json', from(JSON.stringify({ id: ' ', gates })));
  assert.deepEqual(anonymous.ok && anonymous.value.name, 'caps/x.json');
});

test('one that is not an object, or whose gates are not a list, is an invalid capability; bad JSON is invalid JSON', async () => {
  const reasons = async (text: string) => {
    const result = await loadCapability('/p/c.json', 'c.json', from(text));
    return result.ok ? 'accepted' : [result.failure.reason, result.failure.message];
  };
  assert.deepEqual(await reasons('[]'), ['invalid-capability', 'capability file c.json is not a JSON object']);
  assert.deepEqual(await reasons('{"gates":{}}'), ['invalid-capability', 'capability file c.json: gates must be an array']);
  assert.deepEqual(await reasons('{"gates":[],"gates":[]}'), [
    'invalid-json',
    'capability file c.json gives the key "gates" twice (at gates): which one counts is ambiguous',
  ]);
  const unreadable = await loadCapability('/p/c.json', 'c.json', async (_: string, label: string) => fail('unreadable-file', `cannot read ${label}`));
  assert.deepEqual(unreadable.ok ? 'accepted' : unreadable.failure.message, 'cannot read capability file c.json');
});
