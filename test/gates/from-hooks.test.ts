import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gatesFromHooks } from '../../src/gates/sources.ts';
import { KINDS } from '../../src/kinds/table.ts';

const gate = (capId: string, check: unknown, extra: Record<string, unknown> = {}) => ({ capId, kind: 'gate', check, blocking: true, onError: 'halt', ...extra });

test('the rendered gate entries, all active, indexed per capability; steps and contributions left out', () => {
  const security = { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } };
  const hooks = {
    point: 'ship:pre',
    activeHooks: [
      { capId: 'docs', kind: 'step', body: 'x' },
      gate('security', security, { when: 'workflow.security_enforcement' }),
      gate('drift', { query: 'a' }),
      { capId: 'drift', kind: 'contribution' },
      gate('drift', { query: 'b' }, { blocking: false, onError: 'skip' }),
    ],
    rendered: '…',
  };
  const result = gatesFromHooks(hooks, 'ship:pre', '--hooks h.json', KINDS);
  assert.ok(result.ok);
  assert.deepEqual(
    result.value.map((g) => [g.capability, g.index, g.declaration.declared, g.activation, g.capDir]),
    [
      ['security', 0, { point: 'ship:pre', check: security, blocking: true, onError: 'halt', when: 'workflow.security_enforcement' }, undefined, undefined],
      ['drift', 0, { point: 'ship:pre', check: { query: 'a' }, blocking: true, onError: 'halt' }, undefined, undefined],
      ['drift', 1, { point: 'ship:pre', check: { query: 'b' }, blocking: false, onError: 'skip' }, undefined, undefined],
    ],
  );
});

test('another point, or a shape that is not render-hooks output, is refused', () => {
  const message = (hooks: unknown) => {
    const result = gatesFromHooks(hooks, 'ship:pre', 'the hooks', KINDS);
    return result.ok ? 'accepted' : [result.failure.reason, result.failure.message, ...result.failure.issues.map((i) => `${i.path}: ${i.message}`)];
  };
  assert.deepEqual(message({ point: 'plan:pre', activeHooks: [] }), ['usage', 'the hooks is for point "plan:pre", not --point ship:pre']);
  assert.deepEqual(message([]), ['invalid-json', 'the hooks is not a JSON object (is it the output of gsd_run loop render-hooks <point> --raw?)']);
  assert.deepEqual(message({ point: 'ship:pre' }), ['invalid-json', 'the hooks: activeHooks must be an array, got nothing']);
  assert.deepEqual(message({ point: 'ship:pre', activeHooks: [gate('', { query: 'q' })] }), [
    'invalid-json',
    'the hooks has malformed gate entries',
    'activeHooks[0].capId: must be a non-empty string, got ""',
  ]);
  assert.equal(message({ point: 'ship:pre', activeHooks: [] }), 'accepted');
});
