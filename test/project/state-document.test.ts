import assert from 'node:assert/strict';
import fc from 'fast-check';
import { test } from '../helpers/bounded.ts';
import { readStateDocument, type StateStatus } from '../../src/project/state-document.ts';

const runs = Number(process.env.GSD_CHECK_FUZZ_RUNS ?? 300);

// [phase, source] or the failure's message.
function read(text: string): [string, string] | string {
  const result = readStateDocument(text, 'STATE.md');
  if (!result.ok) {
    assert.equal(result.failure.reason, 'invalid-artifact');
    return result.failure.message;
  }
  return [result.value.phase, result.value.source];
}

const phase = (text: string): string | undefined => {
  const result = readStateDocument(text, 'STATE.md');
  return result.ok ? result.value.phase : undefined;
};

// The body of GSD's template (templates/state.md) as a project's STATE.md
// holds it before any `state.*` command has written a frontmatter.
const TEMPLATE_BODY = [
  '# Project State',
  '',
  '## Project Reference',
  '',
  'See: .planning/PROJECT.md (updated [date])',
  '',
  '**Core value:** [One-liner from PROJECT.md Core Value section]',
  '**Current focus:** [Current phase name]',
  '',
  '## Current Position',
  '',
  'Phase: [X] of [Y] ([Phase name])',
  'Plan: [A] of [B] in current phase',
  'Status: [Ready to plan / Planning / Ready to execute / In progress / Phase complete]',
  'Last activity: [YYYY-MM-DD] — [What happened]',
  '',
  'Progress: [░░░░░░░░░░] 0%',
  '',
  '## Performance Metrics',
  '',
  '| Phase | Plans | Total | Avg/Plan |',
  '|-------|-------|-------|----------|',
  '| - | - | - | - |',
  '',
  '## Session Continuity',
  '',
  'Last session: [YYYY-MM-DD HH:MM]',
  'Stopped at: [Description of last completed action]',
  'Resume file: [Path to .continue-here*.md if exists, otherwise "None"]',
  '',
].join('\n');

test("GSD's three places, in its order: current_phase in the frontmatter, a Current Phase: field, a Phase: field", () => {
  const body = '# Project State\n\n## Current Position\n\nCurrent Phase: 3\nPhase: 2 of 2 (Tasks)\n';
  assert.deepEqual(read(`---\ncurrent_phase: 4\n---\n${body}`), ['4', 'frontmatter']);
  assert.deepEqual(read(body), ['3', 'current-phase-field']);
  assert.deepEqual(read('# Project State\n\n## Current Position\n\nPhase: 2 of 2 (Tasks)\n'), ['2', 'phase-field']);
  // Each place that starts with no phase id is passed over for the next.
  assert.deepEqual(read(`---\ncurrent_phase: v1.0\n---\n${body}`), ['3', 'current-phase-field']);
  assert.deepEqual(read('Current Phase: [X]\nPhase: 5\n'), ['5', 'phase-field']);
});

test("the body's fields are read under ## Current Position (or ###), and anywhere only when there is no such section", () => {
  const archive = '## Archive\n\nPhase: 1 of 2\n';
  assert.deepEqual(read(`# S\n\n${archive}\n## Current Position\n\nPhase: 2 of 2\n`), ['2', 'phase-field']);
  assert.deepEqual(read(`# S\n\n### Current Position\n\nPhase: 2 of 2\n\n${archive}`), ['2', 'phase-field']);
  assert.deepEqual(read(`# S\n\n${archive}`), ['1', 'phase-field']);
  // The section ends at the next heading of its level or above; a deeper one is inside it.
  assert.deepEqual(read('## Current Position\n\n### Detail\n\nPhase: 6\n'), ['6', 'phase-field']);
  assert.match(String(read('## Current Position\n\nnothing\n\n## Next\n\nPhase: 6\n')), /names no phase/);
  // Current Phase: is looked for there too, not in the whole body.
  assert.deepEqual(read('## Old\n\nCurrent Phase: 9\n\n## Current Position\n\nPhase: 2\n'), ['2', 'phase-field']);
  // The heading's text is matched in any case, its closing #s dropped; one in a fenced block is code.
  assert.deepEqual(read('## Archive\nPhase: 1\n## current POSITION ##\nPhase: 3\n'), ['3', 'phase-field']);
  assert.deepEqual(read('```\n## Current Position\n```\nPhase: 1\n'), ['1', 'phase-field']);
  assert.deepEqual(read('~~~~\n## Current Position\n~~~\nPhase: 2\n~~~~\n## Current Position\nPhase: 3\n'), ['3', 'phase-field']);
  // A fence closes only at a bare run of its own character, at least as long; a backtick
  // in a backtick fence's info string, or four spaces before it, make it no fence.
  assert.deepEqual(read('```js\n## Current Position\n``` x\n~~~\nPhase: 1\n```\n## Current Position\nPhase: 2\n'), ['2', 'phase-field']);
  assert.deepEqual(read('````\n## Current Position\n```\nPhase: 1\n````\n## Current Position\nPhase: 2\n'), ['2', 'phase-field']);
  assert.deepEqual(read('## Archive\nPhase: 1\n``` a`b\n## Current Position\nPhase: 2\n'), ['2', 'phase-field']);
  assert.deepEqual(read('## Archive\nPhase: 1\n    ```\n## Current Position\nPhase: 2\n'), ['2', 'phase-field']);
  assert.deepEqual(read('## Archive\nPhase: 1\n```\n## Current Position\nPhase: 2\n'), ['1', 'phase-field']);
  // A level-1 or level-4 heading of that name is no such section.
  assert.deepEqual(read('Phase: 1\n# Current Position\nPhase: 2\n'), ['1', 'phase-field']);
});

test('the phase as GSD gives it: the id a value starts with, a project code of either case dropped', () => {
  const cases: [string, string][] = [
    ['2', '2'],
    ['02', '02'],
    ['12.1', '12.1'],
    ['12A', '12A'],
    ['12a', '12a'],
    ['12A.1', '12A.1'],
    ['CK-04', '04'],
    ['ck-04', '04'],
    ['PROJ_2-3', '3'],
    ['1-2', '1'],
    ['Phase 3', '3'],
    ['phase  3', '3'],
    ['3 of 5 (Ship)', '3'],
    ['007 (x)', '007'],
    ['4.', '4'],
    [' 5 ', '5'],
  ];
  for (const [written, given] of cases) {
    assert.equal(phase(`---\ncurrent_phase: ${written}\n---\n`), given, written);
    assert.equal(phase(`Phase: ${written}\n`), given, `Phase: ${written}`);
  }
  for (const written of ['v1.0', '[X]', 'x', '12AB', '1e3', '_1', 'Phase-']) assert.equal(phase(`Phase: ${written}\n`), undefined, written);
});

test("a STATE.md from GSD's template names no phase until a state command writes one", () => {
  assert.equal(
    read(TEMPLATE_BODY),
    'STATE.md names no phase: it has no frontmatter (GSD needs a first line of exactly ---), and no Current Phase: or Phase: line (under ## Current Position, if there is one) starts with a phase id such as 04',
  );
  // What `state begin-phase --phase 2 --name Tasks --plans 1` writes, and then `phase complete 1`.
  const begun = readStateDocument(`---\ngsd_state_version: 1.0\nstatus: executing\ncurrent_phase: 2\n---\n\n${TEMPLATE_BODY}`, 'STATE.md');
  assert.deepEqual(begun.ok && begun.value, {
    phase: '2',
    source: 'frontmatter',
    status: 'executing',
    rawStatus: 'executing',
    positionLine: '[X] of [Y] ([Phase name])',
    lastActivity: '[YYYY-MM-DD] — [What happened]',
  });
  const completed = readStateDocument(`---\ngsd_state_version: 1.0\ncurrent_phase: 02\nstatus: planning\n---\n\n${TEMPLATE_BODY}`, 'STATE.md');
  assert.deepEqual(completed.ok && completed.value, {
    phase: '02',
    source: 'frontmatter',
    status: 'planning',
    rawStatus: 'planning',
    positionLine: '[X] of [Y] ([Phase name])',
    lastActivity: '[YYYY-MM-DD] — [What happened]',
  });
});

test("GSD's fences: a first line of exactly ---, closed by a line that starts with ---; else the body's phase", () => {
  const body = 'Phase: 2 of 2 (Tasks)\n';
  assert.equal(phase(`---\ncurrent_phase: 3\n---\n${body}`), '3');
  assert.equal(phase(`---\ncurrent_phase: 3\n--- # end\n${body}`), '3');
  assert.equal(phase(`---\ncurrent_phase: 3\n----\n${body}`), '3');
  assert.equal(phase(`\ufeff---\r\ncurrent_phase: 3\r\n---\r\n${body}`), '3');
  // Not frontmatter to GSD: trailing blanks on the first line, `...` as the end, a blank line first, no end.
  assert.equal(phase(`--- \ncurrent_phase: 3\n---\n${body}`), '2');
  assert.equal(phase(`---\t\ncurrent_phase: 3\n---\n${body}`), '2');
  assert.equal(phase(`---\ncurrent_phase: 3\n...\n${body}`), '2');
  assert.equal(phase(`\n---\ncurrent_phase: 3\n---\n${body}`), '2');
  assert.match(String(read('---\ncurrent_phase: 3\n')), /its frontmatter is never closed by a line that starts with ---, so GSD reads none/);
  // `...` then a later `---` line: the frontmatter runs to it, and is no YAML.
  assert.equal(phase(`---\ncurrent_phase: 3\n...\n${body}---\n`), undefined);
  // An empty block first: GSD looks for the close past the first line, so it reads on to the next.
  assert.equal(phase(`---\n---\ncurrent_phase: 3\n---\n${body}`), '3');
  assert.equal(phase(`---\r\n---\r\ncurrent_phase: 3\r\n---\r\n${body}`), '3');
});

test('the body is the text less every leading ---…--- block, which is not how the frontmatter is found', () => {
  // A Phase: inside a second block is not read; nor the first line's when a BOM precedes it.
  assert.equal(phase('---\nstatus: x\n---\n---\nPhase: 4\n---\nPhase: 5\n'), '5');
  assert.equal(phase('\ufeffPhase: 7\n'), undefined);
  assert.equal(phase('\ufeffx\nPhase: 7\n'), '7');
  // `--- ` is in the body; `\n\n---\n…\n---` is not, though neither is frontmatter.
  assert.equal(phase('--- \nPhase: 8\n---\n'), '8');
  assert.equal(phase('\n\n---\nPhase: 8\n---\nPhase: 9\n'), '9');
});

test('the frontmatter as GSD parses it: the failsafe schema, the last of repeated keys, the colon repair, unreadable YAML as none', () => {
  assert.equal(phase('---\ncurrent_phase: 3\ncurrent_phase: 5\n---\n'), '5');
  assert.equal(phase('---\ncurrent_phase: "04"\n---\n'), '04');
  assert.equal(phase("---\ncurrent_phase: '12.10'\n---\n"), '12.10');
  assert.equal(phase('---\ncurrent_phase: |\n  6\n---\n'), '6');
  assert.equal(phase('---\ntitle: Phase 4: Ship\ncurrent_phase: 3\n---\n'), '3');
  // Not text: the body is read.
  for (const value of ['', '~', '[4]', '{a: 1}', '\n  - 4'])
    assert.equal(phase(`---\ncurrent_phase:${value === '' ? '' : ' '}${value}\n---\nPhase: 9\n`), '9', value);
  // GSD reads no frontmatter at all: YAML js-yaml refuses, an anchor, U+E000, a list.
  assert.equal(phase('---\ncurrent_phase: 3\nbad: [unclosed\n---\nPhase: 9\n'), '9');
  assert.equal(phase('---\ncurrent_phase: 3\nn: &a 1\n---\nPhase: 9\n'), '9');
  assert.equal(phase('---\ncurrent_phase: 3\nx: \ue000\n---\nPhase: 9\n'), '9');
  assert.equal(phase('---\n- current_phase: 3\n---\nPhase: 9\n'), '9');
  assert.match(String(read('---\ncurrent_phase: 3\nbad: [unclosed\n---\n')), /GSD cannot read its frontmatter as YAML, so it reads none/);
  assert.match(String(read('---\ncurrent_phase: " "\n---\n')), /: its current_phase is blank, /);
  assert.match(String(read('---\ncurrent_phase: {a: 1}\n---\n')), /: its current_phase is a mapping, /);
  // A NUL is GSD's U+E000 for the parse: the value is read, and the NUL ends the id.
  assert.equal(phase('---\ncurrent_phase: 0\u00004\n---\n'), '0');
});

test("an anchor GSD's own check does not reach (a NUL, or a line its colon repair fixes, stops that check) is refused, not expanded", () => {
  assert.equal(
    read('---\ncurrent_phase: 0\u00004\nn: &a 1\n---\n'),
    "STATE.md: its frontmatter uses an anchor or alias (& or *) past a line where GSD's check for them stops, which gsd-check does not read",
  );
  assert.equal(
    read('---\ntitle: a: b\ncurrent_phase: 3\nn: &a 1\n---\n'),
    "STATE.md: its frontmatter uses an anchor or alias (& or *) past a line where GSD's check for them stops, which gsd-check does not read",
  );
});

test("a field as GSD finds it: **Name:** anywhere first, then Name: at a line's start, then a two-cell table row", () => {
  assert.equal(phase('Phase: 1\n**Phase:** 2\n'), '2');
  assert.equal(phase('  **Phase:**\t4 of 9\n'), '4');
  assert.equal(phase('PHASE: 3\n'), '3');
  assert.equal(phase(' Phase: 3\n'), undefined);
  assert.equal(phase('| Phase | 7 |\n'), '7');
  assert.equal(phase('|phase|8|  \n'), '8');
  assert.equal(phase('| Current Phase | CK-12 |\n'), '12');
  for (const row of ['| Phase | 9 | x |', ' | Phase | 9 |', '| Phase \\| 9 |', '| Phase | 9 | x', '| **Phase** | 9 |'])
    assert.equal(phase(`${row}\n`), undefined, row);
  // An escaped last pipe still ends the row.
  assert.equal(phase('| Phase | 3 \\|\n'), '3');
  // A label with nothing after it on its line is no field; with blanks only, an empty one.
  assert.equal(phase('Phase:\nPhase: 5\n'), '5');
  assert.equal(phase('Phase:   \nPhase: 5\n'), undefined);
  // A line ends at CR, LF, U+2028 and U+2029 for the fields.
  assert.equal(phase('x\rPhase: 6\r'), '6');
  assert.equal(phase('x\u2028Phase: 6'), '6');
});

test("the status: GSD's frontmatter status, else a Status: field anywhere; normalised by its vocabulary, paused_at first", () => {
  const status = (text: string): [StateStatus, string | null] | undefined => {
    const result = readStateDocument(`Phase: 1\n${text}`, 'STATE.md');
    return result.ok ? [result.value.status, result.value.rawStatus] : undefined;
  };
  assert.deepEqual(status(''), ['unknown', null]);
  const vocabulary: [string, StateStatus][] = [
    ['paused', 'paused'],
    ['Stopped', 'paused'],
    ['executing', 'executing'],
    ['In   progress', 'executing'],
    ['Ready to execute', 'executing'],
    ['planning', 'planning'],
    ['Ready to plan', 'planning'],
    ['Planning complete', 'planning'],
    ['discussing', 'discussing'],
    ['VERIFYING', 'verifying'],
    ['completed', 'completed'],
    ['done', 'completed'],
    ['Complete', 'completed'],
    ['Phase complete', 'completed'],
    ['Phase complete — ready for verification', 'verifying'],
    ['All phases complete', 'completed'],
    ['milestone complete', 'completed'],
    ['unknown', 'unknown'],
    ['Executing Phase 5', 'executing'],
    ['planning phase 2A', 'planning'],
    ['Verifying Phase 3', 'verifying'],
    ['Phase 3 complete', 'completed'],
    ['v1.0 milestone complete', 'completed'],
    ['Complete ✓', 'completed'],
    ['complete✅', 'completed'],
    // Prose that merely holds a status word is not one; nor a name Object.prototype has.
    ['Executing Phase 5 — final stretch', 'unknown'],
    ['verificata', 'unknown'],
    ['constructor', 'unknown'],
    ['[Ready to plan / Planning]', 'unknown'],
  ];
  for (const [raw, normalised] of vocabulary) {
    assert.deepEqual(status(`Status: ${raw}\n`), [normalised, raw], raw);
    assert.deepEqual(status(`**Status:** ${raw}\n`), [normalised, raw], `**Status:** ${raw}`);
  }
  const front = (fields: string, body = 'Phase: 1\n'): [StateStatus, string | null] | false => {
    const result = readStateDocument(`---\n${fields}\n---\n${body}`, 'STATE.md');
    return result.ok && [result.value.status, result.value.rawStatus];
  };
  assert.deepEqual(front('status: executing', 'Phase: 1\nStatus: planning\n'), ['executing', 'executing']);
  assert.deepEqual(front('status: ""', 'Phase: 1\nStatus: planning\n'), ['planning', 'planning']);
  assert.deepEqual(front('status: executing\npaused_at: 2026-01-01'), ['paused', 'executing']);
  assert.deepEqual(front('status: executing\npaused_at: ""'), ['executing', 'executing']);
  // Paused At: is read in ## Session (then ## Session Continuity), else anywhere.
  assert.deepEqual(status('Status: executing\n## Session\nPaused At: 2026-01-02\n'), ['paused', 'executing']);
  assert.deepEqual(status('Status: executing\n## Archive\nPaused At: 2026-01-02\n## Session\nLast Date: x\n'), ['executing', 'executing']);
  assert.deepEqual(status('Status: executing\n## Session Continuity\n**Paused At:** x\n'), ['paused', 'executing']);
  assert.deepEqual(status('Status: executing\nPaused At: x\n'), ['paused', 'executing']);
  assert.deepEqual(status('Status: executing\nPaused At:  \n'), ['executing', 'executing']);
  assert.deepEqual(status('**Status:**   \n'), ['unknown', '']);
  // A NUL in the frontmatter is kept in the text GSD prints.
  assert.deepEqual(front('status: a\u0000b'), ['unknown', 'a\u0000b']);
});

// ─── Properties ─────────────────────────────────────────────────────────────

const LINES = [
  '---',
  '--- ',
  '...',
  '----',
  '--- # x',
  '```',
  '~~~',
  '',
  '',
  '# Project State',
  '## Current Position',
  '### Current Position',
  '## Session',
  '## Archive',
  'current_phase: 4',
  'current_phase: CK-04',
  'current_phase: ""',
  'status: executing',
  'paused_at: x',
  'title: Phase 4: Ship',
  'n: &a 1',
  'bad: [x',
  'Phase: 2 of 2 (Tasks)',
  '**Phase:** 3',
  'Phase: [X] of [Y]',
  'Current Phase: 12.1',
  '**Current Phase:** ck-5',
  '| Phase | 7 |',
  'Status: Planning',
  '**Status:** Executing Phase 2',
  'Paused At: 2026-01-01',
  'Phase: v0.5',
  'Progress: 0%',
];
const stateText = fc.tuple(fc.constantFrom('', '\ufeff'), fc.array(fc.constantFrom(...LINES), { maxLength: 16 })).map(([bom, lines]) => bom + lines.join('\n'));

test("any STATE.md gives a phase GSD's way, an id PHASE_NUMBER can carry, or a failure; never a throw", () => {
  fc.assert(
    fc.property(stateText, (text) => {
      const result = readStateDocument(text, 'STATE.md');
      if (result.ok) assert.match(result.value.phase, /^\d+[A-Za-z]?(?:\.\d+)*$/);
      else assert.equal(result.failure.reason, 'invalid-artifact');
    }),
    { numRuns: runs * 10 },
  );
});

test('CRLF line ends read as LF ones', () => {
  fc.assert(
    fc.property(stateText, (text) => {
      assert.deepEqual(readStateDocument(text.replace(/\n/g, '\r\n'), 'STATE.md'), readStateDocument(text, 'STATE.md'));
    }),
    { numRuns: runs * 10 },
  );
});

test('a current_phase that starts with a phase id wins over whatever the body says', () => {
  const id = fc
    .tuple(fc.constantFrom('', 'CK-', 'ck-', 'Phase '), fc.stringMatching(/^\d{1,3}[A-Za-z]?(?:\.\d{1,2}){0,2}$/))
    .map(([prefix, n]) => [`${prefix}${n}`, n] as const);
  fc.assert(
    fc.property(id, fc.array(fc.constantFrom(...LINES.filter((l) => !/^(?:---|\.\.\.)/.test(l))), { maxLength: 10 }), ([written, given], body) => {
      assert.deepEqual(read(`---\ncurrent_phase: ${written}\n---\n${body.join('\n')}`), [given, 'frontmatter']);
    }),
    { numRuns: runs * 10 },
  );
});
