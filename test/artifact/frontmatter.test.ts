import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { extractFrontmatter, parseWithLibrary, parseWithoutLibrary, repairAmbiguousColons, yaml, coreScalar } from '../../src/artifact/frontmatter.ts';

// The fields as GSD reads them, or what stood in their way: ABSENT,
// UNCLOSED, `NOT a list`, or `FAIL <message>`.
function read(text: string | Buffer, reading: 'fields' | 'typed' = 'fields'): unknown {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const frontmatter = extractFrontmatter(bytes);
  if (frontmatter.status !== 'present') return frontmatter.status.toUpperCase();
  const parsed = parseWithoutLibrary(frontmatter.yaml, 'F.md') ?? parseWithLibrary(frontmatter.yaml, 'F.md', yaml());
  if (!parsed.ok) return `FAIL ${parsed.failure.message}`;
  return parsed.value.mapping ? parsed.value[reading] : `NOT ${parsed.value.shape}`;
}
const typed = (text: string) => read(text, 'typed');

test('every scalar reads as its text, as GSD reads it; the typed reading is YAML 1.2 core', () => {
  const cases: [string, unknown, unknown][] = [
    ['n: 0', '0', 0],
    ['n: "0"', '0', '0'],
    ["n: '0'", '0', '0'],
    ['n: 04', '04', 4],
    ['n: 1.10', '1.10', 1.1],
    ['n: 0.0', '0.0', 0],
    ['n: 0x1F', '0x1F', 31],
    ['n: "0x1F"', '0x1F', '0x1F'],
    ['b: True', 'True', true],
    ['b: "true"', 'true', 'true'],
    ['z: null', 'null', null],
    ['z: ~', '~', null],
    ['z:', null, null],
    ['s: plain text', 'plain text', 'plain text'],
    ['s: "a: b"', 'a: b', 'a: b'],
    ['d: 2024-01-31', '2024-01-31', '2024-01-31'],
    ['s: yes', 'yes', 'yes'],
    ['s: |\n  two\n  lines', 'two\nlines\n', 'two\nlines\n'],
  ];
  for (const [line, text, value] of cases) {
    assert.deepEqual(Object.values(read(`---\n${line}\n---\nbody\n`) as object), [text], line);
    assert.deepEqual(Object.values(typed(`---\n${line}\n---\nbody\n`) as object), [value], line);
  }
});

test('keys are text: null, ~, 1.50, true are keys as written', () => {
  assert.deepEqual(read('---\nnull: 0\n~: a\n1.50: b\ntrue: c\n"x": d\n---\n'), { null: '0', '~': 'a', '1.50': 'b', true: 'c', x: 'd' });
  assert.deepEqual(read('---\nnull: 0\n---\n'), { null: '0' });
  // The same keys typed by the core schema would collide; as text they do not.
  assert.deepEqual(Object.keys(read('---\n~: a\nnull: b\nNULL: c\n---\n') as object), ['~', 'null', 'NULL']);
});

test('a column-0 value with a second colon is repaired as GSD repairs it', () => {
  assert.deepEqual(read('---\ntitle: Phase 4: Ship\nphase: 04\n---\n'), { title: 'Phase 4: Ship', phase: '04' });
  assert.deepEqual(read('---\nlast_activity: 2026-06-08: reviewed the queue\nstatus: done\n---\n'), {
    last_activity: '2026-06-08: reviewed the queue',
    status: 'done',
  });
  assert.deepEqual(read('---\r\nnote: ends in a colon:\r\nq: say "hi": \\o/\r\n---\r\n'), { note: 'ends in a colon:', q: 'say "hi": \\o/' });
  // Only column-0 lines of plain values; what the repair cannot fix keeps its first error.
  assert.equal(read('---\nouter:\n  inner: a: b\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 3: bad indentation of a mapping entry');
  assert.equal(repairAmbiguousColons('a: [x: y]\nb: "c: d"\n  e: f: g'), 'a: [x: y]\nb: "c: d"\n  e: f: g');
  assert.equal(repairAmbiguousColons('a: b:c\r\nd: e:'), 'a: b:c\nd: "e:"');
});

test('CRLF, a BOM, blanks after the opening ---, and the lines that close', () => {
  assert.deepEqual(read('---\r\na: 1\r\nb: "x"\r\n---\r\nbody\r\n'), { a: '1', b: 'x' });
  assert.deepEqual(read('\ufeff---\na: 1\n---\n'), { a: '1' });
  assert.deepEqual(read('--- \na: 1\n---\t\n'), { a: '1' });
  assert.deepEqual(read('---\na: 1\n...\n'), { a: '1' });
  assert.deepEqual(read('---\na: 1\n---'), { a: '1' });
  // Any line that starts with --- closes, as in GSD.
  assert.deepEqual(read('---\na: 1\n--- # end of frontmatter\nbody\n'), { a: '1' });
  assert.deepEqual(read('---\na: 1\n----\n'), { a: '1' });
  assert.deepEqual(read('---\na: 1\n---x\n'), { a: '1' });
  assert.deepEqual(read(`---${' '.repeat(100)}\r\na: 1\r\n...\t${' '.repeat(100)}\r\n`), { a: '1' });
  assert.equal(read(`---\na: 1\n...${' '.repeat(100)}x\n.... \n-- -\n`), 'UNCLOSED');
});

test('an empty frontmatter is an empty mapping', () => {
  assert.deepEqual(read('---\n---\nbody'), {});
  assert.deepEqual(read('---\n# only a comment\n---\n'), {});
  assert.deepEqual(read('---\n~\n---\n'), {});
  assert.deepEqual(read('---\n--- # a document marker, then nothing\n'), {});
});

test('a "__proto__" key is a field, not a prototype', () => {
  for (const text of ['---\n__proto__: {polluted: 1}\n---\n', '---\n__proto__: 1\n---\n']) {
    const fields = read(text) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(fields), Object.prototype);
    assert.deepEqual(Object.keys(fields), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  }
});

test('no frontmatter, or one never closed, is told apart from one that is there', () => {
  assert.equal(read('# Title\n---\na: 1\n---\n'), 'ABSENT');
  assert.equal(read(''), 'ABSENT');
  assert.equal(read('\n---\na: 1\n---\n'), 'ABSENT');
  assert.equal(read('----\na: 1\n----\n'), 'ABSENT');
  assert.equal(read('--- # comment\na: 1\n---\n'), 'ABSENT');
  // `...` closes a frontmatter, it never opens one.
  assert.equal(read('...\na: 1\n---\n'), 'ABSENT');
  assert.equal(read('---\na: 1\nbody\n'), 'UNCLOSED');
  assert.equal(read('---'), 'UNCLOSED');
  // Three bytes are skipped for a BOM only when all three are one: not for
  // U+FF21 (EF BC A1), U+FEC9 (EF BB 89), or "a¿" (61 C2 BF).
  for (const start of ['\uff21', '\ufec9', 'a\u00bf']) assert.equal(read(`${start}---\na: 1\n---\n`), 'ABSENT', start);
});

test('invalid YAML names the file line of the error', () => {
  assert.equal(read('---\na: 1\nb: [1, 2\nc: 3\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 4: missed comma between flow collection entries');
  assert.equal(read('---\na: 1\na: 2\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 3: Map keys must be unique');
  assert.equal(
    read('---\nx: 1\n"k\n  j": 2\n---\n'),
    'FAIL F.md: invalid YAML in the frontmatter at line 4: can not read a block mapping entry; a multiline key may not be an implicit key',
  );
});

test('a frontmatter that is not a mapping says what it is instead', () => {
  assert.equal(read('---\n- a\n- b\n---\n'), 'NOT a list');
  assert.equal(read('---\njust text\n---\n'), 'NOT a string');
  assert.equal(read('---\n42\n---\n'), 'NOT a number');
});

test('bytes that are not UTF-8 read as U+FFFD, as GSD reads them', () => {
  const cp1252 = Buffer.concat([Buffer.from('---\nauthor: Jos'), Buffer.from([0xe9]), Buffer.from('\nn: 0\n---\n')]);
  assert.deepEqual(read(cp1252), { author: 'Jos\ufffd', n: '0' });
  assert.deepEqual(read(Buffer.concat([Buffer.from('---\na: 1\n---\n'), Buffer.from([0xff, 0xfe])])), { a: '1' });
});

test('NUL is read as GSD reads it: kept in the text', () => {
  assert.deepEqual(read('---\na: "x\0y"\nb\0: 1\n---\n'), { a: 'x\0y', 'b\0': '1' });
  assert.deepEqual(read('---\na: "\ue000\0"\n---\n'), { a: '\ue000\0' });
  // Plain (unquoted) text gets its NUL back in the typed reading too.
  assert.deepEqual(typed('---\na: x\0y\nlist: [1]\n---\n'), { a: 'x\0y', list: [1] });
  // NUL's stand-in is any private-use character the text lacks, the first or
  // the last of the range too; only a text that holds them all is refused.
  const privateUse = Array.from({ length: 0xf8ff - 0xe000 + 1 }, (_, i) => String.fromCharCode(0xe000 + i));
  for (const missing of [0, privateUse.length - 1]) {
    const held = privateUse.filter((_, i) => i !== missing).join('');
    assert.deepEqual(read(`---\na: "x\0y"\nb: "${held}"\n---\n`), { a: 'x\0y', b: held }, `all but U+${(0xe000 + missing).toString(16)}`);
  }
  assert.equal(read(`---\na: "x\0y"\nb: "${privateUse.join('')}"\n---\n`), 'FAIL F.md: the frontmatter holds NUL and every private-use character');
});

test('anchors and aliases are refused, as GSD refuses them, before anything expands', () => {
  const refused = 'FAIL F.md: the frontmatter uses an anchor or alias (& or *), which GSD refuses';
  assert.equal(read('---\nbase: &b {x: 1}\ncopy: *b\n---\n'), refused);
  assert.equal(read('---\nthreats_open: &n 0\n---\n'), refused);
  assert.equal(read('---\n"a": &x 1\n---\n'), refused);
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++)
    bomb.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
        .fill(`*${String.fromCharCode(96 + i)}`)
        .join(', ')}]`,
    );
  assert.equal(read(`---\n${bomb.join('\n')}\n---\n`), refused);
  // Also where the colon repair was needed first.
  assert.equal(read('---\ntitle: a: b\nn: &n 0\n---\n'), refused);
});

test('values that are not plain data are refused: GSD knows no tag but !!str, !!seq, !!map', () => {
  assert.equal(read('---\nfield: !!set {a, b}\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 2: unknown tag !<tag:yaml.org,2002:set>');
  assert.equal(read('---\nfield: !!omap [{a, b}]\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 2: unknown tag !<tag:yaml.org,2002:omap>');
  // A colon then a blank in it, and GSD's repair makes the line text, which matches only that text.
  assert.deepEqual(read('---\nfield: !!omap [{a: 1}]\n---\n'), { field: '!!omap [{a: 1}]' });
  assert.equal(read('---\nfield: !!merge <<\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 2: unknown tag !<tag:yaml.org,2002:merge>');
  assert.equal(read('---\nfield: !!binary aGk=\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 2: unknown tag !<tag:yaml.org,2002:binary>');
  // Tags GSD knows are read; `<<` without a tag is an ordinary key to it.
  assert.deepEqual(read('---\na: !!str 0\nb: !!seq [1]\n<<: {c: 1}\n---\n'), { a: '0', b: ['1'], '<<': { c: '1' } });
  assert.deepEqual(typed('---\na: !!str 0\n---\n'), { a: '0' });
});

test('collection keys are text, as GSD makes them, at a cost that stays linear', () => {
  assert.deepEqual(read('---\n? {a: 1}\n: x\n? [b, 2]\n: y\n---\n'), { '[object Object]': 'x', 'b,2': 'y' });
  // Thirty levels of `? { ? { … } }`: the key of each level is the one line
  // `[object Object]`, never the text of the level inside.
  let nested = 'a';
  for (let i = 0; i < 30; i++) nested = `{ ? ${nested} }`;
  assert.deepEqual(read(`---\nx: ${nested}\n---\n`), { x: { '[object Object]': null } });
  assert.equal(read('---\n? [[a]]\n: x\n---\n'), 'FAIL F.md: invalid YAML in the frontmatter at line 3: nested arrays are not supported inside keys');
});

test('lists read as GSD reads them: an item that is a list or a mapping is one line of text', () => {
  assert.deepEqual(
    read('---\nlist: [1, "2", three, ~, ""]\nblock:\n  - a\n  -\nmap:\n  inner: {x: 1}\nobjs:\n  - {path: a, provides: [x, y]}\n  - [1, [2]]\n---\n'),
    {
      list: ['1', '2', 'three', '~', ''],
      block: ['a', ''],
      map: { inner: { x: '1' } },
      objs: ['path: a, provides: [x, y]', '[1, [2]]'],
    },
  );
  assert.deepEqual(typed('---\nlist: [1, "2", ~]\nobjs:\n  - {path: a, n: 0x10}\n---\n'), { list: [1, '2', null], objs: [{ path: 'a', n: 16 }] });
  // An empty value inside such an item shows as nothing, as GSD's flattenScalarForDisplay shows it.
  assert.deepEqual(read('---\nobjs:\n  - {a: , b: [x, ]}\n  - [[], {}]\n---\n'), { objs: ['a: , b: [x]', '[[], ]'] });
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
  // The YAML is what lies between the fences, less the line end before the
  // closing one: the blank line makes it exactly `exact`, the cap to the byte.
  const fields = read(`---\n${exact}\n---\n`);
  assert.equal(typeof fields, 'object');
  assert.equal(read(`---\n${exact} \n---\n`), 'FAIL F.md: the frontmatter is larger than 64 KiB');
  assert.equal(read(`---\n${exact}x: 1\n---\n`), 'FAIL F.md: the frontmatter is larger than 64 KiB');
});

test('nesting is bounded as GSD bounds it: 100 levels', () => {
  const deep = (n: number) => `---\nx: ${'['.repeat(n)}${']'.repeat(n)}\n---\n`;
  assert.equal(typeof read(deep(98)), 'object');
  assert.equal(read(deep(100)), 'FAIL F.md: invalid YAML in the frontmatter at line 2: nesting exceeded maxDepth (100)');
  assert.match(String(read(deep(20_000))), /^FAIL F\.md: invalid YAML in the frontmatter at line 2: nesting exceeded maxDepth/);
});

test("a plain scalar as YAML 1.2's core schema types it", () => {
  const cases: [string, unknown][] = [
    ['~', null],
    ['null', null],
    ['Null', null],
    ['NULL', null],
    ['nULL', 'nULL'],
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['tRUE', 'tRUE'],
    ['false', false],
    ['FALSE', false],
    ['yes', 'yes'],
    ['0', 0],
    ['00', 0],
    ['-0', -0],
    ['+0', 0],
    ['04', 4],
    ['0o17', 15],
    ['0o8', '0o8'],
    ['0x1F', 31],
    ['0x', '0x'],
    ['0b1', '0b1'],
    ['0.0', 0],
    ['1.10', 1.1],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['1E-3', 0.001],
    ['1_000', '1_000'],
    ['1.2.3', '1.2.3'],
    ['.inf', Infinity],
    ['-.Inf', -Infinity],
    ['+.INF', Infinity],
    ['.nan', NaN],
    ['.NaN', NaN],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['2024-01-31', '2024-01-31'],
    ['12:30', '12:30'],
    ['', ''],
  ];
  for (const [text, value] of cases) assert.deepStrictEqual(coreScalar(text), value, text);
});

test('a number is a number only where a double holds it as written; else it keeps its text', () => {
  const cases: [string, unknown][] = [
    ['1e-400', '1e-400'],
    ['-1e-400', '-1e-400'],
    ['0.1e-330', '0.1e-330'],
    ['3e-324', '3e-324'],
    ['1e400', '1e400'],
    ['1.0000000000000001', '1.0000000000000001'],
    ['9007199254740993', '9007199254740993'],
    ['0x20000000000001', '0x20000000000001'],
    ['0o400000000000000001', '0o400000000000000001'],
    ['9007199254740992', 9007199254740992],
    ['0x20000000000000', 9007199254740992],
    ['5e-324', 5e-324],
    ['0.1', 0.1],
    ['0.10', 0.1],
    ['1e-1', 0.1],
    ['1000000000000000000000', 1e21],
    ['1e+21', 1e21],
    ['0e99999999999999999999', 0],
    ['-0.000', -0],
    ['123.456e2', 12345.6],
    // A run of zeros as long as a frontmatter allows: read in one pass.
    [`0.1${'0'.repeat(60_000)}1`, `0.1${'0'.repeat(60_000)}1`],
    [`0.1${'0'.repeat(60_000)}`, 0.1],
  ];
  for (const [text, value] of cases) assert.deepStrictEqual(coreScalar(text), value, text);
});

test('an error of the parser that is not a YAML error says the frontmatter cannot be read as data', () => {
  const real = yaml();
  // A small stack overflows in the parser's recursion; an error with a `reason` but another name is no YAML error either.
  for (const thrown of [new RangeError('Maximum call stack size exceeded'), Object.assign(new Error('odd'), { reason: 'a reason' })]) {
    const library = {
      ...real,
      load: () => {
        throw thrown;
      },
    } as typeof real;
    const parsed = parseWithLibrary('a: [1]\n', 'F.md', library);
    assert.deepEqual(parsed.ok ? parsed.value : parsed.failure.message, `F.md: the frontmatter cannot be read as data: ${thrown.message}`);
  }
});
