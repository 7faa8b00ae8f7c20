import { basename, isAbsolute } from 'node:path';
import type { Result } from '../failure.ts';
import { isJsonObject } from '../json/parse.ts';
import { describe, jsonPath } from '../text/format.ts';
import { ConfigKeys } from './activation.ts';
import { checkConfig } from './config-slice.ts';
import type { CapabilityDeclaration } from './declaration.ts';
import { checkContributions, checkSteps } from './loop-entries.ts';
import { isKebab, isReservedName, isText, KEBAB_RULE, type ManifestIssues } from './manifest-fields.ts';

// The body of a `role: "feature"` capability, the one kind that declares
// gates, as GSD 1.14 checks it (capability-validator.cjs's
// validateFeatureBody and validateAgainstContract): the runtimes it runs on,
// its skills, agents and commands, config, runtime hooks, steps,
// contributions and gates, the key that switches it on, and a task-content
// resolver.

// `gates`: the capability's gates as declaration.ts read them, or why it
// could not (they are not an array).
export function checkFeatureBody(cap: Readonly<Record<string, unknown>>, gates: Result<CapabilityDeclaration>, issues: ManifestIssues): void {
  runtimeCompat(cap.runtimeCompat, issues);
  const skills = issues.names('skills', cap.skills, 'a skill name', 'skill names');
  listedOnce(
    skills?.map((name, index) => [jsonPath('skills', [index]), name]),
    'a skill',
    issues,
  );
  if (cap.commands !== undefined) {
    const commands = issues.array('commands', cap.commands, 'an array of {"family", "module", "router"}', (entry, at) => command(entry, at, issues));
    listedOnce(
      commands?.map((entry, index) => [jsonPath('commands', [index, 'family']), isJsonObject(entry) ? entry.family : undefined]),
      'a command family',
      issues,
    );
  }
  const agents = issues.names('agents', cap.agents, 'an agent name', 'agent names');
  listedOnce(
    agents?.map((name, index) => [jsonPath('agents', [index]), name]),
    'an agent',
    issues,
  );
  checkConfig(cap.config, true, issues);
  if (cap.hooks !== undefined) issues.array('hooks', cap.hooks, 'an array of {"event", "script"}', (entry, at) => hook(entry, at, issues));
  const config = isJsonObject(cap.config) ? cap.config : undefined;
  // A `when` must name a config key; GSD reads an array's indexes as its keys.
  const keys = typeof cap.config === 'object' && cap.config !== null ? new ConfigKeys(Object.keys(cap.config)) : undefined;
  const declared = { config, keys, skills, agents };
  checkSteps(cap.steps, declared, issues);
  checkContributions(cap.contributions, declared, issues);
  if (!gates.ok) issues.keep(gates.failure.issues, gates.failure.issues);
  else if (!Object.hasOwn(cap, 'gates')) issues.refuse('gates', 'is required (an array of gates, maybe empty)');
  else for (const gate of gates.value.gates) issues.keep(gate.issues, gate.refusals);
  activationKey(cap.activationKey, config, keys, issues);
  taskContentResolver(cap.taskContentResolver, issues);
  if (cap.reviewer !== undefined)
    issues.refuse('reviewer', 'must not be given on a feature capability: a reviewer lane belongs to a runtime or reviewer capability');
}

// GSD holds each skill, agent and command family to one owner among all the
// capabilities it loads, and counts this one's own list among them: a name
// listed twice is "owned by both" the capability and itself, and GSD skips it.
function listedOnce(entries: readonly (readonly [string, unknown])[] | undefined, what: string, issues: ManifestIssues): void {
  const first = new Map<string, string>();
  for (const [at, name] of entries ?? []) {
    if (typeof name !== 'string' || name === '' || isReservedName(name)) continue;
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, at);
    else
      issues.refuse(at, `${describe(name)} is listed at ${earlier} too: GSD reads ${what} listed twice as owned by two capabilities, and would skip this one`);
  }
}

function runtimeCompat(value: unknown, issues: ManifestIssues): void {
  if (
    !issues.expect(
      'runtimeCompat',
      value,
      isJsonObject(value),
      'an object {"supported": [...], "unsupported": [...]}, such as {"supported": ["*"], "unsupported": []}',
    )
  )
    return;
  const fields = value as Record<string, unknown>;
  runtimes('runtimeCompat.supported', fields.supported, true, issues);
  runtimes('runtimeCompat.unsupported', fields.unsupported, false, issues);
  const notes = fields.notes;
  if (notes === undefined || !issues.expect('runtimeCompat.notes', notes, isJsonObject(notes), 'an object from runtime ids to notes')) return;
  for (const [runtime, note] of Object.entries(notes as Record<string, unknown>)) {
    const at = jsonPath('runtimeCompat.notes', [runtime]);
    if (runtime !== '*' && !isKebab(runtime)) issues.refuse(at, `the key ${describe(runtime)} must be a runtime id (${KEBAB_RULE}) or "*"`);
    issues.text(at, note);
  }
}

// `supported` lists runtime ids or is ["*"], every runtime; `unsupported`
// lists runtime ids, maybe none.
function runtimes(path: string, value: unknown, supported: boolean, issues: ManifestIssues): void {
  const list = issues.array(path, value, `an array of runtime ids${supported ? ' or ["*"]' : ''}`, (entry, at) => {
    if (!issues.expect(at, entry, isText(entry), 'a non-empty string (a runtime id)')) return;
    if (issues.reserved(at, entry)) return;
    if (entry === '*') {
      if (!supported) issues.refuse(at, '"*" means every runtime, which only supported may say');
    } else if (!isKebab(entry)) issues.refuse(at, `must be a runtime id (${KEBAB_RULE}) or "*", got ${describe(entry)}`);
  });
  if (list === undefined) return;
  if (supported && list.length === 0) issues.refuse(path, 'must not be empty: list the runtimes it runs on, or ["*"] for every one');
  if (list.includes('*') && list.length > 1) issues.refuse(path, '"*" stands alone: it means every runtime');
}

// A command family of gsd-tools, served by a module beside capability.json.
function command(entry: unknown, at: string, issues: ManifestIssues): void {
  if (!issues.expect(at, entry, isJsonObject(entry), 'an object {"family", "module", "router"}')) return;
  const { family, module, router, subcommands } = entry as Record<string, unknown>;
  if (issues.text(jsonPath(at, ['family']), family)) issues.reserved(jsonPath(at, ['family']), family);
  issues.expect(
    jsonPath(at, ['module']),
    module,
    typeof module === 'string' && /^[A-Za-z0-9._-]+\.cjs$/.test(module),
    'the name of a .cjs file beside capability.json (letters, digits, . _ - only)',
  );
  issues.text(jsonPath(at, ['router']), router);
  if (subcommands !== undefined) issues.array(jsonPath(at, ['subcommands']), subcommands, 'an array of strings', (name, path) => issues.text(path, name));
}

// A runtime hook: the script GSD writes into the host's settings, which a
// shell runs, so only names that cannot be read as more than a path.
function hook(entry: unknown, at: string, issues: ManifestIssues): void {
  if (!issues.expect(at, entry, isJsonObject(entry), 'an object {"event", "script"}')) return;
  const { event, script, matcher } = entry as Record<string, unknown>;
  issues.text(jsonPath(at, ['event']), event);
  const scriptAt = jsonPath(at, ['script']);
  if (issues.text(scriptAt, script) && !isSafeScript(script as string)) {
    issues.refuse(
      scriptAt,
      `must be a relative path of letters, digits and . _ / - (no segment starting with "-", no "..", no __pycache__, .pytest_cache, .pyc or .pyo), got ${describe(script)}`,
    );
  }
  if (matcher !== undefined && issues.text(jsonPath(at, ['matcher']), matcher) && /[\u0000-\u001f\u007f]/.test(matcher as string)) {
    issues.refuse(jsonPath(at, ['matcher']), 'must not contain control characters');
  }
}

function isSafeScript(script: string): boolean {
  if (!/^[A-Za-z0-9._/-]+$/.test(script) || isAbsolute(script)) return false;
  const segments = script.split(/[/\\]/);
  if (segments.includes('..') || segments.some((segment) => segment.startsWith('-'))) return false;
  return !/(?:^|[/\\])(__pycache__|\.pytest_cache)(?:[/\\]|$)/.test(script) && !/\.(pyc|pyo)$/i.test(basename(script));
}

function activationKey(value: unknown, config: Readonly<Record<string, unknown>> | undefined, keys: ConfigKeys | undefined, issues: ManifestIssues): void {
  if (value === undefined || !issues.text('activationKey', value)) return;
  if (issues.reserved('activationKey', value)) return;
  if (config === undefined || !Object.hasOwn(config, value as string))
    issues.refuse('activationKey', keys?.miss(value as string) ?? `${describe(value)} is not a key of the capability's config`);
}

// What resolves a task's content from an external tracker: a program run
// with the task's id, within a bound.
const RESOLVER_TIMEOUT_CEILING_MS = 120_000;

function taskContentResolver(value: unknown, issues: ManifestIssues): void {
  if (value === undefined || !issues.expect('taskContentResolver', value, isJsonObject(value), 'an object {"trackerPrefix", "invoke"}')) return;
  const { trackerPrefix, invoke } = value as Record<string, unknown>;
  issues.expect('taskContentResolver.trackerPrefix', trackerPrefix, isKebab(trackerPrefix), KEBAB_RULE);
  if (!issues.expect('taskContentResolver.invoke', invoke, isJsonObject(invoke), 'an object {"binary", "args", "timeoutMs"}')) return;
  const { binary, args, timeoutMs } = invoke as Record<string, unknown>;
  issues.text('taskContentResolver.invoke.binary', binary);
  if (issues.strings('taskContentResolver.invoke.args', args, 'strings') !== undefined && !(args as unknown[]).includes('{{id}}')) {
    issues.refuse('taskContentResolver.invoke.args', 'must contain "{{id}}", where the task\'s id goes');
  }
  const ms = 'taskContentResolver.invoke.timeoutMs';
  if (
    issues.expect(ms, timeoutMs, typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs > 0, 'a positive whole number of milliseconds') &&
    (timeoutMs as number) > RESOLVER_TIMEOUT_CEILING_MS
  ) {
    issues.refuse(ms, `must be at most ${RESOLVER_TIMEOUT_CEILING_MS}, got ${describe(timeoutMs)}`);
  }
}
