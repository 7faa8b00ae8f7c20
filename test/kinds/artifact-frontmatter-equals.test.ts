import { testGateContext } from '../helpers/deps.ts';
import assert from 'node:assert/strict';
import { ok } from '../../src/failure.ts';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from '../helpers/bounded.ts';
import { artifactFrontmatterEquals, frontmatterKind, matches, typedEqual } from '../../src/kinds/artifact-frontmatter-equals.ts';
import { parseGate } from '../../src/gates/declaration.ts';
import { runPoints } from '../../src/gates/run-point.ts';
import type { Evaluation, GateContext } from '../../src/predicate/kind.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { validatePredicate } from '../../src/predicate/validate.ts';
import { project as projectTree } from '../helpers/project.ts';
import { cli, tempDir } from '../helpers/support.ts';

test("matches: GSD's comparison of the text with equals: equal, or equal as text; containers by their JSON form", () => {
  const yes: [unknown, unknown][] = [
    ['0', 0],
    ['0', '0'],
    ['04', '04'],
    ['1.10', '1.10'],
    ['true', true],
    ['true', 'true'],
    ['null', null],
    [null, null],
    ['1.5', 1.5],
    ['open', 'open'],
    [
      ['1', '2'],
      ['1', '2'],
    ],
    [['1', '2'], '["1","2"]'],
    [{ a: '1' }, { a: '1' }],
  ];
  const no: [unknown, unknown][] = [
    ['0', 1],
    ['0', false],
    ['0', null],
    [null, 0],
    [null, 'null'],
    ['', null],
    ['true', 1],
    ['04', 4],
    ['1.10', 1.1],
    ['True', true],
    ['0.0', 0],
    [
      ['1', '2'],
      [1, 2],
    ],
    [
      { a: '1', b: '2' },
      { b: '2', a: '1' },
    ],
    ['0', ' 0'],
    ['0', '00'],
  ];
  for (const [actual, expected] of yes) assert.equal(matches(actual, expected), true, `${JSON.stringify(actual)} ~ ${JSON.stringify(expected)}`);
  for (const [actual, expected] of no) assert.equal(matches(actual, expected), false, `${JSON.stringify(actual)} !~ ${JSON.stringify(expected)}`);
});

test("typedEqual: the core schema's value equals equals in type and value, item by item", () => {
  const yes: [unknown, unknown][] = [
    [0, 0],
    [-0, 0],
    [0, -0],
    [true, true],
    [null, null],
    ['0', '0'],
    [
      [1, null],
      [1, null],
    ],
    [{ a: [0] }, { a: [0] }],
    [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ],
  ];
  const no: [unknown, unknown][] = [
    [0, '0'],
    [true, 'true'],
    [null, 'null'],
    [NaN, NaN],
    [1, [1]],
    [[1], { 0: 1 }],
    [{ a: 1 }, { a: 1, b: 2 }],
    [
      { a: 1, b: 2 },
      { a: 1, c: 2 },
    ],
    [[1, 2], [1]],
    [{}, null],
    [{ a: 1 }, { a: 2 }],
    [[1], [2]],
    [{}, ''],
    [[], ''],
  ];
  for (const [actual, expected] of yes) assert.equal(typedEqual(actual, expected), true, `${JSON.stringify(actual)} = ${JSON.stringify(expected)}`);
  for (const [actual, expected] of no) assert.equal(typedEqual(actual, expected), false, `${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
});

// A project with phase 03's directory, and `files`.
const project = (t: TestContext, files: Record<string, string>): string => projectTree(t, { '.planning/phases/03-auth': null, ...files });

const context = (root: string, phase: Partial<GateContext> = {}): GateContext =>
  testGateContext(root, async () => assert.fail('this kind runs no command'), phase);

async function evaluate(root: string, fields: Record<string, unknown>, phaseDir?: string, phase: Partial<GateContext> = {}): Promise<Evaluation> {
  const valid = validatePredicate({ kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', ...fields }, KINDS);
  assert.ok(valid.ok, valid.ok ? '' : valid.failure.issues.map((i) => i.message).join('; '));
  const given = phaseDir === undefined ? {} : { phaseDir: join(root, phaseDir) };
  return artifactFrontmatterEquals.evaluate(valid.value.predicate as never, context(root, { ...given, ...phase }));
}

const envelopeOf = (evaluation: Evaluation) => {
  assert.equal(evaluation.ok, true);
  return evaluation.ok ? evaluation.value : assert.fail();
};

test('a match, a mismatch and a missing field: messages and details, exactly', async (t) => {
  const root = project(t, { '.planning/phases/03-auth/03-SECURITY.md': '---\nthreats_open: 0\nowner: ~\n---\n# Security\n' });
  const path = '.planning/phases/03-auth/03-SECURITY.md';
  const base = { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', path, frontmatter: 'present' };
  assert.deepEqual(envelopeOf(await evaluate(root, { equals: 0 }, '.planning/phases/03-auth')), {
    block: false,
    message: 'Frontmatter field "threats_open" matches expected value (0)',
    details: { ...base, line: 2, field: 'threats_open', expected: 0, match: true, actual: '0', fieldPresent: true },
  });
  assert.deepEqual(envelopeOf(await evaluate(root, { equals: '2' }, '.planning/phases/03-auth')), {
    block: true,
    message: 'Frontmatter field "threats_open" in .planning/phases/03-auth/03-SECURITY.md is 0, expected 2',
    details: { ...base, line: 2, field: 'threats_open', expected: '2', match: false, actual: '0', fieldPresent: true },
  });
  assert.deepEqual(envelopeOf(await evaluate(root, { field: 'reviewed', equals: null }, '.planning/phases/03-auth')), {
    block: true,
    message: 'Frontmatter field "reviewed" in .planning/phases/03-auth/03-SECURITY.md is missing, expected null',
    details: { ...base, line: 1, field: 'reviewed', expected: null, match: false, actual: null, fieldPresent: false },
  });
  assert.equal(envelopeOf(await evaluate(root, { field: 'owner', equals: null }, '.planning/phases/03-auth')).details.line, 3);
  // A field that is there and null (`~`, typed) matches null; only a missing one never does.
  const owner = envelopeOf(await evaluate(root, { field: 'owner', equals: null }, '.planning/phases/03-auth'));
  assert.deepEqual([owner.block, owner.message], [false, 'Frontmatter field "owner" matches expected value (null)']);
  const undefinedText = envelopeOf(await evaluate(root, { field: 'reviewed', equals: 'undefined' }, '.planning/phases/03-auth'));
  assert.equal(undefinedText.block, true);
});

test('a value matches when its text as written equals equals, or its typed value does', async (t) => {
  const root = project(t, {
    'SECURITY.md': '---\nphase: 04\nversion: 1.10\nzero: 0.0\nyes: True\ntitle: Phase 4: Ship\nempty:\n---\n',
  });
  const verdict = async (field: string, equals: unknown) => {
    const envelope = envelopeOf(await evaluate(root, { field, equals }));
    return envelope.block ? envelope.message : 'pass';
  };
  assert.equal(await verdict('phase', '04'), 'pass');
  assert.equal(await verdict('phase', 4), 'pass');
  assert.equal(await verdict('version', '1.10'), 'pass');
  assert.equal(await verdict('version', 1.1), 'pass');
  assert.equal(await verdict('zero', 0), 'pass');
  assert.equal(await verdict('yes', true), 'pass');
  assert.equal(await verdict('title', 'Phase 4: Ship'), 'pass');
  assert.equal(await verdict('empty', null), 'pass');
  assert.equal(await verdict('zero', '0'), 'Frontmatter field "zero" in SECURITY.md is 0.0, expected 0');
  assert.equal(await verdict('yes', 'true'), 'Frontmatter field "yes" in SECURITY.md is True, expected true');
  assert.equal(await verdict('phase', '4'), 'Frontmatter field "phase" in SECURITY.md is 04, expected 4');
  assert.equal(await verdict('empty', {}), 'Frontmatter field "empty" in SECURITY.md is null, expected {}');
});

test('a key YAML 1.2 would type is found by its text', async (t) => {
  const root = project(t, { 'SECURITY.md': '---\nnull: 0\n~: 1\n1.50: 2\n"x": [y]\n---\n' });
  for (const [field, equals] of [
    ['null', 0],
    ['~', 1],
    ['1.50', 2],
  ] as const) {
    assert.equal(envelopeOf(await evaluate(root, { field, equals })).block, false, field);
  }
});

test('a newline or other control character in a value never starts a line of the message', async (t) => {
  const root = project(t, { 'SECURITY.md': '---\nthreats_open: "1\\ngsd-check: forged\\r\\u001b[2K"\n---\n' });
  const envelope = envelopeOf(await evaluate(root, { equals: 0 }));
  assert.equal(envelope.message, 'Frontmatter field "threats_open" in SECURITY.md is 1\\ngsd-check: forged\\r\\x1b[2K, expected 0');
  assert.equal(envelope.details.actual, '1\ngsd-check: forged\r\u001b[2K');
});

test('containers show as JSON in messages', async (t) => {
  const root = project(t, { 'SECURITY.md': '---\nthreats_open: [a, b]\n---\n' });
  const envelope = envelopeOf(await evaluate(root, { equals: { a: 1 } }));
  assert.equal(envelope.message, 'Frontmatter field "threats_open" in SECURITY.md is ["a","b"], expected {"a":1}');
  const typedList = project(t, { 'SECURITY.md': '---\nthreats_open: [1, 0x10]\n---\n' });
  assert.equal(envelopeOf(await evaluate(typedList, { equals: [1, 16] })).block, false);
  assert.equal(envelopeOf(await evaluate(typedList, { equals: ['1', '0x10'] })).block, false);
});

test('the phase directory first, then the project root; a miss names both', async (t) => {
  const root = project(t, { '.planning/SECURITY.md': '---\nthreats_open: 1\n---\n', '.planning/phases/03-auth/03-SECURITY.md': '---\nthreats_open: 2\n---\n' });
  assert.equal(envelopeOf(await evaluate(root, { equals: 1 })).block, false);
  assert.equal(envelopeOf(await evaluate(root, { equals: 2 }, '.planning/phases/03-auth')).block, false);
  const ledger = envelopeOf(await evaluate(root, { artifact: 'SECURITY.md', equals: 1 }, '.planning/phases/04-none'));
  assert.deepEqual([ledger.block, ledger.details.path], [false, '.planning/SECURITY.md']);
  const missing = envelopeOf(await evaluate(root, { artifact: 'WINDOWS.md', equals: 0 }, '.planning/phases/03-auth'));
  assert.deepEqual(missing, {
    block: true,
    message: `Artifact matching WINDOWS.md not found in ${join(root, '.planning/phases/03-auth')} or ${root}`,
    details: {
      kind: 'artifact-frontmatter-equals',
      artifact: 'WINDOWS.md',
      field: 'threats_open',
      expected: 0,
      path: null,
      searched: [join(root, '.planning/phases/03-auth'), root],
      match: false,
      artifactNotFound: true,
    },
  });
});

test('a phase directory looked up from the number is searched when it is the only match', async (t) => {
  const root = project(t, { '.planning/phases/03-auth/03-SECURITY.md': '---\nthreats_open: 0\n---\n' });
  const one = { phaseNumber: '3', searched: join(root, '.planning/phases'), matches: [join(root, '.planning/phases/03-auth')] };
  const found = envelopeOf(await evaluate(root, { equals: 0 }, undefined, { phaseDirLookup: one }));
  assert.deepEqual([found.block, found.details.path, found.details.phaseDirLookup], [false, '.planning/phases/03-auth/03-SECURITY.md', one]);
  const two = { ...one, matches: [join(root, '.planning/phases/03-auth'), join(root, '.planning/phases/03-other')] };
  const ambiguous = envelopeOf(await evaluate(root, { equals: 0 }, undefined, { phaseDirLookup: two }));
  assert.deepEqual([ambiguous.block, ambiguous.details.searched, ambiguous.details.phaseDirLookup], [true, [root], two]);
});

test('a phase number that finds no phase directory, or several, is named in the message, not only in details', async (t) => {
  const root = project(t, {});
  const none = { phaseNumber: '07', searched: join(root, '.planning/phases'), matches: [] };
  assert.equal(
    envelopeOf(await evaluate(root, { equals: 0 }, undefined, { phaseDirLookup: none })).message,
    `Artifact matching SECURITY.md not found in ${root} (no phase directory of .planning/phases matches --phase-number 07)`,
  );
  const two = {
    phaseNumber: '3',
    searched: join(root, '.planning/phases'),
    matches: [join(root, '.planning/phases/03-auth'), join(root, '.planning/phases/03-other')],
  };
  assert.equal(
    envelopeOf(await evaluate(root, { equals: 0 }, undefined, { phaseDirLookup: two })).message,
    `Artifact matching SECURITY.md not found in ${root} (--phase-number 3 matches 2 phase directories, 03-auth and 03-other: give --phase-dir)`,
  );
});

test('no frontmatter, an unclosed one, or one that is no mapping: a blocking verdict that says which', async (t) => {
  const root = project(t, {
    'NONE.md': '# no frontmatter\nthreats_open: 0\n',
    'OPEN.md': '---\nthreats_open: 0\n',
    'LIST.md': '---\n- threats_open\n---\n',
  });
  const verdict = async (artifact: string) => {
    const envelope = envelopeOf(await evaluate(root, { artifact, equals: 0 }));
    return [envelope.block, envelope.message, envelope.details.frontmatter];
  };
  assert.deepEqual(await verdict('NONE.md'), [
    true,
    'Frontmatter field "threats_open" in NONE.md is missing: the file has no frontmatter (its first line is not ---), expected 0',
    'absent',
  ]);
  assert.deepEqual(await verdict('OPEN.md'), [
    true,
    'Frontmatter field "threats_open" in OPEN.md is missing: its frontmatter, opened by --- on line 1, is never closed by --- or ..., expected 0',
    'unclosed',
  ]);
  assert.deepEqual(await verdict('LIST.md'), [
    true,
    'Frontmatter field "threats_open" in LIST.md is missing: its frontmatter is a list, not a mapping of fields, expected 0',
    'not-a-mapping',
  ]);
});

test('a frontmatter that is there but not YAML is a check failure naming the file and line', async (t) => {
  const root = project(t, { 'BAD.md': '---\nthreats_open: [\n---\n' });
  const bad = await evaluate(root, { artifact: 'BAD.md', equals: 0 });
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.failure.message : '', /^BAD\.md: invalid YAML in the frontmatter at line \d+: /);
});

test('the predicate: artifact is a name, never a path; equals may be null but not missing', () => {
  const issues = (fields: Record<string, unknown>) => {
    const result = validatePredicate({ kind: 'artifact-frontmatter-equals', artifact: 'A.md', field: 'f', equals: 0, ...fields }, KINDS);
    return result.ok ? [] : result.failure.issues.map((i) => `${i.path}: ${i.message}`);
  };
  for (const artifact of ['.', '..', '../SECURITY.md', 'a/b.md', '/etc/passwd', 'a\\b.md', 'a\0b']) {
    assert.deepEqual(issues({ artifact }), ['predicate.artifact: must be a file name, not a path'], artifact);
  }
  assert.deepEqual(issues({ artifact: ' ' }), ['predicate.artifact: must not be empty or only whitespace']);
  assert.deepEqual(issues({ artifact: 3 }), ['predicate.artifact: must be a string (a file name), got 3']);
  assert.deepEqual(issues({ field: '' }), ['predicate.field: must not be empty or only whitespace']);
  assert.deepEqual(issues({ equals: null }), []);
  assert.deepEqual(issues({ equals: { nested: [1] } }), []);
  const result = validatePredicate({ kind: 'artifact-frontmatter-equals', artifact: 'A.md', field: 'f', equal: 0 }, KINDS);
  assert.deepEqual(result.ok ? [] : result.failure.issues.map((i) => `${i.path}: ${i.message}`), [
    'predicate.equal: unknown field; did you mean "equals"?',
    'predicate.equals: is required',
  ]);
});

test('out of descriptors when opening the artifact: a resource-limit failure, and a gate on it halts even with onError skip', async (t) => {
  const root = project(t, { 'SECURITY.md': '---\nthreats_open: 0\n---\n' });
  const kind = frontmatterKind(() => ({ ok: false, failure: 'EMFILE' }));
  const predicate = { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 };
  assert.deepEqual(await kind.evaluate(predicate as never, context(root)), {
    ok: false,
    failure: { reason: 'resource-limit', message: `cannot open ${join(root, 'SECURITY.md')}: EMFILE`, issues: [], at: { file: 'SECURITY.md', line: 1 } },
  });
  const declaration = parseGate(
    { point: 'ship:pre', check: { predicate }, blocking: false, onError: 'skip' },
    'gates[0]',
    new Map([['artifact-frontmatter-equals', kind]]),
  );
  const result = await runPoints([{ point: 'ship:pre', gates: ok([{ capability: 'c', index: 0, declaration }]) }], {
    context: context(root),
    concurrency: 1,
  });
  assert.equal(result.ok, true);
  const envelope = result.ok ? result.value[0]!.envelope : result;
  const gates = envelope.ok ? envelope.value.details.gates : [];
  assert.deepEqual(
    gates.map((g) => [g.status, g.error]),
    [['halt', `cannot open ${join(root, 'SECURITY.md')}: EMFILE`]],
  );
});

test('the frontmatter is looked for within the first 1 MiB: a closing --- past it leaves it unclosed', async (t) => {
  // `---` closing on the last three bytes of the first 1,048,576, or one byte later.
  const file = (extra: number) => `---\n#${'x'.repeat(1_048_576 - 3 - 4 - 2 + extra)}\n---\nbody\n`;
  const at = project(t, { 'SECURITY.md': file(0) });
  assert.deepEqual(await evaluate(at, { equals: 0 }), {
    ok: false,
    failure: { reason: 'invalid-artifact', message: 'SECURITY.md: the frontmatter is larger than 64 KiB', issues: [], at: { file: 'SECURITY.md', line: 1 } },
  });
  const past = project(t, { 'SECURITY.md': file(1) });
  const envelope = envelopeOf(await evaluate(past, { equals: 0 }));
  assert.deepEqual([envelope.block, envelope.details.frontmatter], [true, 'unclosed']);
});

test('a project reached through a symbolic link: the artifact is read where it really lies', async (t) => {
  const real = project(t, { 'SECURITY.md': '---\nthreats_open: 0\n---\n' });
  const link = join(tempDir(t), 'link');
  symlinkSync(real, link);
  assert.deepEqual([envelopeOf(await evaluate(link, { equals: 0 })).message], ['Frontmatter field "threats_open" matches expected value (0)']);
});

// The shipped artefact: on the main thread (under 8 KiB) and in the parsing
// thread (over it), the same answer, and never the process's end.
test('hostile frontmatter: nested collection keys and tags GSD does not know get one bounded answer on both threads', async (t) => {
  let nested = 'a';
  for (let i = 0; i < 30; i++) nested = `{ ? ${nested} }`;
  const padding = `#${'-'.repeat(9000)}\n`;
  const cases: [string, number, string][] = [
    [`threats_open: 0\nx: ${nested}\n`, 0, 'Frontmatter field "threats_open" matches expected value (0)\n'],
    [`threats_open: !!set {a, b}\n`, 2, 'gsd-check: SECURITY.md: invalid YAML in the frontmatter at line 2: unknown tag !<tag:yaml.org,2002:set>\n'],
    [`threats_open: !!omap [{a, b}]\n`, 2, 'gsd-check: SECURITY.md: invalid YAML in the frontmatter at line 2: unknown tag !<tag:yaml.org,2002:omap>\n'],
    [`threats_open: !!merge <<\n`, 2, 'gsd-check: SECURITY.md: invalid YAML in the frontmatter at line 2: unknown tag !<tag:yaml.org,2002:merge>\n'],
  ];
  const predicate = JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: {} });
  const zero = predicate.replace('{}}', '0}');
  for (const [yaml, status, output] of cases) {
    for (const pad of ['', padding]) {
      const root = project(t, { 'SECURITY.md': `---\n${yaml}${pad}---\n` });
      const result = await cli(['check', 'predicate', '--predicate', status === 0 ? zero : predicate, '--raw', '--pick', 'message'], { cwd: root });
      assert.deepEqual(
        [result.status, result.signal, status === 0 ? result.stdout : result.stderr],
        [status, null, output],
        `${yaml.slice(0, 30)} ${pad.length}`,
      );
    }
  }
});
