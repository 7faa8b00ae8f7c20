import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkLabel } from '../../src/gates/declaration.ts';

test('a check in a word or two, whatever was declared', () => {
  const cases: [unknown, string][] = [
    [{ query: 'ui.plan-gate' }, 'query ui.plan-gate'],
    [{ predicate: { kind: 'command-exit-zero', command: 'x' } }, 'predicate command-exit-zero'],
    [{ predicate: { kind: 3 } }, 'predicate ?'],
    [{ predicate: null }, 'predicate ?'],
    [{ agentVerdict: null }, 'agentVerdict'],
    [{ query: 5, agentVerdict: {} }, 'agentVerdict'],
    [{}, 'check'],
    [null, 'check'],
    [undefined, 'check'],
    ['npm test', 'check'],
  ];
  for (const [check, label] of cases) assert.equal(checkLabel(check), label, JSON.stringify(check));
});
