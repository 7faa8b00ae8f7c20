// The generative differential in CI: every example shows the difference its
// classifier names, and a fixed seed's cases differ only in documented ways.
// `npm run fuzz:compat -- --runs N --seed S` runs it long.
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLASSIFIERS, classify } from '../generative/classify.mjs';
import { explore, report } from '../generative/differential.mjs';
import { EXAMPLES } from '../generative/examples.mjs';
import { differs, runCase } from '../generative/run-case.mjs';
import { REPO, documentedDifferences } from '../harness.mjs';

// Fixed, so that CI is repeatable; bounded, so that it takes a few minutes.
export const CI_SEED = 20261130;
export const CI_RUNS = 300;

// One pin of fast-check: the root's (its lockfile), which the unit tests use
// too; compat/'s own lockfile holds only what the root's does not.
test('fast-check comes from the root install, pinned once', () => {
  const compat = JSON.parse(readFileSync(join(REPO, 'compat', 'package.json'), 'utf8'));
  assert.equal({ ...compat.dependencies, ...compat.devDependencies }['fast-check'], undefined);
  const resolved = realpathSync(createRequire(import.meta.url).resolve('fast-check'));
  assert.ok(resolved.startsWith(`${realpathSync(join(REPO, 'node_modules', 'fast-check'))}/`), resolved);
});

test('every classifier names a documented difference and has an example', () => {
  const documented = documentedDifferences();
  assert.deepEqual(
    CLASSIFIERS.filter((k) => !documented.has(k.id)).map((k) => `${k.id}: ${k.name}`),
    [],
  );
  const exemplified = new Set(EXAMPLES.map((e) => e.id));
  assert.deepEqual(
    CLASSIFIERS.filter((k) => !exemplified.has(k.id)).map((k) => `${k.id}: ${k.name}`),
    [],
  );
});

for (const example of EXAMPLES) {
  test(`${example.name} [${example.id}]`, async () => {
    const { gsd, check } = await runCase(example.case);
    const context = `\n  gsd-tools: exit ${gsd.status}, ${JSON.stringify((gsd.stderr || gsd.stdout).slice(0, 300))}\n  gsd-check: exit ${check.status}, ${JSON.stringify((check.stderr || check.stdout).slice(0, 300))}`;
    assert.ok(differs(example.case, gsd, check), `the tools agree (${gsd.verdict})${context}`);
    assert.equal(classify(example.case, gsd, check)?.id, example.id, `classified as ${classify(example.case, gsd, check)?.name}${context}`);
  });
}

test(`seed ${CI_SEED}: ${CI_RUNS} generated cases, every difference classified`, async () => {
  const result = await explore({ runs: CI_RUNS, seed: CI_SEED, concurrency: 2 });
  const text = report(result);
  console.log(text);
  assert.deepEqual(result.unclassified, [], text);
});
