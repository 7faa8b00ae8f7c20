// The docs' CI files that need GSD (`<!-- ci-file: <tool>-gsd … -->`), run
// as the page shows them (test/docs/ci-run.mjs) with the pinned GSD 1.14,
// gsd-check the artefact. A CI job gets GSD from the project's lockfile:
// the only `npm` on its PATH answers `npm ci` by putting the pinned GSD's
// `gsd-tools` and `gsd_run` in the project's node_modules/.bin, linked to
// its gsd-tools.cjs as npm links a package's bins, and refuses anything
// else; the job names that GSD itself (--gsd node_modules/.bin/gsd-tools). A hook runs on a developer's machine, where GSD is
// on PATH already.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ciBlocks } from '../../test/docs/ci-files.mjs';
import { runCiFile } from '../../test/docs/ci-run.mjs';
import { missingTool } from '../../test/docs/ci-tools.mjs';
import { binDir, docFiles, docText } from '../../test/docs/doc-examples.mjs';
import { GSD_CHECK, GSD_TOOLS, NODE, REPO } from '../harness.mjs';

const gsd = `exec "${NODE}" "${GSD_TOOLS}" "$@"`;
const q = (text) => `'${text.replaceAll("'", "'\\''")}'`;
const npm = [
  'case "$*" in',
  '  "ci --omit=optional"|"ci --omit=optional --cache .npm --prefer-offline")',
  '    mkdir -p node_modules/.bin',
  `    ln -s ${q(GSD_TOOLS)} node_modules/.bin/gsd-tools`,
  `    ln -s ${q(GSD_TOOLS)} node_modules/.bin/gsd_run`,
  '    echo "added 1 package" ;;',
  '  *) echo "npm $*: not a command these runs answer" >&2; exit 1 ;;',
  'esac',
].join('\n');
const CI_JOBS = new Set(['github-gsd', 'gitlab-gsd']);
// CI runs these with every tool installed (.ci/run): a missing one fails.
const REQUIRED = process.env.GSD_CHECK_CI_TOOLS === '1';

for (const file of docFiles(REPO)) {
  const text = docText(REPO, file);
  const { files, runs } = ciBlocks(text);
  for (const run of runs) {
    const { kind } = run.file;
    if (!kind.endsWith('-gsd')) continue;
    const missing = missingTool(kind);
    test(`${file}: ${run.path} runs as line ${run.line} shows, with GSD 1.14`, {
      timeout: 180_000,
      skip: missing !== undefined && !REQUIRED ? missing : false,
    }, async (t) => {
      assert.equal(missing, undefined, missing);
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-ci-')));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const bin = binDir(dir, GSD_CHECK, CI_JOBS.has(kind) ? { npm } : { 'gsd-tools': gsd, gsd_run: gsd });
      symlinkSync(NODE, join(bin, 'node'));
      assert.equal(await runCiFile({ text, files }, run, { root: REPO, bin }), run.expected.replace(/\n$/, ''));
    });
  }
}
