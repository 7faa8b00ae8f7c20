import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { currentPhase } from '../../src/project/current-phase.ts';
import { project } from '../helpers/project.ts';
import { ok } from '../../src/failure.ts';

// The scope a workstream (or none) gives, as gate-context.ts resolves it.
const scope = (workstream?: string) => ok({ project: undefined, workstream });
const phaseOf = (result: ReturnType<typeof currentPhase>) => (result.ok ? result.value.phase : result.failure.message);

test("the phase .planning/STATE.md names, as gsd-tools state-snapshot gives it; the workstream's STATE.md in a workstream", (t) => {
  const root = project(t, {
    '.planning/STATE.md': '\ufeff---\r\ngsd_state_version: 1.0\r\ncurrent_phase: 04 \r\n---\r\n# Project State\r\n\r\nPhase: 4 of 5\r\n',
    '.planning/workstreams/api/STATE.md': '---\ncurrent_phase: "12A"\n---\n',
    '.planning/workstreams/code/STATE.md': '---\ncurrent_phase: ck-07\n---\n',
    '.planning/workstreams/body/STATE.md': '# Project State\n\n## Current Position\n\nPhase: 2 of 2 (Tasks)\n',
  });
  assert.equal(phaseOf(currentPhase(root, scope())), '04');
  assert.equal(phaseOf(currentPhase(root, scope('api'))), '12A');
  assert.equal(phaseOf(currentPhase(root, scope('code'))), '07');
  assert.equal(phaseOf(currentPhase(root, scope('body'))), '2');
});

test('no STATE.md, one that names no phase, one too large, or one gsd-check cannot read as GSD does: a failure naming the file, never an empty phase', (t) => {
  const failure = (files: Record<string, string | null>, workstream?: string): [string, string] => {
    const result = currentPhase(project(t, files), scope(workstream));
    assert.equal(result.ok, false);
    return result.ok ? ['', ''] : [result.failure.reason, result.failure.message];
  };
  const none = (why: string): [string, string] => [
    'invalid-artifact',
    `--current-phase: .planning/STATE.md names no phase: ${why}, and no Current Phase: or Phase: line (under ## Current Position, if there is one) starts with a phase id such as 04`,
  ];
  assert.deepEqual(failure({ '.planning': null }), ['unreadable-file', '--current-phase: cannot read .planning/STATE.md: no such file']);
  assert.deepEqual(failure({ '.planning/STATE.md/x': '' }), ['unreadable-file', '--current-phase: cannot read .planning/STATE.md: NOTREG']);
  assert.deepEqual(failure({ '.planning': null }, 'api'), ['unreadable-file', '--current-phase: cannot read .planning/workstreams/api/STATE.md: no such file']);
  assert.deepEqual(
    failure({ '.planning/STATE.md': '# Project State\n\nPhase: [X] of [Y]\n' }),
    none('it has no frontmatter (GSD needs a first line of exactly ---)'),
  );
  assert.deepEqual(failure({ '.planning/STATE.md': '---\nstatus: planning\n---\n' }), none('its frontmatter has no current_phase'));
  assert.deepEqual(failure({ '.planning/STATE.md': '---\ncurrent_phase: [4, 5]\n---\n' }), none('its current_phase is a list'));
  assert.deepEqual(failure({ '.planning/STATE.md': '---\ncurrent_phase:\n---\n' }), none('its current_phase is blank'));
  assert.deepEqual(failure({ '.planning/STATE.md': '---\ncurrent_phase: $(id)\n---\n' }), none('its current_phase "$(id)" does not start with a phase id'));
  assert.deepEqual(
    failure({ '.planning/STATE.md': '---\ncurrent_phase: 4\n' }),
    none('its frontmatter is never closed by a line that starts with ---, so GSD reads none'),
  );
  // Decoded as GSD decodes it, the BOM kept: it stands before the first line's `Phase:`.
  assert.deepEqual(failure({ '.planning/STATE.md': '\ufeffPhase: 4\n' }), none('it has no frontmatter (GSD needs a first line of exactly ---)'));
  assert.deepEqual(failure({ '.planning/STATE.md': `---\ncurrent_phase: 4\n---\n${'x'.repeat(256 * 1024)}` }), [
    'invalid-artifact',
    '--current-phase: .planning/STATE.md is larger than 256 KiB',
  ]);
  assert.deepEqual(failure({ '.planning/STATE.md': '---\ntitle: a: b\ncurrent_phase: 3\nn: &a 1\n---\n' }), [
    'invalid-artifact',
    "--current-phase: .planning/STATE.md: its frontmatter uses an anchor or alias (& or *) past a line where GSD's check for them stops, which gsd-check does not read",
  ]);
});

test('a file one byte over 256 KiB is too large: the cap is the bytes read, and a file of exactly that many is whole', (t) => {
  const head = '---\ncurrent_phase: 4\n---\n';
  const sized = (bytes: number) => currentPhase(project(t, { '.planning/STATE.md': head + 'x'.repeat(bytes - head.length) }), scope());
  assert.equal(phaseOf(sized(256 * 1024)), '4');
  assert.deepEqual(sized(256 * 1024 + 1), {
    ok: false,
    failure: { reason: 'invalid-artifact', message: '--current-phase: .planning/STATE.md is larger than 256 KiB', issues: [] },
  });
});

test('a blank current_phase, empty or only blanks, names no phase and says it is blank; GSD then reads the body, and so does gsd-check', (t) => {
  for (const value of ['', '""', "''", '" "', '"\\t "']) {
    const blank = currentPhase(project(t, { '.planning/STATE.md': `---\ncurrent_phase: ${value}\n---\n` }), scope());
    assert.match(phaseOf(blank), /^--current-phase: \.planning\/STATE\.md names no phase: its current_phase is blank, and no Current Phase: /, value);
    const body = currentPhase(project(t, { '.planning/STATE.md': `---\ncurrent_phase: ${value}\n---\n## Current Position\n\nPhase: 5 of 6\n` }), scope());
    assert.deepEqual(body.ok ? [body.value.phase, body.value.source] : body.failure.message, ['5', 'phase-field'], value);
  }
});

test("under GSD_PROJECT the STATE.md read is the project's, .planning/<project>/STATE.md (its workstream's in a workstream), never the top one", (t) => {
  const root = project(t, {
    '.planning/STATE.md': '---\ncurrent_phase: 01\n---\n',
    '.planning/alpha/STATE.md': '---\ncurrent_phase: 04\n---\n',
    '.planning/alpha/workstreams/api/STATE.md': '---\ncurrent_phase: 07\n---\n',
    '.planning/beta': null,
  });
  const under = (project: string, workstream?: string) => currentPhase(root, ok({ project, workstream }));
  assert.equal(phaseOf(under('alpha')), '04');
  assert.equal(phaseOf(under('alpha', 'api')), '07');
  assert.equal(phaseOf(under('beta')), '--current-phase: cannot read .planning/beta/STATE.md: no such file');
});
