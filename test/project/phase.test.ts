import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { lookUpPhaseDir, locatePhase } from '../../src/project/phase.ts';
import { project } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';
import { ok, usage } from '../../src/failure.ts';

const NO_SCOPE = { project: undefined, workstream: undefined };

const phases = (t: Parameters<typeof tempDir>[0], dirs: string[], base = '.planning/phases'): string =>
  project(t, Object.fromEntries(dirs.map((dir) => [join(base, dir), null])));

test('the one directory whose phase id matches, however the number is written', (t) => {
  const root = phases(t, ['03-auth', '04-ship', '04.1-hotfix', '12A-split', '01-02-milestone', 'CK-07-coded', 'PROJ-42-custom']);
  const found = (n: string) => lookUpPhaseDir(root, n, NO_SCOPE).matches.map((m) => m.slice(root.length + 1));
  assert.deepEqual(found('4'), ['.planning/phases/04-ship']);
  assert.deepEqual(found('04'), ['.planning/phases/04-ship']);
  assert.deepEqual(found('4.1'), ['.planning/phases/04.1-hotfix']);
  assert.deepEqual(found('12a'), ['.planning/phases/12A-split']);
  assert.deepEqual(found('1-2'), ['.planning/phases/01-02-milestone']);
  assert.deepEqual(found('CK-07'), ['.planning/phases/CK-07-coded']);
  assert.deepEqual(found('PROJ-42'), ['.planning/phases/PROJ-42-custom']);
  assert.deepEqual(found('5'), []);
  assert.deepEqual(found('0'), []);
});

test('a bare number falls back to leading digits however padded; files are not phases', (t) => {
  const root = phases(t, ['4-ship', '004-old']);
  writeFileSync(join(root, '.planning/phases/04-notes.md'), '');
  const lookup = lookUpPhaseDir(root, '04', NO_SCOPE);
  assert.deepEqual(lookup, {
    phaseNumber: '04',
    searched: join(root, '.planning/phases'),
    matches: [join(root, '.planning/phases/004-old'), join(root, '.planning/phases/4-ship')],
  });
});

// Node lists a directory in the order of its names' bytes; GSD sorts the
// list as JavaScript strings, which differ where a name holds a character
// beyond U+FFFF (a surrogate pair sorts before U+FF01, its bytes after).
test('several matching directories come in the order GSD sorts them, as JavaScript strings', (t) => {
  const root = phases(t, ['04-\uff01', '04-\u{1f600}']);
  assert.deepEqual(
    lookUpPhaseDir(root, '04', NO_SCOPE).matches.map((m) => m.slice(root.length + '/.planning/phases/'.length)),
    ['04-\u{1f600}', '04-\uff01'],
  );
});

test("the fallback is only for a number no directory's token matches: 04-ship is found alone beside 4-old", (t) => {
  const root = phases(t, ['04-ship', '4-old', '004-older']);
  assert.deepEqual(lookUpPhaseDir(root, '04', NO_SCOPE).matches, [join(root, '.planning/phases/04-ship')]);
});

test('the fallback never takes a decimal or lettered phase for the bare number', (t) => {
  const root = phases(t, ['04.1-hotfix', '12A-split', '4-legacy']);
  const found = (n: string) => lookUpPhaseDir(root, n, NO_SCOPE).matches.map((m) => m.slice(root.length + 1));
  assert.deepEqual(found('004'), ['.planning/phases/4-legacy']);
  assert.deepEqual(found('12'), []);
  assert.deepEqual(found('4.1'), ['.planning/phases/04.1-hotfix']);
});

test('a project code in either case, in the number or the directory, as GSD matches it', (t) => {
  const root = phases(t, ['CK-07-coded', 'ab-09-lower']);
  const found = (n: string) => lookUpPhaseDir(root, n, NO_SCOPE).matches.map((m) => m.slice(root.length + 1));
  assert.deepEqual(found('ck-07'), ['.planning/phases/CK-07-coded']);
  assert.deepEqual(found('CK-07'), ['.planning/phases/CK-07-coded']);
  assert.deepEqual(found('7'), ['.planning/phases/CK-07-coded']);
  assert.deepEqual(found('ab-09'), ['.planning/phases/ab-09-lower']);
  assert.deepEqual(found('9'), ['.planning/phases/ab-09-lower']);
});

test('GSD_PROJECT and GSD_WORKSTREAM choose the phases directory', (t) => {
  const root = phases(t, ['04-ws'], '.planning/proj/workstreams/ws1/phases');
  mkdirSync(join(root, '.planning/phases/04-root'), { recursive: true });
  assert.deepEqual(lookUpPhaseDir(root, '4', { project: 'proj', workstream: 'ws1' }).matches, [join(root, '.planning/proj/workstreams/ws1/phases/04-ws')]);
  assert.deepEqual(lookUpPhaseDir(root, '4', NO_SCOPE).matches, [join(root, '.planning/phases/04-root')]);
  assert.deepEqual(lookUpPhaseDir(root, '4', { project: undefined, workstream: 'none' }).matches, []);
});

test('--phase-dir is made absolute against the project root and must stay inside it', (t) => {
  const base = project(t, { 'p/.planning/phases/04-ship': null, outside: null });
  const root = join(base, 'p');
  symlinkSync(join(base, 'outside'), join(root, 'escape'));
  assert.deepEqual(locatePhase(root, { phaseDir: '.planning/phases/04-ship' }, ok(NO_SCOPE)), {
    ok: true,
    value: { phaseDir: join(root, '.planning/phases/04-ship') },
  });
  assert.deepEqual(locatePhase(root, { phaseDir: 'not/yet/there' }, ok(NO_SCOPE)), { ok: true, value: { phaseDir: join(root, 'not/yet/there') } });
  for (const phaseDir of ['..', '../outside', 'escape', join(base, 'outside')]) {
    const refused = locatePhase(root, { phaseDir }, ok(NO_SCOPE));
    assert.deepEqual(
      refused.ok ? 'accepted' : [refused.failure.reason, refused.failure.message],
      ['usage', `--phase-dir ${phaseDir} is outside the project root ${root}`],
      phaseDir,
    );
  }
});

test('without --phase-dir, the number is looked up; an empty one is no number', (t) => {
  const root = project(t, { '.planning/phases/04-ship': null });
  const found = locatePhase(root, { phaseNumber: '4' }, ok(NO_SCOPE));
  assert.deepEqual(found.ok && found.value.phaseDirLookup?.matches, [join(root, '.planning/phases/04-ship')]);
  assert.deepEqual(locatePhase(root, { phaseNumber: '' }, ok(NO_SCOPE)), { ok: true, value: {} });
  assert.deepEqual(locatePhase(root, { phaseDir: '', phaseNumber: '4' }, ok(NO_SCOPE)).ok, true);
});

test('a scope that could not be resolved fails the lookup of a number with its failure, and nothing else', (t) => {
  const root = tempDir(t);
  const refused = usage('GSD_PROJECT must name one directory');
  assert.deepEqual(locatePhase(root, { phaseNumber: '4' }, refused), refused);
  assert.deepEqual(locatePhase(root, { phaseDir: '.' }, refused), ok({ phaseDir: root }));
  assert.deepEqual(locatePhase(root, {}, refused), ok({}));
});

test('the phase directory is its real path, as GSD gives ${PHASE_DIR}, through a linked root or a linked phase', (t) => {
  const base = project(t, { 'real/.planning/phases/04-ship': null });
  symlinkSync(join(base, 'real'), join(base, 'link'));
  symlinkSync('04-ship', join(base, 'real/.planning/phases/current'));
  const at = (root: string, phaseDir: string) => {
    const located = locatePhase(join(base, root), { phaseDir }, ok(NO_SCOPE));
    return located.ok ? located.value.phaseDir : located.failure.message;
  };
  assert.equal(at('link', '.planning/phases/04-ship'), join(base, 'real/.planning/phases/04-ship'));
  assert.equal(at('real', '.planning/phases/current'), join(base, 'real/.planning/phases/04-ship'));
  assert.equal(at('link', join(base, 'link/.planning/phases/current')), join(base, 'real/.planning/phases/04-ship'));
  // Not there yet: its nearest existing ancestor's real path, the rest appended.
  assert.equal(at('link', '.planning/phases/05-next/sub'), join(base, 'real/.planning/phases/05-next/sub'));
});

test('a phase directory that is a link to nothing is refused: where it leads is unknown', (t) => {
  const root = project(t, { '.planning/phases': null });
  symlinkSync('gone', join(root, '.planning/phases/04-ship'));
  const located = locatePhase(root, { phaseDir: '.planning/phases/04-ship' }, ok(NO_SCOPE));
  assert.deepEqual(located.ok ? 'accepted' : [located.failure.reason, located.failure.message], [
    'usage',
    '--phase-dir .planning/phases/04-ship is a symbolic link to nothing',
  ]);
});
