import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { texts } from '../helpers/deps.ts';
import { loadLayers } from '../../src/gates/config-layers.ts';
import { ok, fail, usage, type Result } from '../../src/failure.ts';
import type { PlanningScope } from '../../src/project/planning-scope.ts';
import { writeTree } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

// The scope as gate-context.ts resolves it; GSD_PROJECT already checked.
const layerDeps = (
  scope: { project?: string; workstream?: string } = {},
  planning: Result<PlanningScope> = ok({ project: scope.project, workstream: scope.workstream }),
) => ({
  planning,
  readInput: texts(async (path: string, label: string) => {
    try {
      return ok(readFileSync(path, 'utf8'));
    } catch {
      return fail('unreadable-file', `cannot read ${label}: no such file`);
    }
  }),
});

test("the project config under .planning, and the workstream's over it; absent ones are empty", async (t) => {
  const root = tempDir(t);
  const none = await loadLayers(undefined, root, layerDeps());
  assert.deepEqual(none, ok({ layers: { root: undefined, workstream: undefined }, warnings: [] }));
  writeTree(root, { '.planning/config.json': '{"workflow":{"a":true}}', '.planning/workstreams/ws/config.json': '{"workflow":{"a":false}}' });
  assert.deepEqual(await loadLayers(undefined, root, layerDeps()), ok({ layers: { root: { workflow: { a: true } }, workstream: undefined }, warnings: [] }));
  assert.deepEqual(
    await loadLayers(undefined, root, layerDeps({ workstream: 'ws' })),
    ok({ layers: { root: { workflow: { a: true } }, workstream: { workflow: { a: false } } }, warnings: [] }),
  );
  writeTree(root, { '.planning/proj/config.json': '{"p":1}' });
  assert.deepEqual(
    await loadLayers(undefined, root, layerDeps({ project: 'proj' })),
    ok({ layers: { root: { workflow: { a: true } }, workstream: { p: 1 } }, warnings: [] }),
  );
  writeFileSync(join(root, '.planning/workstreams/ws/config.json'), '{');
  const broken = await loadLayers(undefined, root, layerDeps({ workstream: 'ws' }));
  assert.deepEqual(
    broken.ok ? 'accepted' : broken.failure.message,
    `config ${join(root, '.planning/workstreams/ws/config.json')} is not valid JSON: unexpected end at line 1, column 2`,
  );
  // A scope that could not be resolved (GSD_PROJECT leading elsewhere) fails the layers with its own failure.
  const bad = await loadLayers(undefined, root, layerDeps({}, usage('GSD_PROJECT must name one directory')));
  assert.deepEqual(bad, usage('GSD_PROJECT must name one directory'));
});

test('--config is read from where the command resolved it, and must exist', async (t) => {
  const root = tempDir(t);
  const base = join(root, 'sub');
  mkdirSync(base);
  writeFileSync(join(base, 'c.json'), '{"x":1}');
  writeFileSync(join(root, 'c.json'), '{"x":2}');
  assert.deepEqual(
    await loadLayers({ path: join(base, 'c.json'), shown: 'c.json' }, root, layerDeps()),
    ok({ layers: { root: { x: 1 }, workstream: undefined }, warnings: [] }),
  );
  const missing = await loadLayers({ path: join(base, 'none.json'), shown: 'none.json' }, root, layerDeps());
  assert.deepEqual(missing.ok ? 'accepted' : missing.failure.message, 'cannot read --config none.json: no such file');
});

test('a config that is not a JSON object fails; flat dotted keys are named in one warning', async (t) => {
  const root = tempDir(t);
  for (const [text, message] of [
    ['[]', '--config c.json is not a JSON object'],
    ['"x"', '--config c.json is not a JSON object'],
    ['null', '--config c.json is not a JSON object'],
    ['{', '--config c.json is not valid JSON: unexpected end at line 1, column 2'],
  ]) {
    writeFileSync(join(root, 'c.json'), text!);
    const result = await loadLayers({ path: join(root, 'c.json'), shown: 'c.json' }, root, layerDeps());
    assert.deepEqual(result.ok ? 'accepted' : [result.failure.reason, result.failure.message], ['invalid-json', message], text);
  }
  writeTree(root, { '.planning/config.json': '[1]' });
  const fallback = await loadLayers(undefined, root, layerDeps());
  assert.deepEqual(fallback.ok ? 'accepted' : fallback.failure.message, `config ${join(root, '.planning/config.json')} is not a JSON object`);
  const flat = Object.fromEntries(['a.1', 'a.2', 'a.3', 'a.4', 'a.5', 'a.6', 'a.7', 'ok'].map((k) => [k, true]));
  writeFileSync(join(root, 'c.json'), JSON.stringify(flat));
  const warned = await loadLayers({ path: join(root, 'c.json'), shown: 'c.json' }, root, layerDeps());
  assert.deepEqual(warned.ok && warned.value.warnings, [
    '--config c.json has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): a.1, a.2, a.3, a.4, a.5 and 2 more',
  ]);
  writeFileSync(join(root, 'c.json'), JSON.stringify({ 'a.1': 1, 'b.2': 2, 'c.3': 3, 'd.4': 4, 'e.5': 5, 'f.6': 6 }));
  const six = await loadLayers({ path: join(root, 'c.json'), shown: 'c.json' }, root, layerDeps());
  assert.deepEqual(six.ok && six.value.warnings, [
    '--config c.json has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): a.1, b.2, c.3, d.4, e.5 and 1 more',
  ]);
  writeFileSync(join(root, 'c.json'), JSON.stringify({ 'a.1': 1, 'b.2': 2, 'c.3': 3, 'd.4': 4, 'e.5': 5 }));
  const five = await loadLayers({ path: join(root, 'c.json'), shown: 'c.json' }, root, layerDeps());
  assert.deepEqual(five.ok && five.value.warnings, [
    '--config c.json has flat dotted keys, which GSD ignores and so does gsd-check (nest them: {"workflow": {"x": …}}): a.1, b.2, c.3, d.4, e.5',
  ]);
});
