import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import fc from 'fast-check';
import { parseWithLibrary, readSimpleFrontmatter, yaml } from '../../src/artifact/frontmatter.ts';

const runs = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300);

// The edges of the core schema, and plain text around them.
const EDGES = [
  '0',
  '00',
  '-0',
  '+0',
  '0.0',
  '0x0',
  '0x1F',
  '0o17',
  '0o8',
  '0b1',
  '1e3',
  '1E-3',
  '.5',
  '5.',
  '-.5',
  '+.5',
  '1_000',
  '1.2.3',
  '.inf',
  '-.inf',
  '+.inf',
  '.Inf',
  '.NaN',
  '.nan',
  '.NAN',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  '2024-01-31',
  '12:30',
  '-',
  '--',
  '-a',
  '-1',
  '-.',
  '.',
  '..',
  '+',
  '+a',
  '_',
  'a-b',
  '9007199254740993',
  '123456789012345678901234567890',
  '0x',
  '0o',
  '1e',
  'e1',
  'NaN',
  'Infinity',
  '-Infinity',
];
const value = fc.oneof(fc.constantFrom(...EDGES), fc.stringMatching(/^[A-Za-z0-9_.+~-]{1,10}$/));
const key = fc.oneof(
  fc.constantFrom('threats_open', 'open_count', 'a', 'A_b-c', '_x', 'null', 'True', 'y', 'constructor', '__proto__', 'toString'),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/),
);
const line = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(key, fc.option(value), fc.constantFrom(' ', '  ', '\t'), fc.constantFrom('', ' # note', '\t#x'))
      .map(([k, v, gap, comment]) => `${k}:${v === null ? '' : `${gap}${v}`}${comment}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('', '# a comment', '   ', '  # indented comment') },
  // Lines outside the subset: the reader must step aside, not guess.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '  nested: 1',
      'list:',
      '- item',
      'a: "quoted"',
      "a: 'q'",
      'a: [1, 2]',
      'a: {b: 1}',
      'a: b c',
      'a: &x 1',
      'a: *x',
      '? complex',
      'a:b',
      'a : 1',
    ),
  },
);
const document = fc.tuple(fc.array(line, { maxLength: 8 }), fc.boolean()).map(([lines, crlf]) => lines.join(crlf ? '\r\n' : '\n'));

test("on every document it reads, both readings equal the YAML library's", () => {
  let read = 0;
  fc.assert(
    fc.property(document, (text) => {
      const simple = readSimpleFrontmatter(text);
      if (simple === undefined) return;
      read++;
      const library = parseWithLibrary(text, 'F.md', yaml());
      assert.ok(library.ok && library.value.mapping, `the library does not read as fields what the simple reader read: ${JSON.stringify(text)}`);
      // deepStrictEqual: -0 is not 0, NaN is NaN, prototypes count.
      assert.deepStrictEqual(simple, { fields: library.value.fields, typed: library.value.typed }, JSON.stringify(text));
      assert.equal(Object.getPrototypeOf(simple.fields), Object.prototype);
    }),
    { numRuns: runs * 10 },
  );
  // Most generated documents are inside the subset: the property is not vacuous.
  assert.ok(read > runs, `only ${read} documents were read`);
});

test('the subset, exactly: what it reads and where it steps aside', () => {
  assert.deepEqual(readSimpleFrontmatter('threats_open: 0 # reviewed\r\nowner: ~\nempty:\n# c\n\nx: 0x1F\nnull: 04'), {
    fields: { threats_open: '0', owner: '~', empty: null, x: '0x1F', null: '04' },
    typed: { threats_open: 0, owner: null, empty: null, x: 31, null: 4 },
  });
  assert.deepEqual(readSimpleFrontmatter(''), { fields: {}, typed: {} });
  for (const text of ['a: 1\na: 2', '  a: 1', 'a: "1"', 'a: -', 'a: -x', 'a: [1]', 'a: b c', '- a']) {
    assert.equal(readSimpleFrontmatter(text), undefined, text);
  }
  const proto = readSimpleFrontmatter('__proto__: 1');
  assert.deepEqual(Object.keys(proto?.fields ?? {}), ['__proto__']);
  assert.deepEqual(Object.keys(proto?.typed ?? {}), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
