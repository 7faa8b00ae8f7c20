// One generated-shape case per classifier: the smallest input that shows
// its difference. compat/test/generative.test.mjs runs each through both
// tools and holds that it differs and that the classifier it names, and no
// earlier one, recognises it; so every id here is also shown by a case.
import { commandCase, findPhaseCase, frontmatterCase, layoutCase, stateCase, withForm } from './arbitraries.mjs';

const PHASE = '.planning/phases/04-ship';
const TRUE = { command: 'true' };

export const EXAMPLES = [
  { id: 'D13', name: 'an unknown flag', case: withForm(commandCase(TRUE), 'unknown') },
  { id: 'D50', name: '--phase-dir=<dir>', case: withForm(commandCase({ command: 'test -n "${PHASE_DIR}"', phase: { dir: PHASE } }), 'joined', 1) },
  { id: 'D50', name: '--predicate=<json>', case: withForm(commandCase(TRUE), 'joined', 0) },
  { id: 'D51', name: 'a repeated --phase-number', case: withForm(commandCase({ ...TRUE, phase: { number: '04' } }), 'repeated', 1) },
  { id: 'D51', name: 'a stray argument', case: withForm(commandCase(TRUE), 'stray') },
  { id: 'D52', name: '--version', case: withForm(commandCase(TRUE), '--version') },
  { id: 'D52', name: '-V', case: withForm(commandCase(TRUE), '-V') },
  { id: 'D51', name: 'a repeated --cwd', case: withForm(commandCase(TRUE), 'repeated global', 0, 0) },
  { id: 'D52', name: '-h as the value of --cwd', case: withForm(commandCase(TRUE), 'help', 0, 20) },
  { id: 'D52', name: '-h after --', case: withForm(commandCase(TRUE), 'help', 0, 25) },
  { id: 'D62', name: '--predicate before the command', case: withForm(commandCase(TRUE), 'own first', 0) },
  {
    id: 'D62',
    name: '--phase-number between the command words',
    case: withForm(commandCase({ command: '[ "$PHASE_NUMBER" = 04 ]', phase: { number: '04' } }), 'own between', 1),
  },
  { id: 'D16', name: 'a phase number that is not one', case: commandCase({ ...TRUE, phase: { number: '$(id)' } }) },
  { id: 'D16', name: 'a placeholder in single quotes', case: commandCase({ command: "[ '${PHASE_NUMBER}' = 04 ]", phase: { number: '04' } }) },
  { id: 'D14', name: 'a misspelled field', case: commandCase({ ...TRUE, extra: { timeOut: 5 } }) },
  { id: 'D14', name: 'constructor as kind', case: commandCase({ ...TRUE, kind: 'constructor' }) },
  { id: 'D19', name: 'a timeout under a millisecond', case: commandCase({ ...TRUE, timeout: 0.0005 }) },
  { id: 'D56', name: 'unbraced $PHASE_DIR', case: commandCase({ command: '[ -n "$PHASE_DIR" ]', phase: { dir: PHASE } }) },
  { id: 'D56', name: '${PHASE_DIR:-x}', case: commandCase({ command: '[ "${PHASE_DIR:-x}" = x ]', phase: { dir: PHASE } }) },
  { id: 'D56', name: '${#PHASE_NUMBER}', case: commandCase({ command: '[ "${#PHASE_NUMBER}" -eq 2 ]', phase: { number: '04' } }) },
  { id: 'D56', name: '$((PHASE_NUMBER+1))', case: commandCase({ command: '[ "$((PHASE_NUMBER+1))" -eq 5 ]', phase: { number: '4' } }) },
  { id: 'D56', name: 'an inherited PHASE_DIR', case: commandCase({ command: '[ "$PHASE_DIR" = /inherited ]', env: { PHASE_DIR: '/inherited' } }) },
  { id: 'D54', name: 'standard input is /dev/null', case: commandCase({ command: 'test -c /dev/stdin' }) },
  // The group's leader is gsd-check's sh that reports how the command ended (D18), never its caller.
  { id: 'D54', name: 'a session of its own', case: commandCase({ command: 'test "$(ps -o comm= -p "$(ps -o pgid= -p $$ | tr -d \' \')")" = sh' }) },
  {
    id: 'D53',
    name: 'an artifact name with a path',
    case: layoutCase({ artifact: 'phases/SECURITY.md', files: [['.planning/phases/SECURITY.md', 0]], phase: { dir: PHASE } }),
  },
  { id: 'D4', name: 'the project ledger with --phase-dir', case: layoutCase({ files: [['.planning/SECURITY.md', 0]], phase: { dir: PHASE } }) },
  { id: 'D5', name: '--phase-number alone', case: layoutCase({ files: [[`${PHASE}/04-SECURITY.md`, 0]], phase: { number: '4' } }) },
  { id: 'D57', name: 'an archived milestone phase', case: findPhaseCase({ archived: ['04-ship'], number: '4' }) },
  { id: 'D57', name: 'a custom id with no number', case: findPhaseCase({ dirs: ['notes'], number: 'notes' }) },
  { id: 'D7', name: '0.0', case: frontmatterCase({ value: '0.0' }) },
  { id: 'D7', name: 'True', case: frontmatterCase({ value: 'True', equals: true }) },
  { id: 'D7', name: '~', case: frontmatterCase({ value: '~', equals: null }) },
  { id: 'D7', name: '[0] against [0]', case: frontmatterCase({ value: '[0]', equals: [0] }) },
  { id: 'D9', name: '!!int 0', case: frontmatterCase({ value: '!!int 0' }) },
  { id: 'D9', name: 'an anchor after a repaired colon', case: frontmatterCase({ value: '&n 0', before: ['title: Phase 4: Ship'] }) },
  { id: 'D8', name: 'a key given twice', case: frontmatterCase({ value: '0', before: ['threats_open: 2'] }) },
  { id: 'D9', name: 'a flow sequence never closed', case: frontmatterCase({ value: '0', after: ['notes: [unclosed'] }) },
  { id: 'D10', name: '... as the end', case: frontmatterCase({ value: '0', close: '...\n' }) },
  { id: 'D31', name: 'over 64 KiB', case: frontmatterCase({ value: '0', special: 'over-64k' }) },
  { id: 'D9', name: 'a control character', case: frontmatterCase({ value: '0', after: ['note: a\u0001b'] }) },
  { id: 'D30', name: '"field": "__proto__"', case: frontmatterCase({ value: '0', field: '__proto__', equals: {} }) },
  { id: 'D30', name: 'an empty frontmatter, then a block', case: frontmatterCase({ value: '0', special: 'empty-block-first' }) },
  { id: 'D30', name: 'U+E000', case: frontmatterCase({ value: '0', special: 'u+e000' }) },
  { id: 'D55', name: '--pick details', case: withForm(commandCase(TRUE), 'pick-details') },
  { id: 'D30', name: 'an empty value against {}', case: frontmatterCase({ value: '', equals: {} }) },
  { id: 'D7', name: 'an empty value against null', case: frontmatterCase({ value: '', equals: null }) },
  {
    id: 'D66',
    name: 'STATE.md: an anchor after a line GSD repairs',
    case: stateCase({ open: '---\n', frontmatter: ['title: Phase 4: Ship', 'current_phase: 3', 'n: &a 1'] }),
  },
  { id: 'D66', name: 'STATE.md over 256 KiB', case: stateCase({ open: '---\n', frontmatter: ['current_phase: 3'], special: 'over-256k' }) },
];
