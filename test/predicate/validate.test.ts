import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { KINDS } from '../../src/kinds/table.ts';
import { MAX_DEPTH } from '../../src/json/parse.ts';
import { validatePredicate } from '../../src/predicate/validate.ts';

const check = (input: unknown) => validatePredicate(input, KINDS);

function issuesOf(input: unknown): string[] {
  const result = check(input);
  assert.equal(result.ok, false, `expected ${JSON.stringify(input)} to be rejected`);
  if (result.ok) return [];
  return result.failure.issues.map((i) => `${i.path}: ${i.message}`);
}

test('a valid predicate gets its defaults', () => {
  const result = check({ kind: 'command-exit-zero', command: 'true' });
  assert.ok(result.ok);
  assert.deepEqual(result.value.predicate, { kind: 'command-exit-zero', command: 'true', timeout: 30 });
  assert.equal(result.value.kind, KINDS.get('command-exit-zero'));
});

test('the predicate must be a JSON object', () => {
  for (const input of [null, [], 'x', 3, true]) {
    const result = check(input);
    assert.ok(!result.ok);
    assert.equal(result.failure.reason, 'invalid-predicate');
    assert.match(result.failure.issues[0]!.message, /^must be a JSON object, got /);
  }
});

test('kind is required and must be a string', () => {
  assert.deepEqual(issuesOf({ command: 'true' }), ['predicate.kind: is required (one of: command-exit-zero, artifact-frontmatter-equals)']);
  assert.deepEqual(issuesOf({ kind: 7 }), ['predicate.kind: must be a string (one of: command-exit-zero, artifact-frontmatter-equals), got 7']);
});

test('inherited and prototype names are unknown kinds, and the known ones are listed', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '']) {
    const result = check(JSON.parse(`{"kind": ${JSON.stringify(name)}, "command": "true"}`));
    assert.ok(!result.ok, name);
    assert.equal(result.failure.reason, 'unknown-kind');
    assert.equal(result.failure.message, `unknown predicate kind ${JSON.stringify(name)}; known kinds: command-exit-zero, artifact-frontmatter-equals`);
  }
});

test('a misspelled kind gets a suggestion', () => {
  const result = check({ kind: 'command-exit-0' });
  assert.ok(!result.ok);
  assert.equal(
    result.failure.message,
    'unknown predicate kind "command-exit-0" (did you mean "command-exit-zero"?); known kinds: command-exit-zero, artifact-frontmatter-equals',
  );
});

test('unknown fields are rejected with the closest known field, all of them', () => {
  assert.deepEqual(issuesOf({ kind: 'command-exit-zero', command: 'true', timeOut: 5, cmd: 'x', zzz: 1 }), [
    'predicate.timeOut: unknown field; did you mean "timeout"?',
    'predicate.cmd: unknown field (known fields: kind, command, timeout)',
    'predicate.zzz: unknown field (known fields: kind, command, timeout)',
  ]);
});

test('a "__proto__" or "constructor" field is an unknown field, not a prototype', () => {
  const input = JSON.parse('{"kind":"command-exit-zero","command":"true","__proto__":{"timeout":1},"constructor":1}');
  assert.deepEqual(issuesOf(input), [
    'predicate.__proto__: unknown field (known fields: kind, command, timeout)',
    'predicate.constructor: unknown field (known fields: kind, command, timeout)',
  ]);
});

test('command must be a non-blank string of at most 4096 characters', () => {
  const cases: [unknown, string][] = [
    [undefined, 'predicate.command: is required'],
    [42, 'predicate.command: must be a string, got 42'],
    [null, 'predicate.command: must be a string, got null'],
    ['', 'predicate.command: must not be empty'],
    [' \t\n', 'predicate.command: must not be only whitespace'],
    ['true\0; rm -rf x', 'predicate.command: must not contain a NUL character'],
    ['x'.repeat(4097), 'predicate.command: must be at most 4096 characters, got 4097'],
  ];
  for (const [command, issue] of cases) {
    const input = command === undefined ? { kind: 'command-exit-zero' } : { kind: 'command-exit-zero', command };
    assert.deepEqual(issuesOf(input), [issue]);
  }
  assert.ok(check({ kind: 'command-exit-zero', command: 'x'.repeat(4096) }).ok);
});

test('timeout must be a positive finite number of seconds', () => {
  const rejected: [string, string][] = [
    ['1e999', 'Infinity'],
    ['-1e999', '-Infinity'],
    ['0', '0'],
    ['-0', '-0'],
    ['-1', '-1'],
    ['"5"', '"5"'],
    ['null', 'null'],
    ['true', 'true'],
    ['[]', '[]'],
  ];
  for (const [json, shown] of rejected) {
    const input = JSON.parse(`{"kind":"command-exit-zero","command":"true","timeout":${json}}`);
    assert.deepEqual(issuesOf(input), [`predicate.timeout: must be a positive finite number of seconds, got ${shown}`], json);
  }
  for (const timeout of [0.0001, 1e-320, 0.5, 30, 1e308]) {
    const result = check({ kind: 'command-exit-zero', command: 'true', timeout });
    assert.ok(result.ok, String(timeout));
    assert.equal(result.value.predicate.timeout, timeout);
  }
});

test('all issues of one predicate are reported together', () => {
  assert.deepEqual(issuesOf({ kind: 'command-exit-zero', command: '', timeout: 0, timeOut: 1 }), [
    'predicate.timeOut: unknown field; did you mean "timeout"?',
    'predicate.command: must not be empty',
    'predicate.timeout: must be a positive finite number of seconds, got 0',
  ]);
});

test('paths start at the root the caller names', () => {
  const result = validatePredicate({ kind: 'command-exit-zero', command: 1 }, KINDS, 'gates[1].check.predicate');
  assert.ok(!result.ok);
  assert.equal(result.failure.issues[0]!.path, 'gates[1].check.predicate.command');
});

test('a field nested deeper than MAX_DEPTH is an issue, found without recursion', () => {
  const nest = (depth: number): unknown => {
    let value: unknown = 0;
    for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
    return value;
  };
  const artifact = { kind: 'artifact-frontmatter-equals', artifact: 'S.md', field: 'f' };
  assert.equal(check({ ...artifact, equals: nest(MAX_DEPTH) }).ok, true);
  for (const depth of [MAX_DEPTH + 1, 100_000]) {
    const result = check({ ...artifact, equals: nest(depth) });
    assert.deepEqual(!result.ok && result.failure.issues, [{ path: 'predicate.equals', message: `nests deeper than ${MAX_DEPTH} levels` }]);
  }
  // Unknown fields are searched too, and every issue is still reported.
  assert.deepEqual(issuesOf({ kind: 'command-exit-zero', command: '', extra: nest(100) }), [
    'predicate.extra: unknown field (known fields: kind, command, timeout)',
    `predicate.extra: nests deeper than ${MAX_DEPTH} levels`,
    'predicate.command: must not be empty',
  ]);
});
