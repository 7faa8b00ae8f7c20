// The generator of the generative differential: fast-check arbitraries of
// whole cases (a project tree, the arguments after `check predicate`, the
// environment), built from the inputs GSD users have and the edges an
// outsider tries. Every case also carries `meta`, what was chosen, so that a
// classifier can tell which difference a case shows from the case itself,
// never from message text alone.
//
// A case is plain JSON (a tree entry may be `{ latin1 }` or `{ link }`), so
// a failing one prints as its own reproduction.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RAN_IN = 'pwd -P > "$COMPAT_RAN_IN"';
const PHASE = '.planning/phases/04-ship';

// ─── Phase values and where the project is ──────────────────────────────────

const phaseNumbers = fc.constantFrom(undefined, undefined, '04', '04', '4', '4.1', '12A', 'CK-01', '5', '', 'x y', '$(id)');
const phaseDirs = fc.constantFrom(undefined, undefined, PHASE, PHASE, `./${PHASE}/`, 'missing', '../outside', '', '.planning/phases/linked');
const reqIds = fc.constantFrom(undefined, undefined, undefined, 'REQ-01', 'REQ-07,REQ-08', 'TBD', 'REQ-01 (partial), AUTH/01', 'n/a', '');
// What the caller's environment already holds: a workflow exports these.
const inherited = fc.constantFrom(undefined, { PHASE_DIR: '/inherited' }, { PHASE_NUMBER: '9' }, { PHASE_REQ_IDS: 'OLD-1' });

const phaseArgs = fc.record({ number: phaseNumbers, dir: phaseDirs, reqIds }).map(({ number, dir, reqIds: ids }) => ({
  number,
  dir,
  reqIds: ids,
}));

function phaseArgv({ number, dir, reqIds: ids }) {
  const argv = [];
  if (dir !== undefined) argv.push('--phase-dir', dir);
  if (number !== undefined) argv.push('--phase-number', number);
  if (ids !== undefined) argv.push('--phase-req-ids', ids);
  return argv;
}

// The project every case starts from: a root with `.planning`, the phase
// directory 04-ship, a decimal and a lettered phase beside it, and a phase
// directory reached through a symbolic link.
function baseTree() {
  return {
    'p/.planning/config.json': '{}',
    [`p/${PHASE}/README.md`]: '# 04\n',
    'p/.planning/phases/04.1-hotfix/README.md': '# 04.1\n',
    'p/.planning/phases/12A-letters/README.md': '# 12A\n',
    'p/.planning/phases/linked': { link: '04-ship' },
    'outside/README.md': 'not the project\n',
  };
}

// ─── Commands ───────────────────────────────────────────────────────────────

// Fragments of a command, each a form a gate's author writes. The forms that
// read the phase values as the shell's own variables (unbraced, with an
// operator, in arithmetic, inside single quotes) are marked: GSD pastes only
// `${NAME}` into the text, gsd-check passes the values as variables (D16).
export const FRAGMENTS = [
  'true',
  'false',
  'exit 3',
  RAN_IN,
  'echo out',
  'echo err >&2',
  'test -n "${PHASE_DIR}"',
  'test -z "${PHASE_NUMBER}"',
  '[ "${PHASE_NUMBER}" = 04 ]',
  'test -d "${PHASE_DIR}"',
  '[ "${PHASE_REQ_IDS}" = TBD ]',
  'test -f "${PHASE_DIR}/README.md"',
  '[ -n "$PHASE_DIR" ]',
  '[ "$PHASE_NUMBER" = 04 ]',
  '[ "${PHASE_DIR:-x}" = x ]',
  '[ "${#PHASE_NUMBER}" -eq 2 ]',
  '[ "$((PHASE_NUMBER+1))" -eq 5 ]',
  "[ '${PHASE_NUMBER}' = 04 ]",
  'test -c /dev/stdin',
  'test "$(ps -o pgid= -p $$ | tr -d \' \')" = "$$"',
  'kill -9 $$',
];
const OPERATORS = [' && ', ' || ', '; '];

const commands = fc
  .tuple(fc.constantFrom(...FRAGMENTS), fc.array(fc.tuple(fc.constantFrom(...OPERATORS), fc.constantFrom(...FRAGMENTS)), { maxLength: 2 }))
  .map(([first, rest]) => first + rest.map(([op, f]) => op + f).join(''));

const timeouts = fc.constantFrom(undefined, undefined, undefined, 5, 0.0005, 0, -1, '5');
const extraFields = fc.constantFrom(undefined, undefined, undefined, { timeOut: 5 }, { description: 'x' });
const kinds = fc.constantFrom('command-exit-zero', 'command-exit-zero', 'command-exit-zero', 'constructor', 'nope');

// A case from what the command family chose.
export function commandCase({ command, timeout, extra, kind = 'command-exit-zero', phase = {}, env }) {
  const predicate = { kind, command, ...(timeout === undefined ? {} : { timeout }), ...extra };
  return {
    family: 'command',
    tree: baseTree(),
    cwd: 'p',
    env: env ?? {},
    argv: ['--predicate', JSON.stringify(predicate), ...phaseArgv(phase), '--raw'],
    meta: { predicate, phase, form: 'as-is' },
  };
}

export const commandCases = fc
  .record({ command: commands, timeout: timeouts, extra: extraFields, kind: kinds, phase: phaseArgs, env: inherited })
  .map(commandCase);

// ─── Frontmatter ────────────────────────────────────────────────────────────

// Values as they are written after `key: `.
export const VALUES = [
  '0',
  '"0"',
  "'0'",
  '0.0',
  '00',
  '0x0',
  '-0',
  '+0',
  '2',
  '04',
  '1.10',
  '1.1',
  'true',
  'True',
  'TRUE',
  'false',
  '~',
  'null',
  'Null',
  '',
  '[0]',
  '{a: 1}',
  '[]',
  '{}',
  '!!int 0',
  '!!str 0',
  '!!float 0',
  '&n 0',
  '0 # reviewed',
  'Phase 4: Ship',
  '2026-06-08: reviewed',
  'done:',
  '"a: b"',
  'José',
  'a\u0001b',
  '"\\u0000"',
  '|\n  0',
  '>-\n  0',
];
const EQUALS = [0, '0', 4, '04', 1.1, '1.10', true, 'true', false, null, 'null', '', 2, [], {}, [0], 'Phase 4: Ship', 'José', 'done:'];
const KEYS = ['threats_open', 'threats_open', 'threats_open', 'Threats_Open', 'null', '~', '1.50', '__proto__', 'constructor', '"threats_open"'];
// Lines around the key's own.
const OTHER_LINES = ['status: done', 'title: Phase 4: Ship', '# a comment', '', 'nested:\n  a: 1', 'list:\n  - a', 'threats_open: 2', 'tags: !!set {a}'];
const OPENS = ['---\n', '---\n', '---\n', '--- \n', '\ufeff---\n', '---\r\n', ''];
const CLOSES = ['---\n', '---\n', '---\n', '---', '...\n', '--- # end of frontmatter\n', '---  \n', ''];
const BODIES = ['', '# Security\n', '\n---\nthreats_open: 0\n---\n'];
// Shapes beyond one block of lines: an empty block before the real one, the
// private-use character GSD reserves, a Latin-1 file, and the caps.
const SPECIALS = [undefined, undefined, undefined, undefined, 'empty-block-first', 'u+e000', 'latin1', 'over-64k', 'deep-65'];

function frontmatterText({ open, lines, close, body, special }) {
  const crlf = open === '---\r\n';
  let inner = lines.join('\n');
  if (special === 'u+e000') inner += '\nnote: \ue000';
  if (special === 'over-64k') inner += `\npad: ${'x'.repeat(70_000)}`;
  if (special === 'deep-65') inner += `\ndeep:${Array.from({ length: 65 }, (_, i) => `\n${'  '.repeat(i + 1)}k${i}:`).join('')} 1`;
  let text = `${open}${inner}${inner === '' ? '' : '\n'}${close}${body}`;
  if (crlf) text = text.replace(/\r?\n/g, '\r\n');
  if (special === 'empty-block-first') text = `---\n${text}`;
  return text;
}

// A case from what the frontmatter family chose.
export function frontmatterCase({
  key = 'threats_open',
  value,
  equals = 0,
  field = 'key',
  before = [],
  after = [],
  open = '---\n',
  close = '---\n',
  body = '',
  special,
}) {
  const m = { key, value, equals, before, after, open, close, body, special };
  const name = field === 'key' ? key.replace(/^"(.*)"$/, '$1') : field;
  const line = value === '' ? `${key}:` : `${key}: ${value}`;
  const lines = [...before, line, ...after];
  const text = frontmatterText({ ...m, lines });
  const file = special === 'latin1' ? { latin1: text.replace(/José/g, 'Jos\u00e9') } : text;
  const predicate = { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: name, equals };
  return {
    family: 'frontmatter',
    tree: { ...baseTree(), [`p/${PHASE}/04-SECURITY.md`]: file },
    cwd: 'p',
    env: {},
    argv: ['--predicate', JSON.stringify(predicate), '--phase-dir', PHASE, '--raw'],
    meta: { ...m, field: name, lines, text, predicate, form: 'as-is' },
  };
}

export const frontmatterCases = fc
  .record({
    key: fc.constantFrom(...KEYS),
    value: fc.constantFrom(...VALUES),
    equals: fc.constantFrom(...EQUALS),
    field: fc.constantFrom('key', 'key', 'key', 'threats_open', '__proto__'),
    before: fc.array(fc.constantFrom(...OTHER_LINES), { maxLength: 2 }),
    after: fc.array(fc.constantFrom(...OTHER_LINES), { maxLength: 2 }),
    open: fc.constantFrom(...OPENS),
    close: fc.constantFrom(...CLOSES),
    body: fc.constantFrom(...BODIES),
    special: fc.constantFrom(...SPECIALS),
  })
  .map(frontmatterCase);

// ─── Layouts: where the artifact is, and how the call names the phase ───────

const PLACES = [
  `${PHASE}/04-SECURITY.md`,
  `${PHASE}/SECURITY.md`,
  `${PHASE}/a-SECURITY.md`,
  `${PHASE}/04-01-SECURITY.md`,
  `${PHASE}/zz-SECURITY.md`,
  '.planning/SECURITY.md',
  'SECURITY.md',
  '.planning/phases/04.1-hotfix/04.1-SECURITY.md',
  '.planning/phases/12A-letters/12A-SECURITY.md',
];
const ARTIFACTS = ['SECURITY.md', 'SECURITY.md', 'SECURITY.md', 'phases/SECURITY.md', '../SECURITY.md', '.', 'security.md', 'URITY.md'];
const STARTS = ['p', 'p', 'p', 'p/.planning/phases', 'p/src'];

// A case from what the layout family chose.
export function layoutCase({ files = [], artifact = 'SECURITY.md', cwd = 'p', phase = {}, directoryArtifact = false }) {
  const tree = { ...baseTree(), 'p/src/README.md': 'src\n' };
  for (const [place, value] of files) tree[`p/${place}`] = `---\nthreats_open: ${value}\n---\n`;
  if (directoryArtifact) tree[`p/${PHASE}/00-SECURITY.md/README.md`] = 'a directory\n';
  const predicate = { kind: 'artifact-frontmatter-equals', artifact, field: 'threats_open', equals: 0 };
  return {
    family: 'layout',
    tree,
    cwd,
    env: {},
    argv: ['--predicate', JSON.stringify(predicate), ...phaseArgv(phase), '--raw'],
    meta: { files, artifact, cwd, phase, directoryArtifact, predicate, form: 'as-is' },
  };
}

export const layoutCases = fc
  .record({
    files: fc.uniqueArray(fc.tuple(fc.constantFrom(...PLACES), fc.constantFrom(0, 2)), { minLength: 0, maxLength: 3, selector: ([place]) => place }),
    artifact: fc.constantFrom(...ARTIFACTS),
    cwd: fc.constantFrom(...STARTS),
    phase: phaseArgs,
    directoryArtifact: fc.constantFrom(false, false, false, true),
  })
  .map(layoutCase);

// ─── Argument forms, over any of the families above ─────────────────────────

const VALUE_FLAGS = ['--predicate', '--phase-dir', '--phase-number', '--phase-req-ids'];
export const FORMS = [
  'joined',
  'repeated',
  'stray',
  'unknown',
  'no-raw',
  'pick-block',
  'pick-message',
  'pick-details',
  '-h',
  '--help',
  '--usage',
  '--version',
  '-V',
  '--cwd= .',
  '--cwd .',
  '--json-errors',
];

function applyForm(argv, form, flagIndex) {
  const valueAt = argv.flatMap((a, i) => (VALUE_FLAGS.includes(a) ? [i] : []));
  const at = valueAt.length === 0 ? -1 : valueAt[flagIndex % valueAt.length];
  switch (form) {
    case 'joined':
      return at === -1 ? argv : [...argv.slice(0, at), `${argv[at]}=${argv[at + 1]}`, ...argv.slice(at + 2)];
    case 'repeated':
      return at === -1 ? argv : [...argv.slice(0, at + 2), ...argv.slice(at, at + 2), ...argv.slice(at + 2)];
    case 'stray':
      return [...argv, 'extra'];
    case 'unknown':
      return [...argv, '--bogus', 'x'];
    case 'no-raw':
      return argv.filter((a) => a !== '--raw');
    case 'pick-block':
      return [...argv, '--pick', 'block'];
    case 'pick-message':
      return [...argv, '--pick', 'message'];
    case 'pick-details':
      return [...argv, '--pick', 'details'];
    case '--cwd= .':
      return [...argv, '--cwd=', '.'];
    case '--cwd .':
      return [...argv, '--cwd', '.'];
    case 'as-is':
      return argv;
    default:
      return [...argv, form];
  }
}

// ─── The whole line: where flags stand, GSD's global flags, help, `query` ────
//
// These forms change the words around the arguments too, so a case made by
// one carries `line`, the whole command line (`argv` stays the arguments,
// less the command's words, for the classifiers to read).

const COMMAND = ['check', 'predicate'];
// GSD's global flags, as each may be written once.
const GLOBALS = [['--raw'], ['--cwd', '.'], ['--ws', 'ws1'], ['--exit-contract=v1'], ['--json-errors'], ['--pick', 'block'], ['--cwd=.'], ['--ws=ws1']];
// A value padded with blanks or a carriage return, joined (GSD trims --cwd=,
// --project-dir=, --ws=; not --exit-contract=) or spaced (trimmed by neither).
const PADDED = [
  ['--cwd=. '],
  ['--cwd=.\r'],
  ['--cwd= .\t'],
  ['--project-dir= .'],
  ['--project-dir=.\r\n'],
  ['--ws= ws1\r'],
  ['--ws=ws1 '],
  ['--exit-contract=v1\r'],
  ['--exit-contract= v2'],
  ['--cwd= '],
  ['--ws=\r'],
  ['--cwd', '. '],
  ['--cwd', '.\r'],
  ['--project-dir', '.\r'],
];
// A global flag given twice: GSD keeps the first (the first = form, for
// --cwd, --project-dir and --ws).
const REPEATED = [
  ['--cwd', '.', '--cwd', '.'],
  ['--ws', 'ws1', '--ws', 'ws2'],
  ['--exit-contract=v1', '--exit-contract=v2'],
  ['--cwd', 'src', '--cwd=.'],
  ['--project-dir', '.', '--project-dir', '.'],
  ['--pick', 'block', '--pick', 'message'],
  ['--ws=ws1', '--ws', 'ws2'],
];
export const HELP_SPELLINGS = ['-h', '--help', '-?', '--h', '--usage'];
// Where a help spelling stands: before the command, between its words, at
// the end, as the value of a flag of check predicate, as the value of one of
// GSD's global flags (which GSD takes it as), after `--`.
export const HELP_PLACES = ['first', 'between', 'last', 'check-value', 'global-value', 'after-end'];
const GLOBAL_VALUE_FLAGS = ['--cwd', '--ws', '--pick', '--project-dir'];
export const LINE_FORMS = ['query', 'query spaced', 'global first', 'global between', 'own first', 'own between', 'padded', 'repeated global', 'help'];

const pick = (list, n) => list[n % list.length];

function lineForm(argv, form, flagIndex, variant) {
  const valueAt = argv.flatMap((a, i) => (VALUE_FLAGS.includes(a) ? [i] : []));
  const at = valueAt[flagIndex % valueAt.length];
  const without = (i, n) => [...argv.slice(0, i), ...argv.slice(i + n)];
  switch (form) {
    case 'query':
      return { line: ['query', 'check.predicate', ...argv], argv, meta: {} };
    case 'query spaced':
      return { line: ['query', ...COMMAND, ...argv], argv, meta: {} };
    case 'global first':
    case 'global between': {
      const global = pick(GLOBALS, variant);
      const rest = global[0] === '--raw' ? argv.filter((a) => a !== '--raw') : argv;
      const line = form === 'global first' ? [...global, ...COMMAND, ...rest] : ['check', ...global, 'predicate', ...rest];
      return { line, argv: [...global, ...rest], meta: { global } };
    }
    case 'own first':
    case 'own between': {
      const own = argv.slice(at, at + 2);
      const rest = without(at, 2);
      const line = form === 'own first' ? [...own, ...COMMAND, ...rest] : ['check', ...own, 'predicate', ...rest];
      return { line, argv: [...own, ...rest], meta: { moved: own[0] } };
    }
    case 'padded': {
      const padded = pick(PADDED, variant);
      return { line: [...COMMAND, ...argv, ...padded], argv: [...argv, ...padded], meta: { padded } };
    }
    case 'repeated global': {
      const twice = pick(REPEATED, variant);
      return { line: [...COMMAND, ...argv, ...twice], argv: [...argv, ...twice], meta: { twice } };
    }
    case 'help': {
      const spelling = pick(HELP_SPELLINGS, variant);
      const place = pick(HELP_PLACES, Math.floor(variant / HELP_SPELLINGS.length));
      const meta = { spelling, place };
      if (place === 'first') return { line: [spelling, ...COMMAND, ...argv], argv, meta };
      if (place === 'between') return { line: ['check', spelling, 'predicate', ...argv], argv, meta };
      if (place === 'last') return { line: [...COMMAND, ...argv, spelling], argv, meta };
      if (place === 'after-end') return { line: [...COMMAND, ...argv, '--', spelling], argv, meta };
      if (place === 'check-value') {
        const replaced = [...argv.slice(0, at + 1), spelling, ...argv.slice(at + 2)];
        return { line: [...COMMAND, ...replaced], argv: replaced, meta: { ...meta, flag: argv[at] } };
      }
      const flag = pick(GLOBAL_VALUE_FLAGS, flagIndex);
      return { line: [...COMMAND, ...argv, flag, spelling], argv: [...argv, flag, spelling], meta: { ...meta, flag } };
    }
    default:
      throw new Error(`no line form ${form}`);
  }
}

// A case of any family, its arguments in one of the forms above.
export function withForm(base, form, flagIndex = 0, variant = 0) {
  if (LINE_FORMS.includes(form)) {
    const made = lineForm(base.argv, form, flagIndex, variant);
    return { ...base, argv: made.argv, line: made.line, meta: { ...base.meta, ...made.meta, form, flagIndex, variant } };
  }
  return { ...base, argv: applyForm(base.argv, form, flagIndex), meta: { ...base.meta, form, flagIndex } };
}

export const anyCase = fc
  .record({
    base: fc.oneof({ weight: 3, arbitrary: commandCases }, { weight: 4, arbitrary: frontmatterCases }, { weight: 3, arbitrary: layoutCases }),
    form: fc.oneof(
      { weight: 3, arbitrary: fc.constant('as-is') },
      { weight: 2, arbitrary: fc.constantFrom(...FORMS) },
      { weight: 2, arbitrary: fc.constantFrom(...LINE_FORMS) },
    ),
    flagIndex: fc.nat({ max: 3 }),
    variant: fc.nat({ max: HELP_SPELLINGS.length * HELP_PLACES.length - 1 }),
  })
  .map(({ base, form, flagIndex, variant }) => withForm(base, form, flagIndex, variant));

// ─── Phase lookup: `gsd-tools find-phase` against gsd-check's ───────────────

const PHASE_DIRS = [
  '04-ship',
  '04.1-hotfix',
  '4-legacy',
  '12A-letters',
  '12a-lower',
  '01-02-milestone',
  'CK-07-code',
  'PROJ-42-custom',
  '05-a',
  '05-b',
  '007-long',
  'notes',
  '04',
];
const LOOKED_UP = ['4', '04', '004', '4.1', '04.1', '12A', '12a', '1-2', '01-02', 'CK-07', 'ck-07', 'PROJ-42', '5', '7', '007', '6', 'notes', '4.10', '12'];

// A case from what the phase-lookup family chose.
export function findPhaseCase({ dirs = [], archived = [], number, files = false }) {
  const tree = { 'p/.planning/config.json': '{}', 'p/.planning/phases': {} };
  for (const d of dirs) tree[`p/.planning/phases/${d}/${files ? `${d.split('-')[0]}-01-PLAN.md` : 'README.md'}`] = '# plan\n';
  for (const d of archived) tree[`p/.planning/milestones/v1.0-phases/${d}/README.md`] = '# archived\n';
  return { family: 'find-phase', tree, cwd: 'p', env: {}, argv: [number], meta: { dirs, archived, number, form: 'as-is' } };
}

export const findPhaseCases = fc
  .record({
    dirs: fc.uniqueArray(fc.constantFrom(...PHASE_DIRS), { maxLength: 4 }),
    archived: fc.uniqueArray(fc.constantFrom(...PHASE_DIRS), { maxLength: 1 }),
    number: fc.constantFrom(...LOOKED_UP),
    files: fc.constantFrom(false, true),
  })
  .map(findPhaseCase);

// ─── STATE.md: `gsd-tools state-snapshot` against `--current-phase` ─────────

// The command gsd-check runs: it writes the phase it was given where the
// case reads it back (COMPAT_PHASE_OUT, set by run-case.mjs).
export const PHASE_OUT = 'printf %s "$PHASE_NUMBER" > "$COMPAT_PHASE_OUT"';

// GSD's template (templates/state.md), as a new project's STATE.md holds it
// before any `state` command: the body, from `# Project State` to the end of
// the fenced file.
const TEMPLATE = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@opengsd', 'gsd-core', 'gsd-core', 'templates', 'state.md'),
  'utf8',
);
export const TEMPLATE_BODY = TEMPLATE.slice(TEMPLATE.indexOf('# Project State\n'), TEMPLATE.indexOf('\n```', TEMPLATE.indexOf('# Project State\n')) + 1);
const TEMPLATE_PHASE_LINE = 'Phase: [X] of [Y] ([Phase name])';

// Ids as written: GSD takes the id a value starts with, a project code of
// either case dropped.
const STATE_IDS = ['2', '02', '04', '12.1', '12A', '12a', 'CK-04', 'ck-04', '1-2', 'Phase 3', '3 of 5 (Ship)', 'v1.0', '[X]', '007'];
// A `current_phase:` value as written after the key, blank ones among them.
const CURRENT_PHASE_VALUES = [...STATE_IDS, '"04"', "'12.1'", '', ' ', '[4]', '~', '"CK-04"'];
// Other frontmatter lines, as GSD's state commands write them and beyond:
// a second colon GSD repairs, an anchor (which GSD's first pass refuses,
// unless that repaired line stops it first), YAML js-yaml refuses.
const STATE_FM_LINES = [
  'gsd_state_version: "1.0"',
  'status: executing',
  'status: planning',
  'status: Executing Phase 2',
  'current_phase_name: Tasks',
  'progress:\n  total_phases: 2\n  percent: 50',
  'paused_at: 2026-12-01',
  'last_activity: 2026-06-08: reviewed',
  'title: Phase 4: Ship',
  'n: &a 1',
  'bad: [unclosed',
  '# a comment',
  'stopped_at: "[Description of last completed action]"',
  'note: a\u0000b',
  'note: \ue000',
];
const STATE_OPENS = ['---\n', '---\n', '---\n', '--- \n', '---\t\n', '--- # x\n', ''];
const STATE_CLOSES = ['---\n', '---\n', '---\n', '...\n', '--- # end\n', '----\n', '---  \n', ''];
// Where the body names the phase, and how.
const PHASE_LINES = [
  (id) => `Phase: ${id} of 4 (Tasks)`,
  (id) => `Phase: ${id} (Tasks) — EXECUTING`,
  (id) => `**Phase:** ${id}`,
  (id) => `  **Phase:** ${id} of 4`,
  (id) => `Current Phase: ${id}`,
  (id) => `**Current Phase:** ${id}`,
  (id) => `| Phase | ${id} |`,
  (id) => `| Current Phase | ${id} |`,
  () => TEMPLATE_PHASE_LINE,
  () => 'Phase:',
  (id) => ` Phase: ${id}`,
];
const POSITIONS = ['## Current Position', '## Current Position', '### Current Position', 'none', '## current position ##', '# Current Position'];
// Lines around the phase's: an archive section with a stale phase, fenced
// code, a thematic break, a second block, a status, a pause.
const STATE_BODY_EXTRAS = [
  '## Archive\n\nPhase: 1 of 4 (Setup)',
  '```\n## Current Position\nPhase: 9\n```',
  '---',
  '---\nPhase: 8\n---',
  'Status: In progress',
  '**Status:** Planning',
  '## Session\n\nPaused At: 2026-12-01',
  '| Phase | Plans | Total |\n|---|---|---|\n| 1 | 2 | 3 |',
  'Plan: 1 of 1',
];
// Beyond one file of text: none, a directory, the workstream's (by
// GSD_WORKSTREAM or by the pointer file), Latin-1 bytes, the 256 KiB cap.
const STATE_SPECIALS = [...Array(14).fill(undefined), 'missing', 'directory', 'workstream', 'pointer', 'latin1', 'over-256k'];

// The text of STATE.md from what the state family chose. `extras`: each a
// section or a line, before the phase's section or after it.
export function stateText({
  bom = false,
  open = '',
  frontmatter = [],
  close = '---\n',
  template = false,
  position = '## Current Position',
  phaseLine,
  extras = [],
  eol = '\n',
}) {
  const front = open === '' ? '' : `${open}${frontmatter.map((l) => `${l}\n`).join('')}${close}`;
  const before = extras
    .filter(([, where]) => where === 'before')
    .map(([extra]) => `${extra}\n\n`)
    .join('');
  const after = extras
    .filter(([, where]) => where === 'after')
    .map(([extra]) => `\n${extra}\n`)
    .join('');
  let body;
  if (template) {
    body = TEMPLATE_BODY.replace(TEMPLATE_PHASE_LINE, phaseLine ?? TEMPLATE_PHASE_LINE);
  } else {
    const position_ = position === 'none' ? '' : `${position}\n\n`;
    body = `# Project State\n\n${before}${position_}${phaseLine === undefined ? '' : `${phaseLine}\n`}${after}`;
  }
  const text = `${bom ? '\ufeff' : ''}${front}${body}`;
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}

// A case from what the state family chose.
export function stateCase({ special, ...chosen }) {
  const text = stateText(chosen) + (special === 'over-256k' ? `\n${'x'.repeat(256 * 1024)}\n` : '');
  return { ...stateFileCase(text, special), meta: { ...chosen, special, text, form: 'as-is' } };
}

// A case of one STATE.md's text, placed as `special` says (see
// STATE_SPECIALS; undefined: .planning/STATE.md).
export function stateFileCase(text, special) {
  const tree = { ...baseTree() };
  const env = {};
  if (special === 'directory') tree['p/.planning/STATE.md/README.md'] = 'a directory\n';
  else if (special === 'workstream' || special === 'pointer') {
    // The workstream's STATE.md is the one both read; the root's names another phase.
    tree['p/.planning/STATE.md'] = '---\ncurrent_phase: 77\n---\n';
    tree['p/.planning/workstreams/ws1/STATE.md'] = text;
    if (special === 'workstream') env.GSD_WORKSTREAM = 'ws1';
    else tree['p/.planning/active-workstream'] = 'ws1\n';
  } else if (special === 'latin1') tree['p/.planning/STATE.md'] = { latin1: text.replace(/Tasks/g, 'T\u00e2ches') };
  else if (special !== 'missing') tree['p/.planning/STATE.md'] = text;
  const predicate = { kind: 'command-exit-zero', command: PHASE_OUT };
  return {
    family: 'state',
    tree,
    cwd: 'p',
    env,
    argv: ['--predicate', JSON.stringify(predicate), '--current-phase', '--raw'],
    meta: { special, text, form: 'as-is' },
  };
}

const phaseLines = fc.option(
  fc.tuple(fc.constantFrom(...PHASE_LINES), fc.constantFrom(...STATE_IDS)).map(([line, id]) => line(id)),
  { freq: 5, nil: undefined },
);

export const stateCases = fc
  .record({
    bom: fc.boolean(),
    open: fc.constantFrom(...STATE_OPENS),
    frontmatter: fc
      .tuple(
        fc.array(
          fc.constantFrom(...CURRENT_PHASE_VALUES).map((v) => (v === '' ? 'current_phase:' : `current_phase: ${v}`)),
          { maxLength: 3 },
        ),
        fc.array(fc.constantFrom(...STATE_FM_LINES), { maxLength: 4 }),
      )
      .chain(([phases, others]) => fc.shuffledSubarray([...phases, ...others], { minLength: phases.length + others.length })),
    close: fc.constantFrom(...STATE_CLOSES),
    template: fc.boolean(),
    position: fc.constantFrom(...POSITIONS),
    phaseLine: phaseLines,
    extras: fc.array(fc.tuple(fc.constantFrom(...STATE_BODY_EXTRAS), fc.constantFrom('before', 'after')), { maxLength: 3 }),
    eol: fc.constantFrom('\n', '\n', '\n', '\r\n', '\r\n', '\r'),
    special: fc.constantFrom(...STATE_SPECIALS),
  })
  .map(stateCase);
