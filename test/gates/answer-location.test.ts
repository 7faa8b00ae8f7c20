// Where GSD 1.14's answers to its query gates say the trouble is, each read
// as GSD's code writes it (the answers here are the real GSD's, taken from
// `gsd-tools check <query> 01 --raw` on a project that blocks each), and
// never a file outside the project.
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { ok } from '../../src/failure.ts';
import { answerLocation } from '../../src/gates/answer-location.ts';
import type { GateContext } from '../../src/predicate/kind.ts';
import { lookUpPhaseDir } from '../../src/project/phase.ts';
import { gsdPaths } from '../../src/project/shown-path.ts';
import { project } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

const PHASE = '.planning/phases/01-dashboard';
const SCOPE = { project: undefined, workstream: undefined };

const context = (root: string, phase: Partial<GateContext> = { phaseDir: join(root, PHASE) }): GateContext => ({
  projectRoot: root,
  paths: gsdPaths(root),
  env: {},
  planning: ok(SCOPE),
  killAfterMs: 1000,
  run: async () => assert.fail('nothing runs'),
  ...phase,
});

const ROADMAP = '# Roadmap\n\n## Phases\n\n### Phase 1: Dashboard\r\n\n**Goal:** Build the dashboard page with charts\n';

test("each query's file, from the directory its answer names it in: the phase's, the project's, the planning directory's", (t) => {
  const root = project(t, {
    [`${PHASE}/COVERAGE.md`]: '| Capability |\n',
    [`${PHASE}/01-RESEARCH.md`]: '# research\n',
    [`${PHASE}/01-VALIDATION.md`]: '# validation\n',
    'prisma/schema.prisma': 'model A {}\n',
    '.planning/ROADMAP.md': ROADMAP,
  });
  const at = (query: string, answer: Record<string, unknown>, phase?: Partial<GateContext>) =>
    answerLocation(query, { block: true, ...answer }, context(root, phase));
  assert.deepEqual(at('api-coverage.verify-pre', { matrix: 'COVERAGE.md', errors: ['row[0]: empty capability name'] }), {
    file: `${PHASE}/COVERAGE.md`,
    line: 1,
  });
  assert.deepEqual(at('verify.schema-drift', { schema_files: ['prisma/schema.prisma'] }), { file: 'prisma/schema.prisma', line: 1 });
  // The first of the files it names that the project has.
  assert.deepEqual(at('verify.context-drift', { stale_artifacts: ['01-PATTERNS.md', '01-RESEARCH.md', '01-VALIDATION.md'] }), {
    file: `${PHASE}/01-RESEARCH.md`,
    line: 1,
  });
  // The line whose text the answer gives, CR and all as GSD reads it.
  assert.deepEqual(at('ui.plan-gate', { matchedToken: 'dashboard', matchedLine: '### Phase 1: Dashboard', uiSpecPath: null }), {
    file: '.planning/ROADMAP.md',
    line: 5,
  });
  assert.deepEqual(at('ui-plan-gate', { matchedLine: '**Goal:** Build the dashboard page with charts' }), { file: '.planning/ROADMAP.md', line: 7 });
  // The phase directory the phase number found, when none was given.
  assert.deepEqual(at('api-coverage.verify-pre', { matrix: 'COVERAGE.md' }, { phaseDirLookup: lookUpPhaseDir(root, '1', SCOPE) }), {
    file: `${PHASE}/COVERAGE.md`,
    line: 1,
  });
});

test('no location where the answer names no file, the file is not there, or no phase directory is settled; the first line where its line is not one line of the file', (t) => {
  const root = project(t, {
    [`${PHASE}/COVERAGE.md`]: '| Capability |\n',
    '.planning/phases/01-notes/COVERAGE.md': '',
    '.planning/ROADMAP.md': `${ROADMAP}\n### Phase 1: Dashboard\n`,
  });
  const at = (query: string, answer: Record<string, unknown>, phase?: Partial<GateContext>) =>
    answerLocation(query, { block: true, ...answer }, context(root, phase));
  assert.equal(at('ui.safety-gate', { frontend: true, hasUiFiles: true, message: 'UI files changed' }), undefined);
  assert.equal(at('tdd.review-checkpoint', { rows: [{ planId: '01-01' }] }), undefined);
  assert.equal(at('verify.codebase-drift', { elements: [{ category: 'new_dir', path: 'lib1/a.js' }], affected_paths: ['lib1'] }), undefined);
  assert.equal(at('api-coverage.verify-pre', { message: 'api-coverage: could not resolve phase "01"' }), undefined);
  assert.equal(at('verify.schema-drift', { schema_files: ['prisma/schema.prisma'] }), undefined);
  assert.equal(at('verify.context-drift', { stale_artifacts: [7, null] }), undefined);
  assert.equal(at('ui.plan-gate', { matchedLine: null }), undefined);
  assert.equal(at('api-coverage.verify-pre', { matrix: 'COVERAGE.md' }, { phaseDirLookup: lookUpPhaseDir(root, '1', SCOPE) }), undefined);
  assert.deepEqual(at('ui.plan-gate', { matchedLine: '### Phase 1: Dashboard' }), { file: '.planning/ROADMAP.md', line: 1 });
  assert.deepEqual(at('ui.plan-gate', { matchedLine: '### Phase 9: Nowhere' }), { file: '.planning/ROADMAP.md', line: 1 });
  // A directory is no file.
  assert.equal(at('verify.schema-drift', { schema_files: ['.planning'] }), undefined);
});

test('never a file outside the project: not by .., an absolute path, or a link that leads out', (t) => {
  const outside = tempDir(t);
  const secret = join(outside, 'schema.prisma');
  writeFileSync(secret, 'model A {}\n');
  const root = project(t, { [`${PHASE}/01-RESEARCH.md`]: '# research\n', 'inside.prisma': '', prisma: null });
  symlinkSync(secret, join(root, 'prisma', 'schema.prisma'));
  symlinkSync(outside, join(root, 'out'));
  symlinkSync(join(root, 'inside.prisma'), join(root, 'linked.prisma'));
  const at = (query: string, answer: Record<string, unknown>) => answerLocation(query, { block: true, ...answer }, context(root));
  for (const file of [secret, `../${basename(outside)}/schema.prisma`, 'prisma/schema.prisma', 'out/schema.prisma'])
    assert.equal(at('verify.schema-drift', { schema_files: [file] }), undefined, file);
  assert.equal(at('verify.context-drift', { stale_artifacts: [`../../../../${basename(outside)}/schema.prisma`] }), undefined);
  // A link inside the project to a file inside it is that file.
  assert.deepEqual(at('verify.schema-drift', { schema_files: [secret, 'linked.prisma'] }), { file: 'inside.prisma', line: 1 });
});
