// STATE.md read by both tools: the `current_phase` `gsd-tools state-snapshot
// --raw` prints against the PHASE_NUMBER `--current-phase` gives a command
// (generative/run-case.mjs reduces both alike: `phase <id>`, `no phase`,
// `error`). A case gives the file's text, or `written`: the commands of GSD
// that write it, run on its template's body in a project with two phases
// (test/state.test.mjs runs them). `gsd` pins GSD's answer; a case that
// shows a difference names it and pins gsd-check's (`check`).
import { TEMPLATE_BODY } from '../generative/arbitraries.mjs';

const POSITION = '# Project State\n\n## Current Position\n\nPhase: 2 of 2 (Tasks)\n';

export const STATE_CASES = [
  { name: "GSD's template before any state command: no phase", text: TEMPLATE_BODY, gsd: 'no phase' },
  {
    name: 'as `state begin-phase --phase 2 --name Tasks --plans 1` writes it',
    written: [['state', 'begin-phase', '--phase', '2', '--name', 'Tasks', '--plans', '1']],
    gsd: 'phase 2',
  },
  { name: 'as `phase complete 1` writes it', written: [['phase', 'complete', '1']], gsd: 'phase 02' },
  {
    name: 'as `phase complete 1` writes it after `state begin-phase --phase 1`',
    written: [
      ['state', 'begin-phase', '--phase', '1', '--name', 'Setup', '--plans', '1'],
      ['phase', 'complete', '1'],
    ],
    gsd: 'phase 02',
  },
  { name: 'the body only: Phase: under ## Current Position', text: POSITION, gsd: 'phase 2' },
  { name: "a first line --- with a trailing blank is no frontmatter: the body's phase", text: `--- \ncurrent_phase: 3\n---\n${POSITION}`, gsd: 'phase 2' },
  { name: "... is no end of a frontmatter: the body's phase", text: `---\ncurrent_phase: 3\n...\n${POSITION}`, gsd: 'phase 2' },
  { name: '--- # end closes it', text: `---\ncurrent_phase: 3\n--- # end\n${POSITION}`, gsd: 'phase 3' },
  { name: "a frontmatter never closed: the body's phase", text: `---\ncurrent_phase: 3\n${POSITION}`, gsd: 'phase 2' },
  { name: 'CK-04 is 04', text: '---\ncurrent_phase: CK-04\n---\n', gsd: 'phase 04' },
  { name: 'ck-04 is 04', text: '---\ncurrent_phase: ck-04\n---\n', gsd: 'phase 04' },
  { name: '12.1', text: '---\ncurrent_phase: 12.1\n---\n', gsd: 'phase 12.1' },
  { name: '12A', text: '---\ncurrent_phase: 12A\n---\n', gsd: 'phase 12A' },
  { name: '1-2 is 1', text: '---\ncurrent_phase: 1-2\n---\n', gsd: 'phase 1' },
  { name: 'several current_phase lines: the last', text: '---\ncurrent_phase: 3\ncurrent_phase: 5\n---\n', gsd: 'phase 5' },
  { name: "a blank current_phase: the body's phase", text: `---\ncurrent_phase: ""\n---\n${POSITION}`, gsd: 'phase 2' },
  { name: 'a Current Phase: field before Phase:', text: '# Project State\n\n## Current Position\n\nCurrent Phase: 3\nPhase: 2 of 2 (Tasks)\n', gsd: 'phase 3' },
  { name: '**Phase:** under ### Current Position', text: '# Project State\n\n### Current Position\n\n**Phase:** 4 of 5\n', gsd: 'phase 4' },
  {
    name: 'a stale Phase: in an archive section is passed over',
    text: `# Project State\n\n## Archive\n\nPhase: 1 of 2\n\n${POSITION.slice('# Project State\n\n'.length)}`,
    gsd: 'phase 2',
  },
  { name: 'no ## Current Position: the first Phase: anywhere, a table row too', text: '# Project State\n\n| Phase | 7 |\n', gsd: 'phase 7' },
  { name: 'a BOM and CRLF', text: '\ufeff---\r\ncurrent_phase: 04\r\n---\r\n# Project State\r\n', gsd: 'phase 04' },
  { name: 'a BOM before a body-only first line: not that field', text: '\ufeffPhase: 4\n', gsd: 'no phase' },
  { name: "the workstream's STATE.md under GSD_WORKSTREAM", text: '---\ncurrent_phase: 12A\n---\n', special: 'workstream', gsd: 'phase 12A' },
  { name: 'no STATE.md', text: '', special: 'missing', gsd: 'error' },
  {
    name: 'an anchor after a line GSD repairs (its check for anchors stops there)',
    text: '---\ntitle: Phase 4: Ship\ncurrent_phase: 3\nn: &a 1\n---\n',
    gsd: 'phase 3',
    differs: 'D66',
    check: 'error',
  },
  { name: 'a STATE.md over 256 KiB', text: `---\ncurrent_phase: 3\n---\n${'x'.repeat(256 * 1024)}\n`, gsd: 'phase 3', differs: 'D66', check: 'error' },
];
