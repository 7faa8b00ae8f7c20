// How SECURITY.md's frontmatter reads: GSD 1.14 parses it with js-yaml's
// failsafe schema (every scalar a string, a repeated key last-wins, anything
// unreadable an empty mapping); gsd-check with YAML 1.2's core schema.
import assert from 'node:assert/strict';
import { frontmatter } from '../case.mjs';

const variant = (name, text, gsd, difference) => ({
  name,
  tree: { 'p/.planning/config.json': '{}', 'p/.planning/phases/04-ship/04-SECURITY.md': text },
  cwd: 'p',
  args: ['--predicate', frontmatter('SECURITY.md', 'threats_open', 0), '--phase-dir', '.planning/phases/04-ship', '--raw'],
  gsd,
  ...difference,
});

// A number that YAML 1.2 reads as 0 and GSD's strings-only reading does not.
const asNumber = { differs: 'D7', check: 'pass' };

export const FRONTMATTER_CASES = [
  variant('0', '---\nthreats_open: 0\n---\n', 'pass'),
  variant('"0"', '---\nthreats_open: "0"\n---\n', 'pass'),
  variant("'0'", "---\nthreats_open: '0'\n---\n", 'pass'),
  variant('0.0', '---\nthreats_open: 0.0\n---\n', 'block', asNumber),
  variant('00', '---\nthreats_open: 00\n---\n', 'block', asNumber),
  variant('0x0', '---\nthreats_open: 0x0\n---\n', 'block', asNumber),
  variant('-0', '---\nthreats_open: -0\n---\n', 'block', asNumber),
  variant('+0', '---\nthreats_open: +0\n---\n', 'block', asNumber),
  variant('0 with a trailing comment', '---\nthreats_open: 0 # reviewed\n---\n', 'pass'),
  variant('2 with a trailing comment', '---\nthreats_open: 2 # two open\n---\n', 'block'),
  variant('a quoted key', '---\n"threats_open": 0\n---\n', 'pass'),
  variant('--- fences with trailing blanks', '--- \nthreats_open: 0\n---  \n', 'block', { differs: 'D10', check: 'pass' }),
  variant('... closes the frontmatter', '---\nthreats_open: 0\n...\n', 'block', { differs: 'D10', check: 'pass' }),
  variant('CRLF line ends', '---\r\nthreats_open: 0\r\n---\r\n', 'pass'),
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
  variant('an anchor', '---\nthreats_open: &n 0\n---\n', 'block', { differs: 'D7', check: 'pass' }),
  variant('invalid YAML in the frontmatter', '---\nthreats_open: 0\nnotes: [unclosed\n---\n', 'block', {
    differs: 'D9',
    check: 'error',
    expect: (gsd, check) =>
      assert.match(check.stderr, /^gsd-check: \.planning\/phases\/04-ship\/04-SECURITY\.md: invalid YAML in the frontmatter at line 4: Flow sequence/),
  }),
];
