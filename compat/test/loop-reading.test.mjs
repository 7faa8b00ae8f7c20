// compat/cases/loop.mjs: a phase's files as GSD 1.14 reads them and as
// --reached and --ship's preflight read them, case by case.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { LOOP_CASES } from '../cases/loop.mjs';
import { environment, NODE, writeTree } from '../harness.mjs';
import { checkReads, gsdReads } from '../loop-reading.mjs';

for (const c of LOOP_CASES) {
  test(`${c.name}${c.differs === undefined ? '' : ` (${c.differs})`}`, { timeout: 60_000 }, async (t) => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-reading-')));
    t.after(() => rmSync(base, { recursive: true, force: true }));
    const root = join(base, 'project');
    mkdirSync(join(base, 'home'));
    writeTree(root, { '.planning/STATE.md': '# Project State\n', 'cap.json': '{"id":"c","gates":[]}\n' });
    writeTree(join(root, '.planning/phases'), c.files);
    if (c.later !== undefined) {
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(root, '.planning/phases', c.later), later, later);
    }
    const env = environment(join(base, 'home'), {});
    assert.equal(await gsdReads(root, env, c.phase), c.gsd, 'GSD 1.14');
    assert.equal(await checkReads(root, env, c.phase), c.check ?? c.gsd, 'gsd-check');
    // With GSD at hand, its own reading, a difference of gsd-check's own reading included.
    assert.equal(await checkReads(root, { ...env, PATH: `${dirname(NODE)}:${env.PATH}` }, c.phase, true), c.gsd, 'gsd-check --render');
  });
}
