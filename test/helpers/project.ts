// The one way the tests lay out a project on disk: .planning/, its
// config.json, phase directories, artifacts, capability files, workstreams,
// or any other tree, in a temp dir removed after the test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { tempDir } from './support.ts';

// Each path (relative to the root) maps to a file's text, a value written
// as JSON, or null for a directory.
export type Tree = Readonly<Record<string, string | object | null>>;

export function writeTree(root: string, tree: Tree): string {
  for (const [path, content] of Object.entries(tree)) {
    const full = join(root, path);
    if (content === null) {
      mkdirSync(full, { recursive: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return root;
}

export const project = (t: TestContext, tree: Tree = {}): string => writeTree(tempDir(t), tree);

// An artifact's text: `fields` as YAML frontmatter (each value as written),
// then `body`.
export const artifact = (fields: Readonly<Record<string, string | number | boolean>>, body = ''): string =>
  `---\n${Object.entries(fields)
    .map(([key, value]) => `${key}: ${value}\n`)
    .join('')}---\n${body}`;
