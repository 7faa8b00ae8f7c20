// The docs' examples that call GSD (marked `<!-- doc-test: gsd -->`), run
// against the pinned GSD 1.14: `gsd_run` and `gsd-tools` on PATH are it,
// linked as npm links a global install's bins, under the pinned Node 24, and `gsd-check` is the artefact. Each page runs
// whole, in order, in one shell (test/docs/doc-examples.mjs has the format);
// a doc whose output drifts from what the two tools print fails here.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { binDir, docFiles, docText, parseDoc, runDoc } from '../../test/docs/doc-examples.mjs';
import { GSD_CHECK, GSD_TOOLS, NODE, REPO } from '../harness.mjs';

for (const file of docFiles(REPO)) {
  const steps = parseDoc(docText(REPO, file));
  if (!steps.some((s) => s.setup === undefined && s.mode === 'gsd')) continue;
  test(`${file}: its examples print what it shows, with GSD 1.14`, async (t) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-doc-')));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const bin = binDir(dir, GSD_CHECK, { node: `exec "${NODE}" "$@"` });
    symlinkSync(GSD_TOOLS, join(bin, 'gsd-tools'));
    symlinkSync(join(dirname(GSD_TOOLS), 'gsd_run'), join(bin, 'gsd_run'));
    const { expected, actual } = await runDoc(steps, { bin, modes: ['run', 'gsd'] });
    assert.equal(actual, expected);
  });
}
