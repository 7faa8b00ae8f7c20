// How SECURITY.md's frontmatter reads: both tools parse it with js-yaml 4.3.2's
// failsafe schema (every scalar its text) and GSD's repair of a second colon;
// gsd-check also matches a value that YAML 1.2 types as `equals` (D7), and
// fails the check on what GSD cannot read (D9).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontmatter } from '../case.mjs';

const PHASE = '.planning/phases/04-ship';

const variant = (name, text, gsd, difference, { field = 'threats_open', equals = 0 } = {}) => ({
  name,
  tree: { 'p/.planning/config.json': '{}', [`p/${PHASE}/04-SECURITY.md`]: text },
  cwd: 'p',
  args: ['--predicate', frontmatter('SECURITY.md', field, equals), '--phase-dir', PHASE, '--raw'],
  gsd,
  ...difference,
});

// A file given as bytes: the tree holds text only, so the case writes it.
const bytes = (name, content, gsd, difference, predicate) => ({
  ...variant(name, '', gsd, difference, predicate),
  tree: (root) => {
    mkdirSync(join(root, 'p', PHASE), { recursive: true });
    writeFileSync(join(root, 'p', PHASE, '04-SECURITY.md'), content);
    return { 'p/.planning/config.json': '{}' };
  },
});

// A number that YAML 1.2 reads as 0 and GSD's strings-only reading does not.
const asNumber = { differs: 'D7', check: 'pass' };
// What GSD reads as empty and gsd-check refuses.
const unreadable = (pattern) => ({
  differs: 'D9',
  check: 'error',
  expect: (gsd, check) => assert.match(check.stderr, pattern),
});

let nestedKeys = 'a';
for (let i = 0; i < 30; i++) nestedKeys = `{ ? ${nestedKeys} }`;

export const FRONTMATTER_CASES = [
  variant('0', '---\nthreats_open: 0\n---\n', 'pass'),
  variant('"0"', '---\nthreats_open: "0"\n---\n', 'pass'),
  variant("'0'", "---\nthreats_open: '0'\n---\n", 'pass'),
  variant('0.0', '---\nthreats_open: 0.0\n---\n', 'block', asNumber),
  variant('00', '---\nthreats_open: 00\n---\n', 'block', asNumber),
  variant('0x0', '---\nthreats_open: 0x0\n---\n', 'block', asNumber),
  variant('-0', '---\nthreats_open: -0\n---\n', 'block', asNumber),
  variant('+0', '---\nthreats_open: +0\n---\n', 'block', asNumber),
  variant('True against true', '---\nthreats_open: True\n---\n', 'block', { differs: 'D7', check: 'pass' }, { equals: true }),
  variant('~ against null', '---\nthreats_open: ~\n---\n', 'block', { differs: 'D7', check: 'pass' }, { equals: null }),
  variant('an empty value against null', '---\nthreats_open:\n---\n', 'block', { differs: 'D7', check: 'pass' }, { equals: null }),
  variant('[1, 0x10] against [1, 16]', '---\nthreats_open: [1, 0x10]\n---\n', 'block', { differs: 'D7', check: 'pass' }, { equals: [1, 16] }),
  variant('0.0 against "0"', '---\nthreats_open: 0.0\n---\n', 'block', undefined, { equals: '0' }),
  variant('1e-400 (0 only once rounded)', '---\nthreats_open: 1e-400\n---\n', 'block'),
  variant('9007199254740993 against 9007199254740992', '---\nthreats_open: 9007199254740993\n---\n', 'block', undefined, { equals: 9007199254740992 }),
  variant('1.0000000000000001 against 1', '---\nthreats_open: 1.0000000000000001\n---\n', 'block', undefined, { equals: 1 }),
  variant('null against null', '---\nthreats_open: null\n---\n', 'pass', undefined, { equals: null }),
  variant('0 with a trailing comment', '---\nthreats_open: 0 # reviewed\n---\n', 'pass'),
  variant('2 with a trailing comment', '---\nthreats_open: 2 # two open\n---\n', 'block'),
  variant('a quoted key', '---\n"threats_open": 0\n---\n', 'pass'),
  variant('phase: 04 against "04"', '---\nphase: 04\n---\n', 'pass', undefined, { field: 'phase', equals: '04' }),
  variant('phase: 04 against "4"', '---\nphase: 04\n---\n', 'block', undefined, { field: 'phase', equals: '4' }),
  variant('version: 1.10 against "1.10"', '---\nversion: 1.10\n---\n', 'pass', undefined, { field: 'version', equals: '1.10' }),
  variant('title: Phase 4: Ship, repaired', '---\ntitle: Phase 4: Ship\nthreats_open: 0\n---\n', 'pass'),
  variant('title: Phase 4: Ship, its text', '---\ntitle: Phase 4: Ship\n---\n', 'pass', undefined, { field: 'title', equals: 'Phase 4: Ship' }),
  variant('last_activity: 2026-06-08: reviewed the queue', '---\nthreats_open: 0\nlast_activity: 2026-06-08: reviewed the queue\n---\n', 'pass'),
  variant('a value ending in a bare colon', '---\nnote: see below:\nthreats_open: 0\n---\n', 'pass'),
  variant('null: 0 found by "null"', '---\nnull: 0\n---\n', 'pass', undefined, { field: 'null' }),
  variant('~: 0 found by "~"', '---\n~: 0\n---\n', 'pass', undefined, { field: '~' }),
  variant('1.50: 0 found by "1.50"', '---\n1.50: 0\n---\n', 'pass', undefined, { field: '1.50' }),
  variant('true: 0 found by "true"', '---\ntrue: 0\n---\n', 'pass', undefined, { field: 'true' }),
  bytes('a CP-1252 byte elsewhere in the frontmatter', Buffer.from('---\nauthor: Jos\xe9\nthreats_open: 0\n---\n', 'latin1'), 'pass'),
  bytes('a CP-1252 byte, the field read as U+FFFD', Buffer.from('---\nauthor: Jos\xe9\n---\n', 'latin1'), 'pass', undefined, {
    field: 'author',
    equals: 'Jos\ufffd',
  }),
  variant('--- # end of frontmatter closes', '---\nthreats_open: 0\n--- # end of frontmatter\nbody\n', 'pass'),
  variant('---- closes', '---\nthreats_open: 0\n----\n', 'pass'),
  variant('a closing --- with trailing blanks', '---\nthreats_open: 0\n---  \n', 'pass'),
  variant('--- fences with trailing blanks', '--- \nthreats_open: 0\n---  \n', 'block', { differs: 'D10', check: 'pass' }),
  variant('... closes the frontmatter', '---\nthreats_open: 0\n...\n', 'block', { differs: 'D10', check: 'pass' }),
  variant('CRLF line ends', '---\r\nthreats_open: 0\r\n---\r\n', 'pass'),
  variant('CRLF and a repaired colon', '---\r\ntitle: a: b\r\nthreats_open: 0\r\n---\r\n', 'pass'),
  variant('a BOM', '\ufeff---\nthreats_open: 0\n---\n', 'pass'),
  variant('duplicate keys, 0 last', '---\nthreats_open: 2\nthreats_open: 0\n---\n', 'pass', {
    differs: 'D8',
    check: 'error',
    expect: (gsd, check) => assert.match(check.stderr, /Map keys must be unique/),
  }),
  variant('duplicate keys, 2 last', '---\nthreats_open: 0\nthreats_open: 2\n---\n', 'block', { differs: 'D8', check: 'error' }),
  variant('no frontmatter', '# Security\n\nthreats_open: 0\n', 'block', {
    expect: (gsd, check) =>
      assert.equal(
        check.envelope.message,
        'Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is missing: the file has no frontmatter (its first line is not ---), expected 0',
      ),
  }),
  variant('an unclosed frontmatter', '---\nthreats_open: 0\n# Security\n', 'block'),
  variant('a blank first line', '\n---\nthreats_open: 0\n---\n', 'block'),
  variant('~', '---\nthreats_open: ~\n---\n', 'block'),
  variant('an empty value', '---\nthreats_open:\n---\n', 'block'),
  variant('a list', '---\nthreats_open: [0]\n---\n', 'block'),
  variant('a nested key', '---\nsecurity:\n  threats_open: 0\n---\n', 'block'),
  variant('a tab after the colon', '---\nthreats_open:\t0\n---\n', 'pass'),
  variant('the key in other case', '---\nThreats_Open: 0\n---\n', 'block'),
  variant('false', '---\nthreats_open: false\n---\n', 'block'),
  variant('NUL in a quoted value', '---\nthreats_open: 0\nnote: "a\0b"\n---\n', 'pass'),
  variant('30 levels of nested collection keys', `---\nthreats_open: 0\nx: ${nestedKeys}\n---\n`, 'pass'),
  variant('a collection key, as its text', '---\n? {a: 1}\n: 0\n---\n', 'pass', undefined, { field: '[object Object]' }),
  variant('!!omap with a colon, repaired into text', '---\nthreats_open: !!omap [{a: 1}]\n---\n', 'pass', undefined, { equals: '!!omap [{a: 1}]' }),
  variant('an anchor', '---\nthreats_open: &n 0\n---\n', 'block', unreadable(/anchor or alias \(& or \*\), which GSD refuses/)),
  variant('an anchor after a repaired colon', '---\ntitle: a: b\nthreats_open: &n 0\n---\n', 'pass', unreadable(/anchor or alias/)),
  variant('!!set', '---\nthreats_open: !!set {a, b}\n---\n', 'block', unreadable(/line 2: unknown tag !<tag:yaml\.org,2002:set>/), { equals: {} }),
  variant('!!merge <<', '---\nthreats_open: !!merge <<\n---\n', 'block', unreadable(/unknown tag !<tag:yaml\.org,2002:merge>/)),
  variant(
    'nesting past 100 levels',
    `---\nthreats_open: 0\nx: ${'['.repeat(100)}${']'.repeat(100)}\n---\n`,
    'block',
    unreadable(/nesting exceeded maxDepth \(100\)/),
  ),
  variant(
    'invalid YAML in the frontmatter',
    '---\nthreats_open: 0\nnotes: [unclosed\n---\n',
    'block',
    unreadable(
      /^gsd-check: \.planning\/phases\/04-ship\/04-SECURITY\.md: invalid YAML in the frontmatter at line 4: unexpected end of the stream within a flow collection\n$/,
    ),
  ),
  // GSD's defects, not copied (D30).
  variant('an empty value against {}', '---\nthreats_open:\n---\n', 'pass', { differs: 'D30', check: 'block' }, { equals: {} }),
  variant('"field": "__proto__" against {}', '---\nthreats_open: 0\n---\n', 'pass', { differs: 'D30', check: 'block' }, { field: '__proto__', equals: {} }),
  variant('U+E000 in a value', '---\nthreats_open: 0\nnote: \ue000\n---\n', 'block', { differs: 'D30', check: 'pass' }),
  variant('an empty frontmatter, then a second --- block', '---\n---\nthreats_open: 0\n---\n', 'pass', { differs: 'D30', check: 'block' }),
  // The cap (D31).
  variant('a frontmatter over 64 KiB', `---\nthreats_open: 0\n#${'x'.repeat(64 * 1024)}\n---\n`, 'pass', {
    differs: 'D31',
    check: 'error',
    expect: (gsd, check) => assert.match(check.stderr, /the frontmatter is larger than 64 KiB/),
  }),
];
