import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { tempDir } from '../helpers/support.ts';
import { eventOf, runWorkflow } from './github-runner.mjs';

// The runner model the docs' workflows run on: what it makes of `on:`,
// `if:` and `${{ }}` must be GitHub's, or a page's green run proves nothing.

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const workflow = (on: string, steps: string, job = '') => `on:\n${on}\njobs:\n  j:\n    runs-on: ubuntu-latest\n${job}    steps:\n${steps}`;

test("expressions are GitHub's: the event's github context, status functions, an if: without one is success() && it", async (t) => {
  const steps = [
    "      - run: echo \"ship=${{ startsWith(github.head_ref, 'gsd/phase-') }} flag=${{ startsWith(github.head_ref, 'gsd/phase-') && '--ship' || '' }} labels=${{ join(github.event.pull_request.labels.*.name, ',') }}\"",
    '      - run: exit 3',
    "      - if: github.event_name == 'pull_request'",
    '        run: echo not after a failure',
    '      - if: always()',
    '        run: echo always',
    "      - if: failure() && github.head_ref != ''",
    '        run: echo failure',
  ].join('\n');
  const text = workflow('  pull_request:', `${steps}\n`);
  assert.equal(
    await runWorkflow(text, { workspace: tempDir(t), env, event: eventOf(['pull_request', 'head_ref=gsd/phase-04-ship', 'labels=a,gsd-ship']) }),
    'ship=true flag=--ship labels=a,gsd-ship\nalways\nfailure\njob: failure (a step exited 3)\n',
  );
  assert.equal(
    await runWorkflow(text, { workspace: tempDir(t), env, event: eventOf([]) }),
    'ship=false flag= labels=\nalways\nfailure\njob: failure (a step exited 3)\n',
  );
});

test("a workflow runs only for an event its on: lists, a push only to a branch it names; a job's if: can skip it", async (t) => {
  const echo = '      - run: echo "$GITHUB_EVENT_NAME $GITHUB_REF ${{ github.ref_name }}"\n';
  await assert.rejects(runWorkflow(workflow('  push:', echo), { workspace: tempDir(t), env }), /the workflow has no on: pull_request/);
  const push = workflow('  push:\n    branches: [main]', echo);
  assert.equal(await runWorkflow(push, { workspace: tempDir(t), env, event: eventOf(['push']) }), 'push refs/heads/main main\njob: success\n');
  await assert.rejects(runWorkflow(push, { workspace: tempDir(t), env, event: eventOf(['push', 'ref=topic']) }), /does not take topic/);
  const skipped = workflow('  pull_request:', echo, "    if: startsWith(github.head_ref, 'gsd/')\n");
  assert.equal(await runWorkflow(skipped, { workspace: tempDir(t), env }), 'job: skipped\n');
  assert.equal(
    await runWorkflow(skipped, { workspace: tempDir(t), env, event: eventOf(['pull_request', 'head_ref=gsd/x']) }),
    'pull_request refs/pull/1/merge 1/merge\njob: success\n',
  );
});

test("a pull request has its title and activity type; on.pull_request.types, or GitHub's default types without it, decides whether it runs", async (t) => {
  const echo = '      - run: echo "${{ github.event.action }} ${{ startsWith(github.event.pull_request.title, \'Phase \') }}"\n';
  const plain = workflow('  pull_request:', echo);
  assert.equal(await runWorkflow(plain, { workspace: tempDir(t), env }), 'synchronize false\njob: success\n');
  assert.equal(
    await runWorkflow(plain, { workspace: tempDir(t), env, event: eventOf(['pull_request', 'title=Phase 04: ship', 'action=opened']) }),
    'opened true\njob: success\n',
  );
  await assert.rejects(runWorkflow(plain, { workspace: tempDir(t), env, event: eventOf(['pull_request', 'action=edited']) }), /types does not take edited/);
  const edited = workflow('  pull_request:\n    types: [opened, synchronize, reopened, edited]', echo);
  assert.equal(await runWorkflow(edited, { workspace: tempDir(t), env, event: eventOf(['pull_request', 'action=edited']) }), 'edited false\njob: success\n');
});

test('a context or an event these runs do not make is an error, never an empty value', async (t) => {
  await assert.rejects(runWorkflow(workflow('  pull_request:', '      - run: echo ${{ secrets.TOKEN }}\n'), { workspace: tempDir(t), env }), /secrets/);
  assert.throws(() => eventOf(['workflow_dispatch']), /the event workflow_dispatch, which these tests do not make/);
  assert.throws(() => eventOf(['pull_request', 'ref=main']), /pull_request has no detail ref here/);
});
