import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { exitContract } from '../../src/cli/exit-contract.ts';

const contract = (flag: string | undefined, variable: string | undefined) => {
  const result = exitContract(flag, variable);
  return result.ok ? result.value : result.failure.message;
};

test('v1 by default; the flag over GSD_EXIT_CONTRACT, either way; an empty variable is unset', () => {
  assert.equal(contract(undefined, undefined), 'v1');
  assert.equal(contract(undefined, ''), 'v1');
  assert.equal(contract(undefined, 'v2'), 'v2');
  assert.equal(contract('v1', 'v2'), 'v1');
  assert.equal(contract('v2', 'v1'), 'v2');
  assert.equal(contract('v2', 'garbage'), 'v2');
});

test('anything but v1 or v2 is refused, from the flag (even empty) or the variable', () => {
  assert.equal(contract('v3', undefined), '--exit-contract "v3" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract('', 'v1'), '--exit-contract "" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract('V2', undefined), '--exit-contract "V2" is not an exit contract; v1 or v2 (see gsd-check --help)');
  assert.equal(contract(undefined, ' v2'), 'GSD_EXIT_CONTRACT " v2" is not an exit contract; v1 or v2 (see gsd-check --help)');
});
