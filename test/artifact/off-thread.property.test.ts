import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import fc from 'fast-check';
import { parseWithLibrary, yaml } from '../../src/artifact/frontmatter.ts';
import { parseOffThread } from '../../src/artifact/off-thread.ts';

// js-yaml's writer, from the copy the program compiles.
const { dump } = yaml() as unknown as { dump: (value: unknown, options: { flowLevel?: number }) => string };

// Each case starts a thread: a tenth of the usual count.
const runs = Math.max(10, Math.round(Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300) / 10));

// Data written as YAML in block or flow style, with lines that break it, repeat
// a key, alias or tag something spliced in.
const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('0', '-0', '.inf', '.nan', '~', '2024-01-31', 'yes', '0x1F', '"q"', "'q'", '#', ': ', '- ', '&a', '*a'),
);
const data = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'a', '1', 'null')),
  fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 3 })),
  { maxKeys: 8 },
);
const splice = fc.constantFrom(
  'a: 1',
  'a: 1',
  'x: [1, 2',
  'y: {z: 1',
  '  bad: indent',
  '- item',
  'k: &anchor {v: 1}',
  'copy: *anchor',
  'copy2: *missing',
  't: !!str 1',
  't2: !!binary aGk=',
  's: !!set {a, b}',
  'o: !!omap [{a: 1}, {b: 2}]',
  'p: !!pairs [{a: 1}]',
  'd: !!timestamp 2001-12-14',
  'f: !!float 1',
  'i: !!int 0x10',
  'c: !custom x',
  '? [1, 2]\n: complex',
  '? {a: {b: 1}}\n: complex',
  'm: !!merge <<',
  'title: Phase 4: Ship',
  'n: "a\0b"',
  '"q": "unterminated',
  '\t tab: 1',
  '---',
  '...',
  '%YAML 1.2',
  'dup: 1\ndup: 2',
);
const document = fc.tuple(data, fc.boolean(), fc.array(fc.tuple(fc.nat(), splice), { maxLength: 3 })).map(([value, flow, splices]) => {
  const lines = dump(value, flow ? { flowLevel: 0 } : {}).split('\n');
  for (const [at, line] of splices) lines.splice(at % (lines.length + 1), 0, line);
  return lines.join('\n');
});

test('off the main thread, every frontmatter reads exactly as on it', async () => {
  const seen = { fields: 0, failures: 0 };
  await fc.assert(
    fc.asyncProperty(document, async (text) => {
      const off = await parseOffThread(text, 'F.md');
      seen[off.ok ? 'fields' : 'failures']++;
      // deepStrictEqual: -0 is not 0, NaN is NaN, prototypes count.
      assert.deepStrictEqual(off, parseWithLibrary(text, 'F.md', yaml()), JSON.stringify(text));
    }),
    { numRuns: runs },
  );
  // Both sides of the property are exercised.
  assert.ok(seen.fields > 0 && seen.failures > 0, JSON.stringify(seen));
});
