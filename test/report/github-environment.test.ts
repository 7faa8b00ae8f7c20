import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { githubEnvironment } from '../../src/report/github-environment.ts';

const SHA = 'c0ffee'.padEnd(40, '0');

test("the runner's variables read once: only GITHUB_ACTIONS=true is a runner; a workspace only absolute, a summary file only named", () => {
  assert.deepEqual(githubEnvironment({}), { actions: false, workspace: undefined, stepSummary: undefined, commit: undefined });
  for (const actions of ['1', 'TRUE', 'yes', '']) assert.equal(githubEnvironment({ GITHUB_ACTIONS: actions }).actions, false, actions);
  assert.equal(githubEnvironment({ GITHUB_ACTIONS: 'true' }).actions, true);
  assert.equal(githubEnvironment({ GITHUB_WORKSPACE: '/home/runner/work/r/r' }).workspace, '/home/runner/work/r/r');
  for (const workspace of ['', 'repo', './repo']) assert.equal(githubEnvironment({ GITHUB_WORKSPACE: workspace }).workspace, undefined, workspace);
  assert.equal(githubEnvironment({ GITHUB_STEP_SUMMARY: '' }).stepSummary, undefined);
  assert.equal(githubEnvironment({ GITHUB_STEP_SUMMARY: '/tmp/s.md' }).stepSummary, '/tmp/s.md');
});

test('the commit is named only when server, repository and sha each have their shape; the server without its trailing slashes', () => {
  const commit = (env: Record<string, string>) =>
    githubEnvironment({ GITHUB_SERVER_URL: 'https://github.example//', GITHUB_REPOSITORY: 'o/r', GITHUB_SHA: SHA, ...env }).commit;
  assert.deepEqual(commit({}), { server: 'https://github.example', repository: 'o/r', sha: SHA });
  for (const server of ['javascript:alert(1)', 'https://x y', 'https://x"', 'ftp://x']) assert.equal(commit({ GITHUB_SERVER_URL: server }), undefined, server);
  for (const repository of ['o', 'o/r/x', 'o r/x', '']) assert.equal(commit({ GITHUB_REPOSITORY: repository }), undefined, repository);
  for (const sha of ['c0ffee', SHA.toUpperCase(), `${SHA}z`]) assert.equal(commit({ GITHUB_SHA: sha }), undefined, sha);
  assert.equal(githubEnvironment({ GITHUB_REPOSITORY: 'o/r', GITHUB_SHA: SHA }).commit, undefined);
});
