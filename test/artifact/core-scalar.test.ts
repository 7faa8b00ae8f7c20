import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coreScalar } from '../../src/artifact/frontmatter.ts';

test('a plain scalar as YAML 1.2\'s core schema types it', () => {
  const cases: [string, unknown][] = [
    ['~', null], ['null', null], ['Null', null], ['NULL', null], ['nULL', 'nULL'],
    ['true', true], ['True', true], ['TRUE', true], ['tRUE', 'tRUE'], ['false', false], ['FALSE', false], ['yes', 'yes'],
    ['0', 0], ['00', 0], ['-0', -0], ['+0', 0], ['04', 4], ['0o17', 15], ['0o8', '0o8'], ['0x1F', 31], ['0x', '0x'], ['0b1', '0b1'],
    ['0.0', 0], ['1.10', 1.1], ['.5', 0.5], ['5.', 5], ['1e3', 1000], ['1E-3', 0.001], ['1_000', '1_000'], ['1.2.3', '1.2.3'],
    ['.inf', Infinity], ['-.Inf', -Infinity], ['+.INF', Infinity], ['.nan', NaN], ['.NaN', NaN], ['NaN', 'NaN'], ['Infinity', 'Infinity'],
    ['2024-01-31', '2024-01-31'], ['12:30', '12:30'], ['', ''],
  ];
  for (const [text, value] of cases) assert.deepStrictEqual(coreScalar(text), value, text);
});
