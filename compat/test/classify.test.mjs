// The classifiers without the tools: answers written by hand, so that a
// classifier is seen to recognise its difference and, as much, to leave
// alone a case its difference does not explain (which is then a bug to
// report, not a decision).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandCase, frontmatterCase, stateCase, withForm } from '../generative/arbitraries.mjs';
import { classify } from '../generative/classify.mjs';

// An answer as run-case.mjs reduces it, from the envelope printed.
function evaluated(envelope) {
  return { status: 0, signal: null, stdout: JSON.stringify(envelope), stderr: '', ranIn: null, envelope, verdict: envelope.block ? 'block' : 'pass' };
}
const refusedWith = (stderr) => ({ status: 2, signal: null, stdout: '', stderr, ranIn: null, envelope: undefined, verdict: 'error' });
// GSD's block: its message, and the value it read.
const gsdBlocks = (actual, expected) =>
  evaluated({
    block: true,
    message: 'Frontmatter field "threats_open" in SECURITY.md is …',
    details: { kind: 'artifact-frontmatter-equals', match: false, actual, expected },
  });
const gsdPasses = () =>
  evaluated({
    block: false,
    message: 'Frontmatter field "threats_open" matches expected value (0)',
    details: { kind: 'artifact-frontmatter-equals', match: true },
  });
// gsd-check's pass, with the text it read.
const checkPasses = (actual) =>
  evaluated({
    block: false,
    message: 'Frontmatter field "threats_open" matches …',
    details: { kind: 'artifact-frontmatter-equals', match: true, actual, fieldPresent: true },
  });
const ANCHOR = 'gsd-check: .planning/phases/04-ship/04-SECURITY.md: the frontmatter uses an anchor or alias (& or *), which GSD refuses\n';

test('D7: typed equality item by item explains a list and a mapping', () => {
  const list = frontmatterCase({ value: '[0]', equals: [0] });
  assert.equal(classify(list, gsdBlocks(['0'], [0]), checkPasses(['0']))?.id, 'D7');
  const hex = frontmatterCase({ value: '[1, 0x10]', equals: [1, 16] });
  assert.equal(classify(hex, gsdBlocks(['1', '0x10'], [1, 16]), checkPasses(['1', '0x10']))?.id, 'D7');
  const mapping = frontmatterCase({ value: '{a: 0.0}', equals: { a: 0 } });
  assert.equal(classify(mapping, gsdBlocks({ a: '0.0' }, { a: 0 }), checkPasses({ a: '0.0' }))?.id, 'D7');
});

test('D7 does not take a pass that typed equality does not explain', () => {
  // A quoted item is text to YAML 1.2 too: a pass would be a bug.
  const quoted = frontmatterCase({ value: '["0"]', equals: [0] });
  assert.equal(classify(quoted, gsdBlocks(['0'], [0]), checkPasses(['0'])), undefined);
  // Another value, or another length, or another key.
  const other = frontmatterCase({ value: '[1]', equals: [0] });
  assert.equal(classify(other, gsdBlocks(['1'], [0]), checkPasses(['1'])), undefined);
  const longer = frontmatterCase({ value: '[0, 0]', equals: [0] });
  assert.equal(classify(longer, gsdBlocks(['0', '0'], [0]), checkPasses(['0', '0'])), undefined);
  const key = frontmatterCase({ value: '{b: 0}', equals: { a: 0 } });
  assert.equal(classify(key, gsdBlocks({ b: '0' }, { a: 0 }), checkPasses({ b: '0' })), undefined);
  // gsd-check read something else than the text GSD read.
  const list = frontmatterCase({ value: '[0]', equals: [0] });
  assert.equal(classify(list, gsdBlocks(['0'], [0]), checkPasses([0])), undefined);
});

test('D9: an anchor after a line GSD repairs, which GSD reads', () => {
  const after = frontmatterCase({ value: '&n 0', before: ['title: Phase 4: Ship'] });
  assert.equal(classify(after, gsdPasses(), refusedWith(ANCHOR))?.id, 'D9');
});

test('D9 does not take an anchor GSD reaches first', () => {
  // The anchor comes before the repaired line: GSD's anchor pass refuses it,
  // so GSD evaluating it would be a difference D9 does not explain.
  const before = frontmatterCase({ value: '&n 0', after: ['title: Phase 4: Ship'] });
  assert.equal(classify(before, gsdPasses(), refusedWith(ANCHOR)), undefined);
  const alone = frontmatterCase({ value: '&n 0' });
  assert.equal(classify(alone, gsdPasses(), refusedWith(ANCHOR)), undefined);
});

// The command line's classifiers: a line form alone is not enough.
const TRUE = { command: 'true' };
const answer = (status, stdout, stderr = '') => ({
  status,
  signal: null,
  stdout,
  stderr,
  ranIn: null,
  envelope: undefined,
  verdict: status === 0 ? 'output' : 'error',
});
const passes = () => evaluated({ block: false, message: 'command exited 0', details: { kind: 'command-exit-zero' } });
const HELP = 'Usage: gsd-check check predicate (--predicate <json> | --predicate-file <path>) [options]\n';

test('D62 takes a moved flag only where GSD failed on it and gsd-check answered', () => {
  const first = withForm(commandCase(TRUE), 'own first', 0);
  const unknown = answer(1, '', 'Error: Unknown command: --predicate\n');
  assert.equal(classify(first, unknown, passes())?.id, 'D62');
  assert.equal(classify(first, unknown, refusedWith('gsd-check: unknown flag --bogus\n')), undefined);
  assert.equal(classify(first, answer(1, '', 'Error: Invalid --cwd: /x\n'), passes()), undefined);
  const between = withForm(commandCase(TRUE), 'own between', 0);
  assert.equal(classify(between, answer(1, '', 'Error: Unknown check subcommand. Available: …\n'), passes())?.id, 'D62');
  assert.equal(classify(between, unknown, passes()), undefined);
});

test("D52 takes help only where GSD took the spelling as a global flag's value, or after --", () => {
  const asValue = withForm(commandCase(TRUE), 'help', 0, 20);
  assert.equal(classify(asValue, answer(1, '', 'Error: Invalid --cwd: /p/-h\n'), answer(0, HELP))?.id, 'D52');
  assert.equal(classify(asValue, answer(1, '', 'Error: Invalid --cwd: /p/-h\n'), refusedWith('gsd-check: --cwd -h: no such directory\n')), undefined);
  // The same spelling where GSD prints its usage too: no difference D52 explains.
  const last = withForm(commandCase(TRUE), 'help', 0, 10);
  assert.equal(classify(last, answer(1, '', 'Error: Invalid --cwd: /p/-h\n'), answer(0, HELP)), undefined);
  const afterEnd = withForm(commandCase(TRUE), 'help', 0, 25);
  assert.equal(
    classify(afterEnd, answer(0, 'Usage: gsd-tools <command>\n'), refusedWith('gsd-check: unexpected argument "-h" (see gsd-check --help)\n'))?.id,
    'D52',
  );
  assert.equal(classify(afterEnd, answer(0, 'Usage: gsd-tools <command>\n'), answer(0, HELP)), undefined);
});

test('D51 takes a repeated global flag only when gsd-check refused the repetition', () => {
  const twice = withForm(commandCase(TRUE), 'repeated global', 0, 1);
  assert.equal(classify(twice, passes(), refusedWith('gsd-check: --ws is given more than once (see gsd-check --help)\n'))?.id, 'D51');
  assert.equal(classify(twice, passes(), refusedWith('gsd-check: --ws "ws1": a workstream name is …\n')), undefined);
});

// STATE.md's: an answer as run-case.mjs reduces state-snapshot's and gsd-check's.
const snapshot = (verdict) => ({ status: 0, signal: null, stdout: '{}', stderr: '', ranIn: null, envelope: undefined, verdict });
const STATE_ANCHOR =
  "gsd-check: --current-phase: .planning/STATE.md: its frontmatter uses an anchor or alias (& or *) past a line where GSD's check for them stops, which gsd-check does not read\n";

test("D66 takes an anchor in STATE.md only where GSD's check for anchors stops before it", () => {
  const after = stateCase({ open: '---\n', frontmatter: ['title: Phase 4: Ship', 'current_phase: 3', 'n: &a 1'] });
  assert.equal(classify(after, snapshot('phase 3'), refusedWith(STATE_ANCHOR))?.id, 'D66');
  assert.equal(classify(after, snapshot('no phase'), refusedWith(STATE_ANCHOR))?.id, 'D66');
  // GSD reaches this anchor first and reads no frontmatter: gsd-check must read the body too.
  const before = stateCase({ open: '---\n', frontmatter: ['n: &a 1', 'title: Phase 4: Ship', 'current_phase: 3'] });
  assert.equal(classify(before, snapshot('no phase'), refusedWith(STATE_ANCHOR)), undefined);
  // Another refusal, or GSD failing too.
  assert.equal(classify(after, snapshot('phase 3'), refusedWith('gsd-check: --current-phase: .planning/STATE.md names no phase: …\n')), undefined);
  assert.equal(classify(after, snapshot('error'), refusedWith(STATE_ANCHOR)), undefined);
});

test('D66 takes the 256 KiB refusal only for a file past it', () => {
  const big = stateCase({ open: '---\n', frontmatter: ['current_phase: 3'], special: 'over-256k' });
  const over = refusedWith('gsd-check: --current-phase: .planning/STATE.md is larger than 256 KiB\n');
  assert.equal(classify(big, snapshot('phase 3'), over)?.id, 'D66');
  assert.equal(classify(stateCase({ open: '---\n', frontmatter: ['current_phase: 3'] }), snapshot('phase 3'), over), undefined);
});
