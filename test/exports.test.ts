import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from './helpers/bounded.ts';
import { ROOT } from './helpers/support.ts';

// CONTRIBUTING promises no dead exports: every name a module of src/ exports
// is imported by another file (code, a test, the build, the schemas, a bench),
// so what a module offers is what someone uses.
const IMPORTERS = ['src', 'test', 'schemas', 'bench', 'mutate'];
const TOP_FILES = ['build.mjs', 'build-bin.mjs', 'release.mjs'];

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(?:ts|mjs)$/.test(f))
    .map((f) => join(dir, f));

function imported(): Set<string> {
  const names = new Set<string>();
  const files = [...IMPORTERS.flatMap(sources), ...TOP_FILES.filter((f) => existsSync(join(ROOT, f)))];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(\.[^']+)'/g)) {
      const module = relative(ROOT, resolve(ROOT, dirname(file), m[2]!));
      for (const item of m[1]!.split(',')) {
        const name = item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        if (name !== '') names.add(`${module}:${name}`);
      }
    }
  }
  return names;
}

test('every name a module of src/ exports is imported somewhere else', () => {
  const used = imported();
  const unused = sources('src').flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^export (?:async )?(?:const|let|function|class|interface|type|enum) (\w+)/gm)]
      .map((m) => `${file}:${m[1]}`)
      .filter((entry) => !used.has(entry)),
  );
  assert.deepEqual(unused, []);
});
