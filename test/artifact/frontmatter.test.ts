import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFrontmatter, parseWithLibrary, parseWithoutLibrary } from '../../src/artifact/frontmatter.ts';
import { yaml } from '../../src/artifact/yaml.ts';

// The fields, or what stood in their way: ABSENT, UNCLOSED, `NOT a list`,
// or `FAIL <message>`.
function read(text: string | Buffer): unknown {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const frontmatter = extractFrontmatter(bytes, 'F.md');
  if (!frontmatter.ok) return `FAIL ${frontmatter.failure.message}`;
  if (frontmatter.value.status !== 'present') return frontmatter.value.status.toUpperCase();
  const parsed = parseWithoutLibrary(frontmatter.value.yaml, 'F.md') ?? parseWithLibrary(frontmatter.value.yaml, 'F.md', yaml());
  if (!parsed.ok) return `FAIL ${parsed.failure.message}`;
  return parsed.value.mapping ? parsed.value.fields : `NOT ${parsed.value.shape}`;
}

test('scalars come out as YAML means them', () => {
  const cases: [string, unknown][] = [
    ['n: 0', 0],
    ['n: "0"', '0'],
    ["n: '0'", '0'],
    ['n: 1.5', 1.5],
    ['n: -3', -3],
    ['n: 0x1F', 31],
    ['b: true', true],
    ['b: "true"', 'true'],
    ['b: false', false],
    ['z: null', null],
    ['z: ~', null],
    ['z:', null],
    ['s: plain text', 'plain text'],
    ['s: "a: b"', 'a: b'],
    ['d: 2024-01-31', '2024-01-31'],
    ['s: yes', 'yes'],
  ];
  for (const [line, value] of cases) {
    const fields = read(`---\n${line}\n---\nbody\n`) as Record<string, unknown>;
    assert.deepEqual(Object.values(fields), [value], line);
  }
});

test('lists and nested maps', () => {
  assert.deepEqual(read('---\nlist: [1, "2", three]\nblock:\n  - a\n  - b\nmap:\n  inner: {x: 1}\n---\n'), {
    list: [1, '2', 'three'],
    block: ['a', 'b'],
    map: { inner: { x: 1 } },
  });
});

test('CRLF, a BOM, trailing blanks on markers, and ... as the end', () => {
  assert.deepEqual(read('---\r\na: 1\r\nb: "x"\r\n---\r\nbody\r\n'), { a: 1, b: 'x' });
  assert.deepEqual(read('\ufeff---\na: 1\n---\n'), { a: 1 });
  assert.deepEqual(read('--- \na: 1\n---\t\n'), { a: 1 });
  assert.deepEqual(read('---\na: 1\n...\n'), { a: 1 });
  assert.deepEqual(read('---\na: 1\n---'), { a: 1 });
  // Blanks after a marker, however many; anything else, and it is no marker.
  assert.deepEqual(read(`---${' '.repeat(100)}\r\na: 1\r\n...\t${' '.repeat(100)}\r\n`), { a: 1 });
  assert.equal(read('---\na: 1\n--- x\n.... \n---\r\r\n-- -\n'), 'UNCLOSED');
});

test('an empty frontmatter is an empty mapping', () => {
  assert.deepEqual(read('---\n---\nbody'), {});
  assert.deepEqual(read('---\n# only a comment\n---\n'), {});
  // The same when the YAML library reads it: a lone null.
  assert.deepEqual(read('---\n~\n---\n'), {});
  assert.deepEqual(read('---\n--- # a document marker, then nothing\n'), 'UNCLOSED');
});

test('a "__proto__" key is a field, not a prototype', () => {
  const fields = read('---\n__proto__: {polluted: 1}\n---\n') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(fields), Object.prototype);
  assert.deepEqual(Object.keys(fields), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('no frontmatter, or one never closed, is told apart from one that is there', () => {
  assert.equal(read('# Title\n---\na: 1\n---\n'), 'ABSENT');
  assert.equal(read(''), 'ABSENT');
  assert.equal(read('\n---\na: 1\n---\n'), 'ABSENT');
  assert.equal(read('----\na: 1\n----\n'), 'ABSENT');
  // `...` closes a frontmatter, it never opens one.
  assert.equal(read('...\na: 1\n---\n'), 'ABSENT');
  assert.equal(read('---\na: 1\nbody\n'), 'UNCLOSED');
  assert.equal(read('---'), 'UNCLOSED');
  // Three bytes are skipped for a BOM only when all three are one: not for
  // U+FF21 (EF BC A1), U+FEC9 (EF BB 89), or "a¿" (61 C2 BF).
  for (const start of ['\uff21', '\ufec9', 'a\u00bf']) assert.equal(read(`${start}---\na: 1\n---\n`), 'ABSENT', start);
});

test('invalid YAML names the file line of the error', () => {
  assert.equal(
    read('---\na: 1\nb: [1, 2\nc: 3\n---\n'),
    'FAIL F.md: invalid YAML in the frontmatter at line 4: Flow sequence in block collection must be sufficiently indented and end with a ]',
  );
  assert.equal(read('---\na: 1\na: 2\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 3: Map keys must be unique');
  // YAML that does not parse is told before a repeated key (the library's own
  // check of keys is off: it compares every key with every other).
  assert.equal(read('---\na: 1\na: 2\nb: [1\nc: 2\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 5: Flow sequence in block collection must be sufficiently indented and end with a ]');
  // An error over several lines is named by the line it starts on.
  assert.equal(read('---\nx: 1\n"k\n  j": 2\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 3: Implicit keys need to be on a single line');
});

test('a frontmatter that is not a mapping says what it is instead', () => {
  assert.equal(read('---\n- a\n- b\n---\n'), 'NOT a list');
  assert.equal(read('---\njust text\n---\n'), 'NOT a string');
  assert.equal(read('---\n42\n---\n'), 'NOT a number');
});

test('bytes that are not UTF-8 fail in the frontmatter, not in the body', () => {
  assert.equal(read(Buffer.concat([Buffer.from('---\na: '), Buffer.from([0xff]), Buffer.from('\n---\n')])), 'FAIL F.md: the frontmatter is not valid UTF-8');
  assert.deepEqual(read(Buffer.concat([Buffer.from('---\na: 1\n---\n'), Buffer.from([0xff, 0xfe])])), { a: 1 });
});

test('aliases work; recursive or exploding ones are errors, not hangs', () => {
  assert.deepEqual(read('---\nbase: &b {x: 1}\ncopy: *b\n---\n'), { base: { x: 1 }, copy: { x: 1 } });
  assert.match(String(read('---\nx: &a [*a]\n---\n')), /^FAIL F\.md: the frontmatter cannot be read as data: /);
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
  assert.match(String(read(`---\n${bomb.join('\n')}\n---\n`)), /^FAIL F\.md: the frontmatter cannot be read as data: Excessive alias count/);
});

test('a key given twice anywhere is found, with its line; equal-looking keys of other types are not twice', () => {
  assert.equal(read('---\nouter:\n  a: 1\n  b: 2\n  a: 3\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 5: Map keys must be unique');
  assert.equal(read('---\nlist:\n  - {x: 1, x: 2}\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 3: Map keys must be unique');
  assert.equal(read('---\n~: a\nnull: b\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 3: Map keys must be unique');
  assert.deepEqual(read('---\n1: number\n"1": text\n---\n'), { 1: 'text' } as unknown);
  // A key over several lines is named by the line it starts on; empty keys are equal.
  assert.equal(read('---\n? |\n  a\n: 1\n? |\n  a\n: 2\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 5: Map keys must be unique');
  assert.equal(read('---\n\n? \n: a\n? \n: b\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 5: Map keys must be unique');
});

test('a frontmatter of up to 64 KiB is read; a larger one is refused before parsing', () => {
  const keys = (bytes: number) => {
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < bytes - 40; i++) {
      const line = `k${i}: ${i}\n`;
      lines.push(line);
      size += line.length;
    }
    // A comment fills the rest to the byte.
    lines.push(`#${'-'.repeat(bytes - size - 2)}\n`);
    return lines.join('');
  };
  const exact = keys(64 * 1024);
  assert.equal(Buffer.byteLength(exact), 64 * 1024);
  const fields = read(`---\n${exact}---\n`);
  assert.equal(typeof fields, 'object');
  assert.equal(read(`---\n${exact}x: 1\n---\n`), 'FAIL F.md: the frontmatter is larger than 64 KiB');
});

test('a frontmatter nested deeper than 64 levels is refused, however it nests', () => {
  const deep = (n: number) => `---\nx: ${'['.repeat(n)}${']'.repeat(n)}\n---\n`;
  assert.equal(typeof read(deep(63)), 'object');
  assert.equal(read(deep(65)), 'FAIL F.md: the frontmatter cannot be read as data: it nests deeper than 64 levels');
  assert.match(String(read(deep(20_000))), /^FAIL F\.md: /);
});
