import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { ConfigKeys } from '../../src/gates/activation.ts';
import { checkContributions, checkSteps, type Declared } from '../../src/gates/loop-entries.ts';
import { ManifestIssues } from '../../src/gates/manifest-fields.ts';
import { told } from '../helpers/manifest.ts';

const config = {
  'workflow.on': { type: 'boolean', default: true, description: 'd' },
  'workflow.where': { type: 'enum', values: ['plan:pre', 'ship:pre'], default: 'ship:pre', description: 'd' },
  'workflow.n': { type: 'number', default: 1, description: 'd' },
};
const declared: Declared = { config, keys: new ConfigKeys(Object.keys(config)), skills: ['notes'], agents: ['gsd-writer'] };
const step = { point: 'ship:pre', ref: { skill: 'notes' }, produces: ['NOTES.md'], consumes: [], onError: 'skip' };
const contribution = { point: 'plan:pre', into: 'planner', produces: [], consumes: [], fragment: { path: 'fragments/plan.md' } };

const steps = (list: unknown, given = declared): string[] => {
  const issues = new ManifestIssues();
  checkSteps(list, given, issues);
  return told(issues.list);
};
const contributions = (list: unknown): string[] => {
  const issues = new ManifestIssues();
  checkContributions(list, declared, issues);
  return told(issues.list);
};
const oneStep = (change: Record<string, unknown>) => steps([{ ...step, ...change }]);

test('steps that GSD loads', () => {
  assert.deepEqual(steps([]), []);
  assert.deepEqual(
    steps([
      step,
      { ...step, ref: { agent: 'gsd-writer' }, produces: [] },
      { ...step, ref: { command: 'gsd-tools x' }, produces: ['OTHER.md'], when: 'workflow.on', supportsReviewerLanes: true, fragment: { inline: 'x' } },
    ]),
    [],
  );
  assert.deepEqual(oneStep({ point: 'plan:pre', pointFrom: 'workflow.where' }), []);
});

test('every rule of a step', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ point: undefined }, ['refused steps[0].point: is required (a loop point)']],
    [{ point: 'ship:pres' }, ['refused steps[0].point: must be a loop point, got "ship:pres"; did you mean "ship:pre"?']],
    [{ ref: undefined }, ['refused steps[0].ref: is required (an object with one of skill, agent, command)']],
    [{ ref: [] }, ['refused steps[0].ref: must have exactly one of skill, agent, command']],
    [{ ref: { skill: 'notes', agent: 'gsd-writer' } }, ['refused steps[0].ref: must have exactly one of skill, agent, command, has skill and agent']],
    [{ ref: { skill: 3 } }, ["refused steps[0].ref.skill: must be a string (one of the capability's skills), got 3"]],
    [
      { ref: { skill: 'gsd-notes' } },
      ['refused steps[0].ref.skill: "gsd-notes" must not start with "gsd-": GSD adds that prefix when it dispatches the skill'],
    ],
    [{ ref: { skill: 'note' } }, ['refused steps[0].ref.skill: "note" is not one of the capability\'s skills (notes)']],
    [{ ref: { agent: 'writer' } }, ['refused steps[0].ref.agent: "writer" is not one of the capability\'s agents (gsd-writer)']],
    [{ ref: { command: null } }, ['refused steps[0].ref.command: must be a string, got null']],
    [{ produces: undefined }, ['refused steps[0].produces: is required (an array of artifact names)']],
    [{ consumes: ['PLAN.md', 1] }, ['refused steps[0].consumes[1]: must be a string, got 1']],
    [{ when: 1 }, ['refused steps[0].when: must be a string (a config key), got 1']],
    [{ when: 'workflow.of' }, ['refused steps[0].when: "workflow.of" is not a key of the capability\'s config; did you mean "workflow.on"?']],
    [{ pointFrom: 2 }, ['refused steps[0].pointFrom: must be a string (an enum config key), got 2']],
    [{ pointFrom: 'workflow.n' }, ['refused steps[0].pointFrom: "workflow.n" must be an enum key of the config, not a key of type "number"']],
    [{ pointFrom: 'workflow.x' }, ['refused steps[0].pointFrom: "workflow.x" is not a key of the capability\'s config; did you mean "workflow.n"?']],
    [
      { point: 'verify:pre', pointFrom: 'workflow.where' },
      ['refused steps[0].pointFrom: the values of "workflow.where" leave out the step\'s own point "verify:pre", so the step would never run'],
    ],
    [{ supportsReviewerLanes: 'yes' }, ['refused steps[0].supportsReviewerLanes: must be true or false, got "yes"']],
    [{ fragment: { inline: '' } }, ['refused steps[0].fragment.inline: must be a non-empty string, got ""']],
    [{ onError: undefined }, ['refused steps[0].onError: is required ("halt" or "skip")']],
    [{ onError: 'stop' }, ['refused steps[0].onError: must be "halt" or "skip", got "stop"']],
  ];
  for (const [change, expected] of cases) {
    const given: Record<string, unknown> = { ...step, ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete given[key];
    assert.deepEqual(steps([given]), expected, JSON.stringify(change));
  }
  assert.deepEqual(steps({}), ['refused steps: must be an array of steps, got an object']);
  assert.deepEqual(steps([null, 'x']), ['refused steps[0]: must be an object, got null', 'refused steps[1]: must be an object, got "x"']);
  // Two steps that produce one artifact at one point; one step that lists it twice is one producer.
  assert.deepEqual(
    steps([
      step,
      { ...step, ref: { agent: 'gsd-writer' }, produces: ['X.md', 'NOTES.md'] },
      { ...step, point: 'plan:pre' },
      { ...step, produces: ['Y.md', 'Y.md'] },
    ]),
    ['refused steps[1].produces: steps[0] produces "NOTES.md" at ship:pre too: one artifact has one producer at a point'],
  );
  // Skills that are no array are refused where they are; a step names any.
  assert.deepEqual(steps([{ ...step, ref: { skill: 'other' } }], { ...declared, skills: undefined }), []);
});

test('contributions: a fragment into one of the agents of its point', () => {
  assert.deepEqual(
    contributions([
      contribution,
      { ...contribution, point: 'execute:wave:post', into: 'verifier', fragment: { inline: 'x' }, when: 'workflow.on', onError: 'halt' },
    ]),
    [],
  );
  assert.deepEqual(contributions([{ ...contribution, into: 'executor' }]), [
    'refused contributions[0].into: "executor" is not an agent of plan:pre (its agents: researcher, planner, checker)',
  ]);
  assert.deepEqual(contributions([{ ...contribution, point: 'ship:post', into: 'planner' }]), [
    'refused contributions[0].into: "planner" is not an agent of ship:post (its agents: orchestrator)',
  ]);
  assert.deepEqual(contributions([{ ...contribution, into: undefined, fragment: undefined, onError: 'x' }]), [
    'refused contributions[0].into: is required (a string (the agent it goes into))',
    'refused contributions[0].fragment: is required (an object with "path" or "inline")',
    'refused contributions[0].onError: must be "halt" or "skip", got "x"',
  ]);
  assert.deepEqual(contributions([{ ...contribution, fragment: {} }]), [
    'refused contributions[0].fragment: must have "path" (a file beside capability.json) or "inline" (the text)',
  ]);
  for (const path of ['/etc/x.md', '../x.md', 'a/../../x.md', 'a\\..\\x.md', '']) {
    assert.deepEqual(
      contributions([{ ...contribution, fragment: { path } }]),
      [`refused contributions[0].fragment.path: must be a relative path without ".." (a file beside capability.json), got ${JSON.stringify(path)}`],
      path,
    );
  }
  assert.deepEqual(contributions([{ ...contribution, when: 'nope' }]), [
    'refused contributions[0].when: "nope" is not a key of the capability\'s config (keys: workflow.on, workflow.where, workflow.n)',
  ]);
});
