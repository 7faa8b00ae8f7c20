import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from './helpers/bounded.ts';
import { ROOT } from './helpers/support.ts';

// docs/maintainers/architecture.md promises that no two modules of src/, and
// no two folders, import each other, directly or round a circle; type-only
// imports count, since they tie the concepts together all the same.
const SRC = join(ROOT, 'src');
// The entry files import every folder; they are nobody's dependency.
const ENTRIES = ['main.ts', 'launch.ts'];

function modules(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/g)].map((m) => relative(SRC, resolve(SRC, dirname(file), m[1]!)));
    graph.set(file, targets);
  }
  return graph;
}

// The circles of a graph: its strongly connected parts of more than one node.
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const part = stack.splice(stack.indexOf(node));
      if (part.length > 1) found.push(part);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('no module of src/ imports itself round a circle', () => {
  assert.deepEqual(circles(modules()), []);
});

test('no folder of src/ imports itself round a circle', () => {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of modules()) {
    if (ENTRIES.includes(file)) continue;
    const from = dirname(file);
    const to = folders.get(from) ?? new Set();
    for (const target of targets) if (dirname(target) !== from) to.add(dirname(target));
    folders.set(from, to);
  }
  assert.deepEqual(circles(new Map([...folders].map(([folder, to]) => [folder, [...to]]))), []);
});

test('the circle finder finds circles', () => {
  assert.deepEqual(
    circles(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
        ['c', ['a']],
      ]),
    ),
    [['a', 'b']],
  );
});
