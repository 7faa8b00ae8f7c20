import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { ok } from '../../src/failure.ts';
import { planningDirectory, resolvePlanningScope } from '../../src/project/planning-scope.ts';
import { project } from '../helpers/project.ts';

const uid = process.getuid!();

test('the scope: GSD_PROJECT and the resolved workstream, each as GSD lays the planning directory out', (t) => {
  const root = project(t, { '.planning/workstreams/alpha': null });
  const scope = (flag: string | undefined, env: Record<string, string>) => {
    const resolved = resolvePlanningScope(flag, root, env, uid);
    assert.ok(resolved.ok);
    return [resolved.value.planning, resolved.value.workstream];
  };
  assert.deepEqual(scope(undefined, {}), [ok({ project: undefined, workstream: undefined }), undefined]);
  assert.deepEqual(scope('alpha', { GSD_PROJECT: 'proj' }), [ok({ project: 'proj', workstream: 'alpha' }), 'alpha']);
  assert.deepEqual(scope(undefined, { GSD_WORKSTREAM: ' alpha ', GSD_PROJECT: '' }), [ok({ project: undefined, workstream: 'alpha' }), 'alpha']);
  assert.equal(planningDirectory(root, { project: undefined, workstream: undefined }), join(root, '.planning'));
  assert.equal(planningDirectory(root, { project: 'proj', workstream: undefined }), join(root, '.planning/proj'));
  assert.equal(planningDirectory(root, { project: 'proj', workstream: 'alpha' }), join(root, '.planning/proj/workstreams/alpha'));
});

test("a GSD_PROJECT that could lead out of .planning is the scope's failure, kept for where a planning directory is read", (t) => {
  const root = project(t, { '.planning': null });
  for (const value of ['a\\b', '..', 'a/b', 'x..y']) {
    const resolved = resolvePlanningScope('alpha', root, { GSD_PROJECT: value }, uid);
    assert.ok(resolved.ok, value);
    const { planning, workstream } = resolved.value;
    assert.deepEqual(planning.ok ? 'accepted' : [planning.failure.reason, planning.failure.message], [
      'usage',
      `GSD_PROJECT must name one directory, got ${JSON.stringify(value)}`,
    ]);
    // The workstream is still the run's: commands get it whatever GSD_PROJECT says.
    assert.equal(workstream, 'alpha');
  }
});

test('a workstream that cannot be resolved fails the scope at once, as before any gate runs', (t) => {
  const root = project(t, { '.planning': null });
  const resolved = resolvePlanningScope(undefined, root, { GSD_WORKSTREAM: 'my ws' }, uid);
  assert.deepEqual(resolved.ok ? 'accepted' : resolved.failure.reason, 'usage');
});
