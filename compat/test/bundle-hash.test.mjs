// src/gsd/bundle-hash.ts held to GSD 1.14's own bundleContentHash
// (capability-consent.cjs), on random capability folders: names in any
// bytes and order, nested directories, Python's caches, empty files, and
// what GSD refuses to hash (a symbolic link, a FIFO). A consent record
// whose hash is not GSD's is no consent, and the project's gates would go
// unrun: the two must agree to the byte, or refuse together.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildSync } from 'esbuild';
import fc from 'fast-check';
import { REPO } from '../harness.mjs';

const gsd = createRequire(import.meta.url)(join(REPO, 'compat/node_modules/@opengsd/gsd-core/gsd-core/bin/lib/capability-consent.cjs'));
// The module loads node:crypto with require, as the artefact (CommonJS) has
// it; an ES module from data: is given one.
const bundled = buildSync({
  entryPoints: [join(REPO, 'src/gsd/bundle-hash.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
  banner: { js: `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(`${REPO}/`)});` },
});
const ours = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);

const RUNS = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 200);

// A name as a folder may hold one: GSD's cache names, and bytes that are no UTF-8.
const name = fc.oneof(
  fc.constantFrom('capability.json', 'a', 'B', 'b', '__pycache__', '.pytest_cache', 'x.pyc', 'y.pyo', 'z.py', '.hidden', 'a b', 'ä'),
  fc
    .uint8Array({ minLength: 1, maxLength: 6 })
    .map((bytes) => Buffer.from(bytes.map((b) => (b === 0 || b === 0x2f ? 0x61 : b))))
    .filter((bytes) => !['.', '..'].includes(bytes.toString('latin1'))),
);
const content = fc.oneof(
  fc.constant(''),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);
// A tree: each entry a file, a directory of entries, or (rarely) what GSD refuses.
const tree = fc.letrec((tie) => ({
  entries: fc.uniqueArray(fc.tuple(name, tie('node')), { maxLength: 5, selector: ([n]) => Buffer.from(n).toString('hex') }),
  node: fc.oneof(
    { weight: 6, arbitrary: content.map((c) => ({ file: c })) },
    { weight: 3, arbitrary: tie('entries').map((entries) => ({ dir: entries })) },
    { weight: 1, arbitrary: fc.constantFrom({ link: 'capability.json' }, { fifo: true }) },
  ),
}));

// A FIFO is made by mkfifo, whose argument is text: it goes at the top, by
// a name of its own; deeper, the node is an empty file.
function write(dir, entries, top) {
  entries.forEach(([n, node], index) => {
    const path = Buffer.concat([Buffer.from(dir), Buffer.from('/'), Buffer.from(n)]);
    if ('file' in node) writeFileSync(path, node.file);
    else if ('dir' in node) {
      mkdirSync(path);
      write(path, node.dir, false);
    } else if ('link' in node) symlinkSync(node.link, path);
    else if (top) execFileSync('mkfifo', [join(dir, `fifo-${index}`)]);
    else writeFileSync(path, '');
  });
}

const outcome = (f) => {
  try {
    return { hash: f() };
  } catch {
    return { refused: true };
  }
};

test("bundleContentHash is GSD's, or refuses where GSD's throws, at GSD's entry cap and at smaller ones", () => {
  const base = mkdtempSync(join(tmpdir(), 'gsd-check-bundle-hash-'));
  let n = 0;
  try {
    fc.assert(
      fc.property(tree.entries, (entries) => {
        const folder = join(base, `case-${n++}`, 'release-checks');
        mkdirSync(folder, { recursive: true });
        write(folder, entries, true);
        const theirs = outcome(() => gsd.bundleContentHash(folder));
        const mine = ours.bundleContentHash(folder);
        const shown = mine.ok ? { hash: mine.value } : { refused: true };
        assert.deepEqual(shown, theirs);
        // The entry cap, counted over the whole walk: GSD's test seam sets
        // its cap as the limits set ours, at and around this tree's count.
        for (const cap of [0, 1, 3, 7]) {
          const restore = gsd._setBundleMaxFilesForTest(cap);
          let capped;
          try {
            capped = outcome(() => gsd.bundleContentHash(folder));
          } finally {
            restore();
          }
          const mineCapped = ours.bundleContentHash(folder, { bytes: 16 * 1024 * 1024, entries: cap });
          assert.deepEqual(mineCapped.ok ? { hash: mineCapped.value } : { refused: true }, capped, `at most ${cap} entries`);
        }
      }),
      { numRuns: RUNS },
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
