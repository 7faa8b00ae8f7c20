import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { singleQuotedPlaceholders } from '../../src/predicate/placeholders.ts';

test("placeholders that sh leaves literal inside single quotes, by sh's quoting rules", () => {
  const cases: [string, string[]][] = [
    ["echo '${PHASE_DIR}'", ['${PHASE_DIR}']],
    ["test -d '${PHASE_DIR}/x' && echo '${PHASE_NUMBER} ${PHASE_REQ_IDS}'", ['${PHASE_DIR}', '${PHASE_NUMBER}', '${PHASE_REQ_IDS}']],
    ['echo "${PHASE_DIR}" ${PHASE_NUMBER}', []],
    [`echo "it's ${'${PHASE_DIR}'}"`, []],
    ["echo \\'${PHASE_DIR}\\'", []],
    ["echo 'a' ${PHASE_DIR} 'b'", []],
    ["echo '${HOME} ${PHASE_OTHER} $PHASE_DIR'", []],
    ["echo '${PHASE_DIR", []],
    ["'${PHASE_NUMBER}'", ['${PHASE_NUMBER}']],
    ["echo '${PHASE_REQ_IDS}${PHASE_DIR}'", ['${PHASE_REQ_IDS}', '${PHASE_DIR}']],
  ];
  for (const [command, found] of cases) assert.deepEqual(singleQuotedPlaceholders(command), found, command);
});
