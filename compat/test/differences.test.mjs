// The document and the suite hold each other: every difference listed is
// shown by a case (a hand-written one, or an example of the generative
// differential), and (in case.mjs, classify.mjs) every case that shows one
// names a listed id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ARTIFACT_CASES } from '../cases/artifact.mjs';
import { CLI_CASES } from '../cases/cli.mjs';
import { FRONTMATTER_CASES } from '../cases/frontmatter.mjs';
import { GATES_CASES } from '../cases/gates.mjs';
import { LINE_CASES } from '../cases/line.mjs';
import { LOOP_CASES } from '../cases/loop.mjs';
import { MANIFEST_CASES } from '../cases/manifest.mjs';
import { ROOT_CASES } from '../cases/root.mjs';
import { STATE_CASES } from '../cases/state.mjs';
import { VERIFY_WORK_CASES } from '../cases/verify-work.mjs';
import { EXAMPLES } from '../generative/examples.mjs';
import { documentedDifferences } from '../harness.mjs';

test('every difference in docs/reference/differences.md is shown by a case', () => {
  const shown = new Set([
    ...[
      ...ROOT_CASES,
      ...ARTIFACT_CASES,
      ...FRONTMATTER_CASES,
      ...CLI_CASES,
      ...GATES_CASES,
      ...LINE_CASES,
      ...STATE_CASES,
      ...MANIFEST_CASES,
      ...LOOP_CASES,
      ...VERIFY_WORK_CASES,
    ]
      .map((c) => c.differs)
      .filter(Boolean),
    ...EXAMPLES.map((e) => e.id),
  ]);
  const documented = documentedDifferences();
  assert.ok(documented.size >= 20, `only ${documented.size} ids found: is the heading form still "### D<n> …"?`);
  assert.deepEqual(
    [...documented].filter((id) => !shown.has(id)),
    [],
  );
  assert.deepEqual(
    [...shown].filter((id) => !documented.has(id)),
    [],
  );
});
