import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayCommand, phaseEnv } from '../../src/predicate/placeholders.ts';

test('every phase variable is set, missing ones empty', () => {
  assert.deepEqual(phaseEnv({ phaseDir: '.planning/phases/03-x' }), {
    PHASE_NUMBER: '',
    PHASE_DIR: '.planning/phases/03-x',
    PHASE_REQ_IDS: '',
  });
});

test('the display form pastes the three placeholders and nothing else', () => {
  const phase = { phaseNumber: '03', phaseDir: 'd', phaseReqIds: 'R1,R2' };
  assert.equal(
    displayCommand('x ${PHASE_NUMBER} ${PHASE_DIR} ${PHASE_REQ_IDS} $PHASE_DIR ${HOME} ${PHASE_OTHER}', phase),
    'x 03 d R1,R2 $PHASE_DIR ${HOME} ${PHASE_OTHER}',
  );
  assert.equal(displayCommand('echo ${PHASE_DIR}', {}), 'echo ');
});
