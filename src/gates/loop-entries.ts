import { isAbsolute } from 'node:path';
import * as v from 'valibot';
import { isJsonObject } from '../json/parse.ts';
import { describe, fewOf, jsonPath } from '../text/format.ts';
import { isLoopPoint, type ConfigKeys } from './activation.ts';
import { FIELD_SCHEMAS } from './declaration.ts';
import type { ManifestIssues } from './manifest-fields.ts';

// What a feature capability adds to the loop besides gates, as GSD 1.14
// checks it (capability-validator.cjs's validateStep, validateContribution,
// validateFragment, and validateAgainstContract's rules for them): steps,
// which dispatch a skill, an agent or a command at a loop point, and
// contributions, a fragment of prompt for one of the agents of a point.

// The agents each step of the loop has, which a contribution goes `into`
// (loop-host-contract.cjs), by the step a point belongs to.
const AGENT_ROLES: Readonly<Record<string, readonly string[]>> = {
  discuss: ['orchestrator'],
  plan: ['researcher', 'planner', 'checker'],
  execute: ['executor', 'verifier'],
  verify: ['orchestrator'],
  ship: ['orchestrator'],
};

const REF_SHAPES = ['skill', 'agent', 'command'];

// The rest of the capability that a step's or a contribution's fields are
// read against: its config keys (when the config is an object) and the
// skills and agents it declares (when they are arrays).
export interface Declared {
  readonly config: Readonly<Record<string, unknown>> | undefined;
  readonly keys: ConfigKeys | undefined;
  readonly skills: readonly unknown[] | undefined;
  readonly agents: readonly unknown[] | undefined;
}

export function checkSteps(steps: unknown, declared: Declared, issues: ManifestIssues): void {
  const list = issues.array('steps', steps, 'an array of steps', (step, at) => {
    if (!issues.expect(at, step, isJsonObject(step), 'an object')) return;
    const fields = step as Record<string, unknown>;
    point(jsonPath(at, ['point']), fields.point, issues);
    ref(jsonPath(at, ['ref']), fields.ref, declared, issues);
    issues.strings(jsonPath(at, ['produces']), fields.produces, 'artifact names');
    issues.strings(jsonPath(at, ['consumes']), fields.consumes, 'artifact names');
    when(jsonPath(at, ['when']), fields.when, declared, issues);
    if (
      fields.pointFrom !== undefined &&
      issues.expect(jsonPath(at, ['pointFrom']), fields.pointFrom, typeof fields.pointFrom === 'string', 'a string (an enum config key)')
    ) {
      pointFrom(jsonPath(at, ['pointFrom']), fields.pointFrom as string, fields.point, declared, issues);
    }
    const lanes = fields.supportsReviewerLanes;
    if (lanes !== undefined) issues.expect(jsonPath(at, ['supportsReviewerLanes']), lanes, typeof lanes === 'boolean', 'true or false');
    if (fields.fragment !== undefined) fragment(jsonPath(at, ['fragment']), fields.fragment, issues);
    onError(jsonPath(at, ['onError']), fields.onError, issues);
  });
  if (list !== undefined) producers(list, issues);
}

// GSD refuses two steps that produce one artifact at one point: which of
// them a consumer reads would be ambiguous.
function producers(steps: readonly unknown[], issues: ManifestIssues): void {
  const first = new Map<string, number>();
  steps.forEach((step, index) => {
    if (!isJsonObject(step) || !isLoopPoint(step.point) || !Array.isArray(step.produces)) return;
    for (const artifact of new Set(step.produces)) {
      if (typeof artifact !== 'string') continue;
      const key = JSON.stringify([step.point, artifact]);
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, index);
      else
        issues.refuse(
          jsonPath('steps', [index, 'produces']),
          `steps[${earlier}] produces ${describe(artifact)} at ${step.point} too: one artifact has one producer at a point`,
        );
    }
  });
}

export function checkContributions(contributions: unknown, declared: Declared, issues: ManifestIssues): void {
  issues.array('contributions', contributions, 'an array of contributions', (contribution, at) => {
    if (!issues.expect(at, contribution, isJsonObject(contribution), 'an object')) return;
    const fields = contribution as Record<string, unknown>;
    const given = point(jsonPath(at, ['point']), fields.point, issues);
    const into = jsonPath(at, ['into']);
    if (issues.expect(into, fields.into, typeof fields.into === 'string', 'a string (the agent it goes into)') && given !== undefined) {
      const roles = AGENT_ROLES[given.split(':')[0]!] ?? [];
      if (!roles.includes(fields.into as string)) issues.refuse(into, `${describe(fields.into)} is not an agent of ${given} (its agents: ${roles.join(', ')})`);
    }
    issues.strings(jsonPath(at, ['produces']), fields.produces, 'artifact names');
    issues.strings(jsonPath(at, ['consumes']), fields.consumes, 'artifact names');
    fragment(jsonPath(at, ['fragment']), fields.fragment, issues);
    when(jsonPath(at, ['when']), fields.when, declared, issues);
    if (fields.onError !== undefined) onError(jsonPath(at, ['onError']), fields.onError, issues);
  });
}

// The point, when it is one.
function point(at: string, value: unknown, issues: ManifestIssues): string | undefined {
  if (value === undefined) issues.refuse(at, 'is required (a loop point)');
  else schema(at, FIELD_SCHEMAS.point, value, issues);
  return isLoopPoint(value) ? value : undefined;
}

function onError(at: string, value: unknown, issues: ManifestIssues): void {
  if (value === undefined) issues.refuse(at, 'is required ("halt" or "skip")');
  else schema(at, FIELD_SCHEMAS.onError, value, issues);
}

function schema(at: string, field: v.GenericSchema, value: unknown, issues: ManifestIssues): void {
  const parsed = v.safeParse(field, value);
  if (!parsed.success) for (const issue of parsed.issues) issues.refuse(at, issue.message);
}

function ref(at: string, value: unknown, declared: Declared, issues: ManifestIssues): void {
  // An array is an object to GSD here, and has none of the three.
  if (!issues.expect(at, value, typeof value === 'object' && value !== null, 'an object with one of skill, agent, command')) return;
  const fields = value as Record<string, unknown>;
  const shapes = REF_SHAPES.filter((shape) => Object.hasOwn(fields, shape));
  if (shapes.length !== 1) issues.refuse(at, `must have exactly one of skill, agent, command${shapes.length > 1 ? `, has ${shapes.join(' and ')}` : ''}`);
  if (Object.hasOwn(fields, 'skill')) {
    const skill = fields.skill;
    const path = jsonPath(at, ['skill']);
    if (issues.expect(path, skill, typeof skill === 'string', "a string (one of the capability's skills)")) {
      if ((skill as string).startsWith('gsd-'))
        issues.refuse(path, `${describe(skill)} must not start with "gsd-": GSD adds that prefix when it dispatches the skill`);
      else if (declared.skills !== undefined && !declared.skills.includes(skill))
        issues.refuse(path, `${describe(skill)} is not one of the capability's skills (${names(declared.skills)})`);
    }
  }
  if (Object.hasOwn(fields, 'agent')) {
    const agent = fields.agent;
    const path = jsonPath(at, ['agent']);
    if (
      issues.expect(path, agent, typeof agent === 'string', "a string (one of the capability's agents)") &&
      declared.agents !== undefined &&
      !declared.agents.includes(agent)
    ) {
      issues.refuse(path, `${describe(agent)} is not one of the capability's agents (${names(declared.agents)})`);
    }
  }
  if (Object.hasOwn(fields, 'command')) issues.expect(jsonPath(at, ['command']), fields.command, typeof fields.command === 'string', 'a string');
}

const names = (list: readonly unknown[]): string => fewOf(list.filter((name): name is string => typeof name === 'string'));

// A `when` must name one of the capability's config keys, as a gate's does.
function when(at: string, value: unknown, declared: Declared, issues: ManifestIssues): void {
  if (value === undefined || !issues.expect(at, value, typeof value === 'string', 'a string (a config key)')) return;
  if (declared.keys !== undefined && !declared.keys.has(value as string)) issues.refuse(at, declared.keys.miss(value as string));
}

// `pointFrom` names an enum key of the config whose values choose the point
// the step runs at: one whose values leave its own point out never runs.
function pointFrom(at: string, key: string, own: unknown, declared: Declared, issues: ManifestIssues): void {
  const slice = declared.config !== undefined && Object.hasOwn(declared.config, key) ? declared.config[key] : undefined;
  if (!isJsonObject(slice)) issues.refuse(at, declared.keys?.miss(key) ?? `${describe(key)} is not a key of the capability's config`);
  else if (slice.type !== 'enum') issues.refuse(at, `${describe(key)} must be an enum key of the config, not a key of type ${describe(slice.type)}`);
  else if (!Array.isArray(slice.values) || !slice.values.includes(own))
    issues.refuse(at, `the values of ${describe(key)} leave out the step's own point ${describe(own)}, so the step would never run`);
}

function fragment(at: string, value: unknown, issues: ManifestIssues): void {
  if (!issues.expect(at, value, isJsonObject(value), 'an object with "path" or "inline"')) return;
  const fields = value as Record<string, unknown>;
  const hasPath = Object.hasOwn(fields, 'path');
  const hasInline = Object.hasOwn(fields, 'inline');
  if (!hasPath && !hasInline) issues.refuse(at, 'must have "path" (a file beside capability.json) or "inline" (the text)');
  if (hasInline) issues.text(jsonPath(at, ['inline']), fields.inline);
  if (hasPath) {
    const path = fields.path;
    const relative = typeof path === 'string' && path !== '' && !isAbsolute(path) && !path.split(/[\\/]/).includes('..');
    issues.expect(jsonPath(at, ['path']), path, relative, 'a relative path without ".." (a file beside capability.json)');
  }
}
