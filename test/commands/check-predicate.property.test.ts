// Any input yields a valid envelope or a clean exit 2, and only a valid
// predicate ever reaches the runner. The runner is a fake: random commands
// are never run.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from '../helpers/bounded.ts';
import fc from 'fast-check';
import type { CheckOptions } from '../../src/cli/command-line.ts';
import { checkPredicate } from '../../src/commands/check-predicate.ts';
import type { CliDeps } from '../../src/commands/deps.ts';
import { testDeps } from '../helpers/deps.ts';
import type { Reply } from '../../src/commands/reply.ts';
import { findDuplicateKey } from '../../src/json/parse.ts';
import { runResult } from '../helpers/fake-runner.ts';

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300);
const EMPTY = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-check-fuzz-')));
after(() => rmSync(EMPTY, { recursive: true, force: true }));

function deps(onRun: () => void): CliDeps {
  // An empty directory: artifact predicates find nothing and block.
  return testDeps(EMPTY, {
    run: async () => {
      onRun();
      return runResult({ exitCode: 1, output: { text: '\x1b[31m\ud800 tail \0', stdoutBytes: 9, stderrBytes: 0, truncated: false } });
    },
  });
}

// An independent statement of what a valid predicate is.
function isValid(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  if (fields.kind === 'artifact-frontmatter-equals') {
    if (!Object.keys(fields).every((key) => ['kind', 'artifact', 'field', 'equals'].includes(key))) return false;
    const { artifact, field } = fields;
    if (typeof artifact !== 'string' || artifact.trim() === '' || artifact === '.' || artifact === '..') return false;
    if (/[/\\\0]/.test(artifact)) return false;
    return typeof field === 'string' && field.trim() !== '' && Object.hasOwn(fields, 'equals');
  }
  if (!Object.keys(fields).every((key) => ['kind', 'command', 'timeout'].includes(key))) return false;
  if (fields.kind !== 'command-exit-zero') return false;
  const { command, timeout } = fields;
  if (typeof command !== 'string' || command.trim() === '' || command.length > 4096 || command.includes('\0')) return false;
  if (!Object.hasOwn(fields, 'timeout')) return true;
  return typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0;
}

function assertClean(outcome: Reply, ran: boolean, valid: boolean, json: string): void {
  const label = `for ${json.slice(0, 300)}`;
  if (outcome.exitCode === 0) {
    assert.ok(valid, `an invalid predicate passed validation ${label}`);
    assert.equal(outcome.stderr, '');
    const envelope = JSON.parse(outcome.stdout);
    assert.equal(typeof envelope.block, 'boolean');
    assert.equal(typeof envelope.message, 'string');
    // Only command-exit-zero runs a command.
    assert.equal(ran, envelope.details.kind === 'command-exit-zero');
  } else {
    assert.equal(outcome.exitCode, 2, label);
    assert.ok(!valid, `a valid predicate was refused ${label}: ${outcome.stderr}`);
    assert.equal(ran, false);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^gsd-check: [^\n]+\n/);
    assert.doesNotMatch(outcome.stderr, /\n\s+at /, 'no stack trace');
  }
}

async function evaluate(json: string): Promise<void> {
  let ran = false;
  const options: CheckOptions = { predicate: json, killAfter: 1, currentPhase: false, raw: true, exitCode: false, jsonErrors: false };
  const outcome = await checkPredicate(
    options,
    deps(() => (ran = true)),
  );
  let parsed: unknown;
  let parses = true;
  try {
    parsed = JSON.parse(json);
  } catch {
    parses = false;
  }
  // A duplicate key is refused (the text, not the parsed value, shows it).
  assertClean(outcome, ran, parses && isValid(parsed) && findDuplicateKey(json) === undefined, json);
}

const KEYS = ['kind', 'command', 'timeout', 'timeOut', 'artifact', 'field', 'equals', '__proto__', 'constructor', 'toString', 'prototype', ''];
const EDGE_NUMBERS = ['-0', '0', '1e-320', '1e308', '1e999', '-1e999', '9007199254740993', '0.0001', '30', '-1', '5e-324'];
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\t\n', 'true', 'command-exit-zero', 'constructor', '__proto__', '\0', '\ud800', 'x'.repeat(4097), '..', 'a/b', 'SECURITY.md'),
);
const scalarJson = fc.oneof(
  text.map((s) => JSON.stringify(s)),
  fc.constantFrom(...EDGE_NUMBERS, 'null', 'true', 'false', '[]', '{}', '"5"'),
  fc.double().filter(Number.isFinite).map(String),
);
// A predicate as JSON text, so that duplicate keys, "__proto__" keys and
// numbers JavaScript cannot hold reach the parser as a user would write them.
const nearValid = fc
  .tuple(
    fc.constantFrom('"command-exit-zero"', '"command-exit-zero"', '"artifact-frontmatter-equals"', '"Command-Exit-Zero"', '"hasOwnProperty"', '7'),
    fc.array(fc.tuple(fc.constantFrom(...KEYS), scalarJson), { maxLength: 5 }),
  )
  .map(([kind, fields]) => `{"kind":${kind}${fields.map(([k, v]) => `,${JSON.stringify(k)}:${v}`).join('')}}`);
const nested = fc.integer({ min: 1, max: 5000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);

test('any JSON value: a valid envelope or a clean exit 2', async () => {
  await fc.assert(
    fc.asyncProperty(fc.jsonValue(), (value) => evaluate(JSON.stringify(value))),
    { numRuns: RUNS },
  );
});

test('near-valid predicates: only valid ones run', async () => {
  await fc.assert(fc.asyncProperty(nearValid, evaluate), { numRuns: RUNS * 3 });
});

test('arbitrary text and deep nesting: never a crash', async () => {
  await fc.assert(fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary' }), nested), evaluate), { numRuns: RUNS });
});

test('known edge cases', async () => {
  const cases = [
    '{"kind":"command-exit-zero","command":"true","__proto__":{"timeout":1}}',
    '{"__proto__":{"kind":"command-exit-zero","command":"true"}}',
    '{"kind":"command-exit-zero","command":"\\ud800"}',
    '{"kind":"command-exit-zero","command":"\\u0000"}',
    '{"kind":"command-exit-zero","command":"true","timeout":-0}',
    '{"kind":"command-exit-zero","command":"true","timeout":1e-320}',
    `${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}`,
  ];
  for (const json of cases) await evaluate(json);
});

test('a key given twice is refused even where the last value alone would be valid', async () => {
  // JSON.parse keeps the last value: each of these would parse as a valid
  // predicate, so only the duplicate-key check refuses them.
  const cases: [string, string][] = [
    ['{"kind":"command-exit-zero","command":"rm -rf x","command":"true"}', 'predicate.command'],
    ['{"kind":"command-exit-zero","command":"","command":"true"}', 'predicate.command'],
    ['{"kind":"command-exit-zero","command":"true","timeout":0,"timeout":1}', 'predicate.timeout'],
    ['{"kind":"artifact-frontmatter-equals","kind":"command-exit-zero","command":"true"}', 'predicate.kind'],
  ];
  for (const [json, at] of cases) {
    let ran = false;
    const options: CheckOptions = { predicate: json, killAfter: 1, currentPhase: false, raw: true, exitCode: false, jsonErrors: false };
    const outcome = await checkPredicate(
      options,
      deps(() => (ran = true)),
    );
    const key = at.slice(at.indexOf('.') + 1);
    assert.deepEqual(
      [outcome.exitCode, outcome.stdout, outcome.stderr, ran],
      [2, '', `gsd-check: --predicate gives the key "${key}" twice (at ${at}): which one counts is ambiguous\n`, false],
      json,
    );
  }
});
