import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { locatePhase } from '../../src/project/phase.ts';
import { project } from '../helpers/project.ts';
import { tempDir } from '../helpers/support.ts';

test('--phase-dir is made absolute against the project root and must stay inside it', (t) => {
  const base = project(t, { 'p/.planning/phases/04-ship': null, outside: null });
  const root = join(base, 'p');
  symlinkSync(join(base, 'outside'), join(root, 'escape'));
  assert.deepEqual(locatePhase(root, { phaseDir: '.planning/phases/04-ship' }, {}), { ok: true, value: { phaseDir: join(root, '.planning/phases/04-ship') } });
  assert.deepEqual(locatePhase(root, { phaseDir: 'not/yet/there' }, {}), { ok: true, value: { phaseDir: join(root, 'not/yet/there') } });
  for (const phaseDir of ['..', '../outside', 'escape', join(base, 'outside')]) {
    const refused = locatePhase(root, { phaseDir }, {});
    assert.deepEqual(refused.ok ? 'accepted' : [refused.failure.reason, refused.failure.message], ['usage', `--phase-dir ${phaseDir} is outside the project root ${root}`], phaseDir);
  }
});

test('without --phase-dir, the number is looked up; an empty one is no number', (t) => {
  const root = project(t, { '.planning/phases/04-ship': null });
  const found = locatePhase(root, { phaseNumber: '4' }, {});
  assert.deepEqual(found.ok && found.value.phaseDirLookup?.matches, [join(root, '.planning/phases/04-ship')]);
  assert.deepEqual(locatePhase(root, { phaseNumber: '' }, {}), { ok: true, value: {} });
  assert.deepEqual(locatePhase(root, { phaseDir: '', phaseNumber: '4' }, {}).ok, true);
});

test('GSD_PROJECT must name one directory', (t) => {
  const root = tempDir(t);
  for (const [name, value] of [['GSD_PROJECT', 'a\\b'], ['GSD_PROJECT', '..'], ['GSD_PROJECT', 'a/b']]) {
    const refused = locatePhase(root, { phaseNumber: '4' }, { [name!]: value });
    assert.deepEqual(refused.ok ? 'accepted' : refused.failure.message, `${name} must name one directory, got ${JSON.stringify(value)}`);
  }
});

test('the phase directory is its real path, as GSD gives ${PHASE_DIR}, through a linked root or a linked phase', (t) => {
  const base = project(t, { 'real/.planning/phases/04-ship': null });
  symlinkSync(join(base, 'real'), join(base, 'link'));
  symlinkSync('04-ship', join(base, 'real/.planning/phases/current'));
  const at = (root: string, phaseDir: string) => {
    const located = locatePhase(join(base, root), { phaseDir }, {});
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
  const located = locatePhase(root, { phaseDir: '.planning/phases/04-ship' }, {});
  assert.deepEqual(located.ok ? 'accepted' : [located.failure.reason, located.failure.message], ['usage', '--phase-dir .planning/phases/04-ship is a symbolic link to nothing']);
});
