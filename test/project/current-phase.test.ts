import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { currentPhase } from '../../src/project/current-phase.ts';
import { project } from '../helpers/project.ts';
import { ok } from '../../src/failure.ts';

const NO_SCOPE = { project: undefined, workstream: undefined };

test('the phase .planning/STATE.md names in its frontmatter, trimmed; the workstream\'s STATE.md under GSD_WORKSTREAM', (t) => {
  const root = project(t, {
    '.planning/STATE.md': '\ufeff---\r\ngsd_state_version: 1.0\r\ncurrent_phase: 04 \r\n---\r\n# Project State\r\n\r\nPhase: 4 of 5\r\n',
    '.planning/workstreams/api/STATE.md': '---\ncurrent_phase: "12A"\n---\n',
  });
  assert.deepEqual(currentPhase(root, ok(NO_SCOPE)), { ok: true, value: '04' });
  assert.deepEqual(currentPhase(root, ok({ project: undefined, workstream: 'api' })), { ok: true, value: '12A' });
});

test('no STATE.md, no frontmatter, no current_phase, or one that is no phase id: a failure naming the file, never an empty phase', (t) => {
  const failure = (files: Record<string, string | null>): [string, string] => {
    const result = currentPhase(project(t, files), ok(NO_SCOPE));
    assert.equal(result.ok, false);
    return result.ok ? ['', ''] : [result.failure.reason, result.failure.message];
  };
  assert.deepEqual(failure({ '.planning': null }), ['unreadable-file', '--current-phase: cannot read .planning/STATE.md: no such file']);
  assert.deepEqual(failure({ '.planning/STATE.md': '# Project State\n\nPhase: 4\n' }), ['invalid-artifact', '--current-phase: .planning/STATE.md names no current_phase in its frontmatter']);
  assert.deepEqual(failure({ '.planning/STATE.md': '---\nstatus: planning\n---\n' }), ['invalid-artifact', '--current-phase: .planning/STATE.md names no current_phase in its frontmatter']);
  assert.deepEqual(failure({ '.planning/STATE.md': '---\ncurrent_phase:\n---\n' }), ['invalid-artifact', '--current-phase: .planning/STATE.md names no current_phase in its frontmatter']);
  assert.deepEqual(failure({ '.planning/STATE.md': '---\ncurrent_phase: [4, 5]\n---\n' }), ['invalid-artifact', '--current-phase: .planning/STATE.md names no current_phase in its frontmatter']);
  assert.deepEqual(failure({ '.planning/STATE.md': '---\ncurrent_phase: $(id)\n---\n' }), [
    'invalid-artifact',
    '--current-phase: .planning/STATE.md\'s current_phase "$(id)" is not a phase number; GSD names phases like 04, 4.1, 12A, 1-2, CK-01 or PROJ-42',
  ]);
  assert.deepEqual(failure({ '.planning/STATE.md/x': '' }), ['unreadable-file', '--current-phase: cannot read .planning/STATE.md: NOTREG']);
});
