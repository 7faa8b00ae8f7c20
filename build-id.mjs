// The source id that `gsd-check --version` names: a hash of everything the
// bundle is built from (src/, the JSON Schemas' generator, the build script,
// the TypeScript settings esbuild reads, and the lockfile that pins what is
// bundled), so that a site can tell which source a file it was given came
// from by running this script in a checkout (a standalone binary names the
// Node it carries beside it), and so that the committed dist/gsd-check still equals a fresh
// build on a clean clone (a commit hash cannot: the commit holds dist itself).
// Contents only: no paths outside the tree, no modes, no times.
//   node build-id.mjs [<source tree>]   prints the id
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_INPUTS = ['src', 'schemas/generate.ts', 'build.mjs', 'tsconfig.json', 'package-lock.json'];

// Hidden files (an editor's swap file) are not source.
const files = (root, path) =>
  readdirSync(join(root, path), { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.'))
    .flatMap((e) => (e.isDirectory() ? files(root, join(path, e.name)) : [join(path, e.name)]));

// The files the id is made of, relative to `root`, with forward slashes.
export function sourceFiles(root = '.') {
  const paths = SOURCE_INPUTS.flatMap((input) => {
    try {
      return files(root, input);
    } catch (error) {
      if (error.code === 'ENOTDIR') return [input];
      throw error;
    }
  });
  return paths.map((p) => p.split(sep).join('/')).sort();
}

export function sourceId(root = '.') {
  const hash = createHash('sha256');
  for (const path of sourceFiles(root)) {
    hash.update(
      `${path}\0${createHash('sha256')
        .update(readFileSync(join(root, path)))
        .digest('hex')}\n`,
    );
  }
  return hash.digest('hex').slice(0, 12);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(sourceId(relative(process.cwd(), resolve(process.argv[2] ?? '.')) || '.'));
}
