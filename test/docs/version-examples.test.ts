// The --version lines the docs show. They cannot run as the other examples
// do (the source id changes with every change of src/, and npm test builds
// no binary), so each is held to the form a build prints, for this
// version: a release's line, or that of a build between releases after it,
// a binary's naming the Node runtimes/ pins.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { ROOT } from '../helpers/support.ts';
import { docFiles, docText, parseDoc } from './doc-examples.mjs';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NODE = (JSON.parse(readFileSync(join(ROOT, 'runtimes', 'linux-x64', 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> })
  .packages['node_modules/node24']!.version;
const nextPatch = (release: string) => {
  const [major, minor, patch] = release.split('.').map(Number) as [number, number, number];
  return `${major}.${minor}.${patch + 1}-dev`;
};
const LINE = /^gsd-check (\S+) \(source [0-9a-f]{12}(?:; unreleased, after (\S+))?(?:; standalone build: Node v(\S+) linux-(?:x64|arm64))?\)$/;
const ASKS = /(?:^|\/)gsd-check(-linux-(?:x64|arm64))? (?:--version|-V)$/;

test("the docs' --version examples are lines a build of this version prints", () => {
  const shown: string[] = [];
  for (const file of docFiles(ROOT)) {
    for (const step of parseDoc(docText(ROOT, file))) {
      if (step.setup !== undefined) continue;
      for (const command of step.commands) {
        const asks = ASKS.exec(command.text);
        if (asks === null) continue;
        const where = `${file}:${command.line}: ${command.expected.join('\n')}`;
        const [line, ...more] = command.expected;
        assert.deepEqual(more, [], where);
        const [, version, after, node] = LINE.exec(line ?? '') ?? [];
        assert.ok(version !== undefined, `${where}: not a --version line`);
        if (after === undefined) assert.equal(version, VERSION, `${where}: a release's line names ${VERSION}`);
        else assert.deepEqual([version, after], [nextPatch(VERSION), VERSION], `${where}: a build between releases after ${VERSION}`);
        assert.equal(node, asks[1] === undefined ? undefined : NODE, `${where}: only a binary names its Node, the pinned one`);
        shown.push(after === undefined ? 'release' : 'between');
      }
    }
  }
  assert.deepEqual([...new Set(shown)].sort(), ['between', 'release']);
});

test('where the docs, the CHANGELOG or --help write out the line of a build between releases, its version is the patch after the release it names', () => {
  const texts = [...docFiles(ROOT), 'CHANGELOG.md', 'src/cli/help.ts'].map((file) => [file, readFileSync(join(ROOT, file), 'utf8')] as const);
  let seen = 0;
  for (const [file, text] of texts) {
    for (const [, version, after] of text.replaceAll(/\s+/g, ' ').matchAll(/gsd-check (\S+) \(source [^;)]*; unreleased, after (\d+\.\d+\.\d+)\)/g)) {
      seen++;
      assert.equal(version, nextPatch(after!), `${file}: ${version} after ${after}`);
    }
  }
  assert.ok(seen > 0);
});
