import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { phaseEnv } from '../../src/predicate/phase-env.ts';

test('every phase variable is set, missing ones empty', () => {
  assert.deepEqual(phaseEnv({ phaseDir: '.planning/phases/03-x' }), {
    PHASE_NUMBER: '',
    PHASE_DIR: '.planning/phases/03-x',
    PHASE_REQ_IDS: '',
  });
});
