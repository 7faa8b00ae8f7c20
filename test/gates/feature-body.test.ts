import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { checkFeatureBody } from '../../src/gates/feature-body.ts';
import { parseCapability } from '../../src/gates/declaration.ts';
import { ManifestIssues } from '../../src/gates/manifest-fields.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { FEATURE, feature, told } from '../helpers/manifest.ts';

const body = (change: Record<string, unknown>): string[] => {
  const cap = feature(change);
  const issues = new ManifestIssues();
  checkFeatureBody(cap, parseCapability(cap, KINDS), issues);
  return told(issues.list);
};

test('a feature body GSD loads has no issues', () => {
  assert.deepEqual(body({}), []);
  // Optional parts, given well.
  assert.deepEqual(
    body({
      commands: [{ family: 'release', module: 'release-router.cjs', router: 'route', subcommands: ['notes'] }],
      hooks: [{ event: 'PostToolUse', script: 'hooks/check.js', matcher: 'Write|Edit' }],
      activationKey: 'workflow.release_checks',
      taskContentResolver: { trackerPrefix: 'jira', invoke: { binary: 'jira-cli', args: ['show', '{{id}}'], timeoutMs: 5000 } },
      runtimeCompat: { supported: ['claude', 'codex'], unsupported: ['cursor'], notes: { claude: 'best', '*': 'any' } },
    }),
    [],
  );
});

test('runtimeCompat', () => {
  const rc = (runtimeCompat: unknown) => body({ runtimeCompat });
  assert.deepEqual(rc(undefined), [
    'refused runtimeCompat: is required (an object {"supported": [...], "unsupported": [...]}, such as {"supported": ["*"], "unsupported": []})',
  ]);
  assert.deepEqual(rc({ supported: [], unsupported: [] }), [
    'refused runtimeCompat.supported: must not be empty: list the runtimes it runs on, or ["*"] for every one',
  ]);
  assert.deepEqual(rc({ supported: ['*'] }), ['refused runtimeCompat.unsupported: is required (an array of runtime ids)']);
  assert.deepEqual(rc({ supported: ['*', 'claude'], unsupported: ['*'] }), [
    'refused runtimeCompat.supported: "*" stands alone: it means every runtime',
    'refused runtimeCompat.unsupported[0]: "*" means every runtime, which only supported may say',
  ]);
  assert.deepEqual(rc({ supported: ['Claude', '', 'constructor'], unsupported: [] }), [
    'refused runtimeCompat.supported[0]: must be a runtime id (a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens)) or "*", got "Claude"',
    'refused runtimeCompat.supported[1]: must be a non-empty string (a runtime id), got ""',
    'refused runtimeCompat.supported[2]: "constructor" is a name GSD refuses (__proto__, constructor and prototype are)',
  ]);
  assert.deepEqual(rc({ supported: ['*'], unsupported: [], notes: { Claude: '' } }), [
    'refused runtimeCompat.notes.Claude: the key "Claude" must be a runtime id (a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens)) or "*"',
    'refused runtimeCompat.notes.Claude: must be a non-empty string, got ""',
  ]);
});

test('skills, agents, commands', () => {
  assert.deepEqual(body({ skills: undefined, steps: [] }), ['refused skills: is required (an array of skill names)']);
  assert.deepEqual(body({ skills: ['release-notes', 3, '__proto__'] }), [
    'refused skills[1]: must be a string (a skill name), got 3',
    'refused skills[2]: "__proto__" is a name GSD refuses (__proto__, constructor and prototype are)',
  ]);
  assert.deepEqual(body({ agents: {} }), ['refused agents: must be an array of agent names, got an object']);
  assert.deepEqual(body({ commands: {} }), ['refused commands: must be an array of {"family", "module", "router"}, got an object']);
  assert.deepEqual(body({ commands: [{ family: 'prototype', module: '../x.cjs', subcommands: [''] }] }), [
    'refused commands[0].family: "prototype" is a name GSD refuses (__proto__, constructor and prototype are)',
    'refused commands[0].module: must be the name of a .cjs file beside capability.json (letters, digits, . _ - only), got "../x.cjs"',
    'refused commands[0].router: is required (a non-empty string)',
    'refused commands[0].subcommands[0]: must be a non-empty string, got ""',
  ]);
});

test('a skill, an agent or a command family listed twice: GSD reads it as owned by two capabilities, this one and itself', () => {
  const command = { family: 'rel', module: 'rel.cjs', router: 'r' };
  assert.deepEqual(
    body({
      skills: ['release-notes', 'extra', 'release-notes', 'release-notes'],
      agents: ['writer', 'writer'],
      commands: [command, { ...command, module: 'other.cjs' }],
    }),
    [
      'refused skills[2]: "release-notes" is listed at skills[0] too: GSD reads a skill listed twice as owned by two capabilities, and would skip this one',
      'refused skills[3]: "release-notes" is listed at skills[0] too: GSD reads a skill listed twice as owned by two capabilities, and would skip this one',
      'refused commands[1].family: "rel" is listed at commands[0].family too: GSD reads a command family listed twice as owned by two capabilities, and would skip this one',
      'refused agents[1]: "writer" is listed at agents[0] too: GSD reads an agent listed twice as owned by two capabilities, and would skip this one',
    ],
  );
  // Each once, and what is refused already (not a string, empty, reserved) is not told twice.
  assert.deepEqual(body({ skills: ['release-notes', 'extra'], agents: ['a', 'b'], commands: [command, { ...command, family: 'other' }] }), []);
  assert.deepEqual(
    body({
      commands: [
        { ...command, family: '' },
        { ...command, family: '' },
      ],
    }).filter((line) => line.includes('listed')),
    [],
  );
  assert.deepEqual(
    body({ skills: ['constructor', 'constructor', 3, 3], steps: [] }).filter((line) => line.includes('listed')),
    [],
  );
});

test('runtime hooks: a script a shell reads as one path, and no more', () => {
  const hook = (h: Record<string, unknown>) => body({ hooks: [{ event: 'Stop', script: 'hooks/x.js', ...h }] });
  for (const script of ['hooks/x.js', 'a/b-c_d.1.js', 'x.py']) assert.deepEqual(hook({ script }), [], script);
  for (const script of ['run.sh; touch /tmp/pwn', '/abs/x.js', '../x.js', 'a/-x.js', 'a b.js', '__pycache__/x.js', 'x.PYC', 'a/.pytest_cache/x', 'x.pyc/']) {
    assert.match(hook({ script }).join('\n'), /^refused hooks\[0\]\.script: must be a relative path of letters, digits and/, script);
  }
  assert.deepEqual(hook({ event: '', matcher: 'a\u0007' }), [
    'refused hooks[0].event: must be a non-empty string, got ""',
    'refused hooks[0].matcher: must not contain control characters',
  ]);
  assert.deepEqual(body({ hooks: [null] }), ['refused hooks[0]: must be an object {"event", "script"}, got null']);
});

test('activationKey and taskContentResolver', () => {
  assert.deepEqual(body({ activationKey: 'workflow.release_check' }), [
    'refused activationKey: "workflow.release_check" is not a key of the capability\'s config; did you mean "workflow.release_checks"?',
  ]);
  assert.deepEqual(body({ activationKey: '' }), ['refused activationKey: must be a non-empty string, got ""']);
  assert.deepEqual(body({ activationKey: 'constructor' }), [
    'refused activationKey: "constructor" is a name GSD refuses (__proto__, constructor and prototype are)',
  ]);
  const tcr = (value: unknown) => body({ taskContentResolver: value });
  assert.deepEqual(tcr(null), ['refused taskContentResolver: must be an object {"trackerPrefix", "invoke"}, got null']);
  assert.deepEqual(tcr({ trackerPrefix: 'JIRA', invoke: { binary: '', args: ['show'], timeoutMs: 120_001 } }), [
    'refused taskContentResolver.trackerPrefix: must be a kebab-case name (a lowercase letter, then lowercase letters, digits and hyphens), got "JIRA"',
    'refused taskContentResolver.invoke.binary: must be a non-empty string, got ""',
    'refused taskContentResolver.invoke.args: must contain "{{id}}", where the task\'s id goes',
    'refused taskContentResolver.invoke.timeoutMs: must be at most 120000, got 120001',
  ]);
  assert.deepEqual(tcr({ trackerPrefix: 'j', invoke: { binary: 'b', args: ['{{id}}', 1], timeoutMs: 1.5 } }), [
    'refused taskContentResolver.invoke.args[1]: must be a string, got 1',
    'refused taskContentResolver.invoke.timeoutMs: must be a positive whole number of milliseconds, got 1.5',
  ]);
});

test("gates: GSD's rules refuse, gsd-check's own are kept beside them", () => {
  assert.deepEqual(body({ gates: undefined }), ['refused gates: is required (an array of gates, maybe empty)']);
  assert.deepEqual(body({ gates: [] }), []);
  assert.deepEqual(body({ gates: [{ ...(FEATURE.gates as object[])[0], when: 'workflow.other', extra: true }] }), [
    'gates[0].extra: unknown field (known fields: point, check, when, blocking, onError)',
    'refused gates[0].when: "workflow.other" is not a key of the capability\'s config (keys: workflow.release_checks)',
  ]);
  assert.deepEqual(body({ reviewer: {} }), [
    'refused reviewer: must not be given on a feature capability: a reviewer lane belongs to a runtime or reviewer capability',
  ]);
});
