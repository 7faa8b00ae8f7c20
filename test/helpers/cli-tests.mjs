// The CLI tests: the test files that run the artefact under test
// (dist/gsd-check, or the build GSD_CHECK_BIN names) as a process, through
// cli(), unprivileged() or BIN of test/helpers/support.ts. CI runs them again
// on the other Node lines and from a checkout only root may enter (.ci/run),
// and against the standalone binary (test/against-binary.mjs);
// test/helpers/cli-tests.test.ts fails when a file spawns the artefact and is
// not named here, or is named and does not, and when a file writes the
// artefact's path by hand instead of using DIST or BIN. Plain JavaScript: the
// shell and the .mjs scripts read it without a build.
//   node test/helpers/cli-tests.mjs   prints their bundles, one a line
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const CLI_TESTS = [
  'test/launch.test.ts',
  'test/main.test.ts',
  'test/main.check-predicate.test.ts',
  'test/main.consent.test.ts',
  'test/main.faults.test.ts',
  'test/main.gates-run.test.ts',
  'test/main.inputs.test.ts',
  'test/main.line.test.ts',
  'test/main.loop.test.ts',
  'test/main.property.test.ts',
  'test/main.points.test.ts',
  'test/main.reports.test.ts',
  'test/main.signals.test.ts',
  'test/main.validate.test.ts',
  'test/artifact/find-artifact.test.ts',
  'test/artifact/off-thread.test.ts',
  'test/cli/help.test.ts',
  'test/docs/ci-files.test.ts',
  'test/docs/examples.test.ts',
  'test/kinds/artifact-frontmatter-equals.test.ts',
  'test/run/child-binding.test.ts',
];

// Where build.mjs --tests bundles a test file.
export const bundleOf = (file) => file.replace(/^test\//, '.test-out/').replace(/\.ts$/, '.mjs');

export const CLI_BUNDLES = CLI_TESTS.map(bundleOf);

// Run as a script; not when bundled into a test, whose own file is then the
// one run (.test-out/helpers/cli-tests.test.mjs).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href && import.meta.url.endsWith('/cli-tests.mjs')) {
  process.stdout.write(`${CLI_BUNDLES.join('\n')}\n`);
}
