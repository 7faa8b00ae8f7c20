import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { workspaceConfig } from '../../src/project/root.ts';
import { project } from '../helpers/project.ts';

// A directory whose .planning/config.json holds `text`.
const withConfig = (t: TestContext, text: string): string => project(t, { '.planning/config.json': text });

const NOTHING = { subRepos: [], multiRepo: false };

test('sub_repos at the top or under planning, strings only; multiRepo only when true', (t) => {
  assert.deepEqual(workspaceConfig(withConfig(t, '{"sub_repos": ["api", 7, "web"], "multiRepo": true}')), { subRepos: ['api', 'web'], multiRepo: true });
  assert.deepEqual(workspaceConfig(withConfig(t, '{"planning": {"sub_repos": ["api"]}, "multiRepo": "true"}')), { subRepos: ['api'], multiRepo: false });
});

test('a top-level sub_repos wins even when it is not a list', (t) => {
  assert.deepEqual(workspaceConfig(withConfig(t, '{"sub_repos": "api", "planning": {"sub_repos": ["web"]}}')), NOTHING);
  assert.deepEqual(workspaceConfig(withConfig(t, '{"planning": ["sub_repos"]}')), NOTHING);
});

test('a config that is missing, not strict JSON or not an object says nothing', (t) => {
  assert.deepEqual(workspaceConfig(project(t)), NOTHING);
  for (const text of ['{nope', '{"multiRepo": true, "multiRepo": true}', 'null', '[{"multiRepo": true}]', '"multiRepo"']) {
    assert.deepEqual(workspaceConfig(withConfig(t, text)), NOTHING, text);
  }
});
