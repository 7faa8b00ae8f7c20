// GSD's command line: its router (the `query` prefix, the command's words
// and flags wherever they stand), its global flags (trimmed `=` values,
// --cwd beside --project-dir, a flag given twice), its help spellings, and
// what reaches a script: `--pick` of null, the workstream a pointer names,
// the message's text.
import assert from 'node:assert/strict';
import { command, frontmatter, RAN_IN } from '../case.mjs';

const TRUE = command('true');
const ASSERT_WS = (name) => command(`test "$GSD_WORKSTREAM" = '${name}'`);
const inProject = (c) => ({ tree: { 'p/.planning': {}, 'p/sub/.planning': {}, 'p/sub2/.planning': {} }, cwd: 'p', ...c });
const usageOf = (gsd, check) => {
  assert.deepEqual([gsd.status, check.status], [0, 0], `${gsd.stderr}${check.stderr}`);
  assert.match(gsd.stdout, /^Usage: gsd-tools /);
  assert.match(check.stdout, /^Usage: gsd-check /);
};
const nested = (depth) => `${'['.repeat(depth)}0${']'.repeat(depth)}`;
const deep = (depth) => `{"kind":"artifact-frontmatter-equals","artifact":"S.md","field":"a","equals":${nested(depth)}}`;

const ROUTER_CASES = [
  inProject({
    name: "GSD's query prefix: query check.predicate",
    line: ['query', 'check.predicate', '--predicate', command(), '--raw'],
    gsd: 'pass',
  }),
  inProject({
    name: "GSD's query prefix: query check predicate, a global flag before it",
    line: ['--raw', 'query', 'check', 'predicate', '--predicate', command()],
    gsd: 'pass',
  }),
  inProject({
    name: 'query twice is an unknown command in both',
    line: ['query', 'query', 'check', 'predicate', '--predicate', TRUE, '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.equal(gsd.stderr, 'Error: Unknown command: query\n');
      assert.match(check.stderr, /^gsd-check: unknown command "query"; /);
    },
  }),
  inProject({
    name: "GSD's global flags before the command and between its words",
    line: ['--cwd', 'sub', 'check', '--raw', '--ws', 'alpha', 'predicate', '--predicate', command(`${RAN_IN}; test "$GSD_WORKSTREAM" = alpha`)],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'p/sub'),
  }),
  inProject({
    name: 'a flag of check predicate before the command: GSD fails, gsd-check evaluates',
    line: ['--phase-number', '04', 'check', 'predicate', '--predicate', command('[ "$PHASE_NUMBER" = 04 ]'), '--raw'],
    gsd: 'error',
    differs: 'D62',
    check: 'pass',
    expect: (gsd) => assert.equal(gsd.stderr, 'Error: Unknown command: --phase-number\n'),
  }),
  inProject({
    name: 'a flag of check predicate between its words: GSD fails, gsd-check evaluates',
    line: ['check', '--predicate', TRUE, 'predicate', '--raw'],
    gsd: 'error',
    differs: 'D62',
    check: 'pass',
    expect: (gsd) => assert.match(gsd.stderr, /^Error: Unknown check subcommand\. /),
  }),
];

const GLOBAL_FLAG_CASES = [
  inProject({
    name: "--cwd='sub ' is trimmed, as GSD trims it",
    args: ['--predicate', command(), '--cwd=sub ', '--raw'],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'p/sub'),
  }),
  inProject({
    name: '--project-dir= with a carriage return (a path read from a CRLF file) is trimmed',
    args: ['--predicate', command(), '--project-dir=sub\r', '--raw'],
    gsd: 'pass',
    expect: (gsd) => assert.equal(gsd.ranIn, 'p/sub'),
  }),
  inProject({
    name: "--ws=' alpha ' is trimmed and exported",
    args: ['--predicate', ASSERT_WS('alpha'), '--ws= alpha ', '--raw'],
    gsd: 'pass',
  }),
  inProject({
    name: 'the spaced --cwd is taken as it is: --cwd "sub " names no directory in both',
    args: ['--predicate', command(), '--cwd', 'sub ', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: Invalid --cwd: .*\/p\/sub \n$/);
      assert.equal(check.stderr, 'gsd-check: --cwd sub : no such directory\n');
    },
  }),
  inProject({
    name: '--cwd is checked beside --project-dir, first',
    args: ['--predicate', command(), '--cwd', 'nowhere', '--project-dir', 'sub2', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: Invalid --cwd: .*\/p\/nowhere\n$/);
      assert.equal(check.stderr, 'gsd-check: --cwd nowhere: no such directory\n');
      assert.equal(check.ranIn, null);
    },
  }),
  inProject({
    name: "--exit-contract= is not trimmed: ' v2' is refused by both",
    args: ['--predicate', TRUE, '--exit-contract= v2', '--raw'],
    gsd: 'error',
    differs: 'D1',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: resolveContractVersion: unrecognized exit-contract version " v2"/);
      assert.match(check.stderr, /^gsd-check: --exit-contract " v2" is not an exit contract; v1 or v2/);
    },
  }),
  ...[
    [['--ws', 'ws1', '--ws', 'ws2'], ASSERT_WS('ws1'), '--ws'],
    [['--cwd', 'sub', '--cwd', 'sub2'], command(`${RAN_IN}; [ "$(basename "$PWD")" = sub ]`), '--cwd'],
    [['--cwd', 'sub', '--cwd=sub2'], command(`${RAN_IN}; [ "$(basename "$PWD")" = sub2 ]`), '--cwd'],
    [['--exit-contract=v2', '--exit-contract=v1'], TRUE, '--exit-contract'],
  ].map(([flags, predicate, flag]) =>
    inProject({
      name: `GSD keeps the first of a repeated global flag (the first = form for --cwd): ${flags.join(' ')}; gsd-check refuses`,
      args: ['--predicate', predicate, ...flags, '--raw'],
      gsd: 'pass',
      differs: 'D51',
      check: 'error',
      expect: (gsd, check) => assert.equal(check.stderr, `gsd-check: ${flag} is given more than once (see gsd-check --help)\n`),
    }),
  ),
];

const HELP_CASES = [
  ...['-?', '--h', '--usage', '-h'].map((spelling) =>
    inProject({
      name: `${spelling} prints usage, exit 0, in both`,
      args: ['--predicate', TRUE, spelling],
      gsd: 'error', // no envelope: the usage text
      expect: usageOf,
    }),
  ),
  inProject({
    name: "a help spelling as a flag's value of check predicate (--phase-number -h) prints usage in both",
    args: ['--predicate', TRUE, '--phase-number', '-h', '--raw'],
    gsd: 'error',
    expect: usageOf,
  }),
  inProject({
    name: 'a help spelling between the command words prints usage in both',
    line: ['check', '-?', 'predicate', '--predicate', TRUE],
    gsd: 'error',
    expect: usageOf,
  }),
  inProject({
    name: 'help beside a --cwd that is no directory: GSD fails on --cwd first, gsd-check prints help',
    args: ['--predicate', TRUE, '--cwd', 'nowhere', '-h'],
    gsd: 'error',
    differs: 'D52',
    check: 'error',
    expect: (gsd, check) => {
      assert.match(gsd.stderr, /^Error: Invalid --cwd: /);
      assert.deepEqual([check.status, check.stderr], [0, '']);
      assert.match(check.stdout, /^Usage: gsd-check check predicate /);
    },
  }),
  inProject({
    name: '-h as the value of --pick: GSD picks a field named -h and fails, gsd-check prints help',
    args: ['--predicate', TRUE, '--pick', '-h'],
    gsd: 'error',
    differs: 'D52',
    check: 'error',
    expect: (gsd, check) => {
      assert.equal(gsd.stderr, 'Error: --pick "-h": field not found; available top-level keys: block, message, details\n');
      assert.deepEqual([check.status, check.stderr], [0, '']);
    },
  }),
  inProject({
    name: '-h after --: GSD prints usage, gsd-check takes it as a stray argument',
    args: ['--predicate', TRUE, '--', '-h'],
    gsd: 'error',
    differs: 'D52',
    check: 'error',
    expect: (gsd, check) => {
      assert.equal(gsd.status, 0);
      assert.equal(check.stderr, 'gsd-check: unexpected argument "-h" (see gsd-check --help)\n');
    },
  }),
];

const OUTPUT_CASES = [
  inProject({
    name: '--pick of null prints nothing in GSD, an empty line in gsd-check',
    args: ['--predicate', command('exit 4'), '--pick', 'details.signal'],
    gsd: 'error', // no envelope: the bare value
    differs: 'D12',
    check: 'error',
    expect: (gsd, check) => {
      assert.deepEqual([gsd.status, gsd.stdout, gsd.stderr], [0, '', '']);
      assert.deepEqual([check.status, check.stdout, check.stderr], [0, '\n', '']);
    },
  }),
  inProject({
    name: 'a pointer naming a workstream that is a regular file: both export it',
    tree: { 'p/.planning/active-workstream': 'ws9\n', 'p/.planning/workstreams/ws9': 'a file\n' },
    args: ['--predicate', ASSERT_WS('ws9'), '--raw'],
    gsd: 'pass',
  }),
  inProject({
    name: '.planning/active-workstream that is a directory: every GSD call fails (EISDIR), gsd-check reads no pointer',
    tree: { 'p/.planning/active-workstream': {} },
    args: ['--predicate', command('test -z "${GSD_WORKSTREAM+set}"'), '--raw'],
    gsd: 'error',
    differs: 'D61',
    check: 'pass',
    expect: (gsd) => assert.equal(gsd.stderr, 'Error: EISDIR: illegal operation on a directory, read\n'),
  }),
  inProject({
    name: 'a predicate nested 65 levels deep: GSD blocks with the value, gsd-check refuses; 64 levels evaluate in both',
    tree: { 'p/.planning': {}, 'p/S.md': '---\na: 1\n---\n' },
    args: ['--predicate', deep(65), '--raw'],
    gsd: 'block',
    differs: 'D63',
    check: 'error',
    expect: (gsd, check) => {
      assert.ok(gsd.envelope.message.endsWith(`expected ${nested(65)}`), gsd.envelope.message);
      assert.equal(check.stderr, 'gsd-check: invalid predicate: predicate.equals: nests deeper than 64 levels\n');
    },
  }),
  inProject({
    name: 'a predicate nested 64 levels deep evaluates in both',
    tree: { 'p/.planning': {}, 'p/S.md': '---\na: 1\n---\n' },
    args: ['--predicate', deep(63), '--raw'],
    gsd: 'block',
  }),
  inProject({
    name: 'NUL, BEL, backspace and U+202E in the output: GSD copies them, gsd-check shows escapes',
    args: ['--predicate', command("printf 'a\\000b\\007c\\010d\\342\\200\\256e' >&2; exit 1"), '--raw'],
    gsd: 'block',
    differs: 'D59',
    check: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'command exited 1: a\u0000b\u0007c\bd\u202ee');
      assert.equal(check.envelope.message, 'command exited 1: a\\x00b\\x07c\\x08d\\u202ee');
    },
  }),
  inProject({
    name: 'a field that is not there: is missing in gsd-check, is undefined in GSD',
    tree: { 'p/.planning': {}, 'p/S.md': '---\na: 1\n---\n', 'p/N.md': 'no frontmatter\n' },
    args: ['--predicate', frontmatter('S.md', 'zz', 0), '--raw'],
    gsd: 'block',
    differs: 'D60',
    check: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'Frontmatter field "zz" in S.md is undefined, expected 0');
      assert.equal(check.envelope.message, 'Frontmatter field "zz" in S.md is missing, expected 0');
      assert.equal(check.envelope.details.fieldPresent, false);
    },
  }),
  inProject({
    name: 'a file with no frontmatter: is missing, and why, in gsd-check; is undefined in GSD',
    tree: { 'p/.planning': {}, 'p/N.md': 'no frontmatter\n' },
    args: ['--predicate', frontmatter('N.md', 'a', 0), '--raw'],
    gsd: 'block',
    differs: 'D60',
    check: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'Frontmatter field "a" in N.md is undefined, expected 0');
      assert.equal(check.envelope.message, 'Frontmatter field "a" in N.md is missing: the file has no frontmatter (its first line is not ---), expected 0');
    },
  }),
];

export const LINE_CASES = [...ROUTER_CASES, ...GLOBAL_FLAG_CASES, ...HELP_CASES, ...OUTPUT_CASES];
