// The docs' CI workflows that install GSD (`<!-- ci-file: github-gsd … -->`),
// run as the page shows (test/docs/github-runner.mjs) with the pinned GSD
// 1.14 as what the job's install step puts on PATH: gsd-tools and gsd_run
// under the pinned Node 24, and gsd-check the artefact.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ciBlocks } from '../../test/docs/ci-files.mjs';
import { runCiFile } from '../../test/docs/ci-run.mjs';
import { binDir, docFiles, docText } from '../../test/docs/doc-examples.mjs';
import { GSD_CHECK, GSD_TOOLS, NODE, REPO } from '../harness.mjs';

// The one step the test answers itself: the job's install of GSD, exactly
// as the docs write it.
const INSTALL = 'npm install --global --omit=optional @opengsd/gsd-core@1.14.0';
const substitute = (step) => (typeof step.run === 'string' && step.run.trim() === INSTALL ? '' : undefined);
const gsd = `exec "${NODE}" "${GSD_TOOLS}" "$@"`;

for (const file of docFiles(REPO)) {
  const text = docText(REPO, file);
  const { files, runs } = ciBlocks(text);
  for (const run of runs) {
    if (files.find((f) => f.path === run.path).kind !== 'github-gsd') continue;
    test(`${file}: ${run.path} runs as line ${run.line} shows, with GSD 1.14`, { timeout: 180_000 }, async (t) => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-ci-')));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const bin = binDir(dir, GSD_CHECK, { 'gsd-tools': gsd, gsd_run: gsd });
      symlinkSync(NODE, join(bin, 'node'));
      assert.equal(await runCiFile({ text, files }, run, { root: REPO, bin, substitute }), run.expected.replace(/\n$/, ''));
    });
  }
}

test('a workflow step the test does not answer is run, not passed: the install line must be the docs\' exactly', () => {
  assert.equal(substitute({ run: `${INSTALL}\n` }), '');
  assert.equal(substitute({ run: 'npm install --global @opengsd/gsd-core' }), undefined);
});
