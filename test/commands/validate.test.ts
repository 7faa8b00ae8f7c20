import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { texts } from '../helpers/deps.ts';
import type { CliDeps } from '../../src/commands/deps.ts';
import { testDeps } from '../helpers/deps.ts';
import { validate } from '../../src/commands/validate.ts';
import { fail, ok } from '../../src/failure.ts';
import { ROOT } from '../helpers/support.ts';
import { FEATURE, feature } from '../helpers/manifest.ts';

const FIXTURES = join(ROOT, 'test/fixtures/capabilities');

function deps(files: Record<string, string>): CliDeps {
  return testDeps(FIXTURES, {
    readInput: texts(async (path, label) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const relative = path.startsWith(`${FIXTURES}/`) ? path.slice(FIXTURES.length + 1) : name;
      if (Object.hasOwn(files, relative)) return ok(files[relative]!);
      try {
        return ok(readFileSync(path, 'utf8'));
      } catch {
        return fail('unreadable-file', `cannot read ${label}: no such file`);
      }
    }),
  });
}

const run = (files: string[], given: Record<string, string> = {}, json = false) => validate({ files, json, jsonErrors: false }, deps(given));

test("a capability GSD loads is valid; copies of GSD's own are ones GSD keeps its own of", async () => {
  const outcome = await run(['release.json', 'security.json'], { 'release.json': JSON.stringify(feature({})) });
  assert.deepEqual(outcome, {
    exitCode: 1,
    stdout:
      [
        'release.json: valid (1 gate)',
        'security.json: id: "security" is the id of one of GSD 1.14\'s own capabilities, which GSD keeps',
        'security.json: config["workflow.security_enforcement"]: is a config key of GSD\'s own capability "security"',
        'security.json: GSD 1.14.0 would not load this capability (for id, config["workflow.security_enforcement"]), so none of its 3 gates would be enforced',
      ].join('\n') + '\n',
    stderr: '',
  });
});

test('issues: one line each with file and path, then whether GSD would load it; exit 1', async () => {
  const slips = JSON.stringify(
    feature({
      config: { 'x.on': { type: 'boolean', default: true, description: 'd' } },
      gates: [
        { point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'true', timeOut: 5 } }, when: 'x.on', blocking: true, onError: 'halt' },
      ],
      steps: [],
      skills: [],
    }),
  );
  const refused = JSON.stringify(feature({ tier: 'top', gates: [{ point: 'ship:pre', check: { query: 'q' }, when: 'x.of', blocking: true }] }));
  const outcome = await run(['slips.json', 'refused.json', 'bad.json'], { 'slips.json': slips, 'refused.json': refused, 'bad.json': '{' });
  assert.equal(outcome.exitCode, 1);
  assert.equal(
    outcome.stdout,
    [
      'slips.json: gates[0].check.predicate.timeOut: unknown field; did you mean "timeout"?',
      'refused.json: tier: must be one of "core", "standard", "full", got "top"',
      'refused.json: gates[0].when: "x.of" is not a key of the capability\'s config (keys: workflow.release_checks)',
      'refused.json: gates[0].onError: is required ("halt" or "skip")',
      'refused.json: GSD 1.14.0 would not load this capability (for tier, gates[0].when, gates[0].onError), so its gate would not be enforced',
      'bad.json: the file is not valid JSON: unexpected end at line 1, column 2',
      'bad.json: GSD 1.14.0 would not load this capability (for the file)',
    ].join('\n') + '\n',
  );
});

test('--json gives the same as one document, with what GSD would make of each file', async () => {
  const outcome = await run(
    ['good.json', 'x.json', 'twice.json'],
    {
      'good.json': JSON.stringify(feature({})),
      'x.json': JSON.stringify(feature({ gates: [null] })),
      'twice.json': `{"id": "a", ${JSON.stringify(feature({})).slice(1)}`,
    },
    true,
  );
  assert.equal(outcome.exitCode, 1);
  assert.deepEqual(JSON.parse(outcome.stdout), {
    valid: false,
    files: [
      { file: 'good.json', valid: true, gates: 1, gsdLoads: true, issues: [], moreIssues: 0 },
      {
        file: 'x.json',
        valid: false,
        gates: 1,
        gsdLoads: false,
        issues: [{ path: 'gates[0]', message: 'must be an object, got null', gsdRefuses: true }],
        moreIssues: 0,
      },
      // GSD reads a key given twice as its last value, and so does the rest of the check.
      {
        file: 'twice.json',
        valid: false,
        gates: 1,
        gsdLoads: true,
        issues: [
          { path: 'id', message: 'is given twice: which one counts is ambiguous (GSD reads the last, as the rest of this check does)', gsdRefuses: false },
        ],
        moreIssues: 0,
      },
    ],
  });
});

test('a runtime or a reviewer is checked up to its body, which is told as not checked', async () => {
  const runtime = JSON.stringify({ id: 'host', role: 'runtime', version: '1.0.0', title: 'Host', description: 'd', tier: 'core', requires: [], runtime: {} });
  const outcome = await run(['host.json'], { 'host.json': runtime });
  assert.deepEqual(outcome, { exitCode: 0, stdout: 'host.json: valid (0 gates; its runtime body is not checked)\n', stderr: '' });
  const json = await run(['host.json'], { 'host.json': runtime }, true);
  assert.deepEqual(JSON.parse(json.stdout).files[0].gsdLoads, null);
});

test('an unreadable file is exit 2, nothing on stdout', async () => {
  const outcome = await run(['security.json', 'missing.json']);
  assert.deepEqual(outcome, { exitCode: 2, stdout: '', stderr: 'gsd-check: cannot read capability file missing.json: no such file\n' });
});

test('standard input (-) given once is a file like any other', async () => {
  const stdin = JSON.stringify(feature({ gates: [] }));
  const once = await validate(
    { files: ['-'], json: false, jsonErrors: false },
    { ...deps({}), readInput: texts(async (path, label) => (path === '-' ? ok(stdin) : fail('unreadable-file', label))) },
  );
  assert.deepEqual(once, { exitCode: 0, stdout: '-: valid (0 gates)\n', stderr: '' });
});

test('a file that is not JSON, or not a capability, counts no gates; a gate is one gate', async () => {
  const outcome = await run(['bad.json', 'list.json', 'one.json'], { 'bad.json': '{', 'list.json': '{"gates":{}}', 'one.json': '{"gates":[{}]}' }, true);
  assert.deepEqual(
    JSON.parse(outcome.stdout).files.map((f: { gates: number }) => f.gates),
    [0, 0, 1],
  );
  const plain = await run(['one.json'], { 'one.json': JSON.stringify(feature({})) });
  assert.equal(plain.stdout, 'one.json: valid (1 gate)\n');
});

test("a byte order mark at the file's start: GSD's loader cannot parse the file and skips it; the rest is checked as without one", async () => {
  const text = `\uFEFF${JSON.stringify(feature({}))}`;
  assert.deepEqual(await run(['bom.json'], { 'bom.json': text }), {
    exitCode: 1,
    stdout:
      [
        "bom.json: the file starts with a UTF-8 byte order mark (EF BB BF), which GSD's loader cannot parse as JSON: save it without one",
        'bom.json: GSD 1.14.0 would not load this capability (for the file), so its gate would not be enforced',
      ].join('\n') + '\n',
    stderr: '',
  });
  const json = JSON.parse((await run(['bom.json'], { 'bom.json': text }, true)).stdout);
  assert.deepEqual(json.files[0], {
    file: 'bom.json',
    valid: false,
    gates: 1,
    gsdLoads: false,
    issues: [
      {
        path: '',
        message: "the file starts with a UTF-8 byte order mark (EF BB BF), which GSD's loader cannot parse as JSON: save it without one",
        gsdRefuses: true,
      },
    ],
    moreIssues: 0,
  });
  // Past the mark, the rest's own issues; and a runtime behind one is still one GSD skips.
  const runtime = `\uFEFF${JSON.stringify({ id: 'host', role: 'runtime', version: '1.0.0', title: 'Host', description: 'd', tier: 'core', requires: [], runtime: {} })}`;
  const both = JSON.parse(
    (await run(['twice.json', 'host.json'], { 'twice.json': `\uFEFF{"title": "a", ${JSON.stringify(feature({})).slice(1)}`, 'host.json': runtime }, true))
      .stdout,
  );
  assert.deepEqual(
    both.files.map((f: { gsdLoads: boolean; issues: { path: string }[] }) => [f.gsdLoads, f.issues.map((i) => i.path)]),
    [
      [false, ['', 'title']],
      [false, ['']],
    ],
  );
});

test('a file with thousands of issues: the first 100 told, the rest counted, alike in --json', async () => {
  const gates = Array.from({ length: 3000 }, (_, index) => ({ point: 'ship:pre', check: { query: 'q' }, when: `k${index}`, blocking: true, onError: 'halt' }));
  const given = { 'many.json': JSON.stringify(feature({ gates })) };
  const text = await run(['many.json'], given);
  const lines = text.stdout.split('\n');
  assert.equal(text.exitCode, 1);
  assert.equal(lines.length, 103);
  assert.equal(lines[99], 'many.json: gates[99].when: "k99" is not a key of the capability\'s config (keys: workflow.release_checks)');
  assert.deepEqual(lines.slice(100), [
    'many.json: and 2900 more issues, not told',
    'many.json: GSD 1.14.0 would not load this capability (for gates[0].when, gates[1].when, gates[2].when, gates[3].when, gates[4].when and 2995 more), so none of its 3000 gates would be enforced',
    '',
  ]);
  const json = JSON.parse((await run(['many.json'], given, true)).stdout);
  assert.deepEqual([json.files[0].issues.length, json.files[0].moreIssues, json.files[0].issues[99].path], [100, 2900, 'gates[99].when']);
  // One over the cap is one more, said in the singular.
  const one = await run(['one.json'], { 'one.json': JSON.stringify(feature({ gates: gates.slice(0, 101) })) });
  assert.equal(one.stdout.split('\n')[100], 'one.json: and 1 more issue, not told');
  assert.equal((await run(['hundred.json'], { 'hundred.json': JSON.stringify(feature({ gates: gates.slice(0, 100) })) })).stdout.split('\n').length, 102);
});

test('a path or a message is cut at 1000 characters: a key of a megabyte is not told whole', async () => {
  const key = 'k'.repeat(5000);
  const outcome = JSON.parse(
    (await run(['long.json'], { 'long.json': JSON.stringify(feature({ config: { ...(FEATURE.config as object), [key]: { type: 'boolean' } } })) }, true))
      .stdout,
  );
  const issue = outcome.files[0].issues[0];
  assert.equal(issue.path, `config.${'k'.repeat(990)}...`);
  assert.equal(issue.path.length, 1000);
});
