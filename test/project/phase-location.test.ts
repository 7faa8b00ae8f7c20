import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { locatePhase } from '../../src/project/phase-location.ts';
import { tempDir } from '../support.ts';

test('--phase-dir is made absolute against the project root and must stay inside it', (t) => {
  const base = tempDir(t);
  const root = join(base, 'p');
  mkdirSync(join(root, '.planning/phases/04-ship'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  symlinkSync(join(base, 'outside'), join(root, 'escape'));
  assert.deepEqual(locatePhase(root, { phaseDir: '.planning/phases/04-ship' }, {}), { ok: true, value: { phaseDir: join(root, '.planning/phases/04-ship') } });
  assert.deepEqual(locatePhase(root, { phaseDir: 'not/yet/there' }, {}), { ok: true, value: { phaseDir: join(root, 'not/yet/there') } });
  for (const phaseDir of ['..', '../outside', 'escape', join(base, 'outside')]) {
    const refused = locatePhase(root, { phaseDir }, {});
    assert.deepEqual(refused.ok ? 'accepted' : [refused.failure.reason, refused.failure.message], ['usage', `--phase-dir ${phaseDir} is outside the project root ${root}`], phaseDir);
  }
});

test('without --phase-dir, the number is looked up; an empty one is no number', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, '.planning/phases/04-ship'), { recursive: true });
  const found = locatePhase(root, { phaseNumber: '4' }, {});
  assert.deepEqual(found.ok && found.value.phaseDirLookup?.matches, [join(root, '.planning/phases/04-ship')]);
  assert.deepEqual(locatePhase(root, { phaseNumber: '' }, {}), { ok: true, value: {} });
  assert.deepEqual(locatePhase(root, { phaseDir: '', phaseNumber: '4' }, {}).ok, true);
});

test('GSD_WORKSTREAM and GSD_PROJECT must each name one directory', (t) => {
  const root = tempDir(t);
  for (const [name, value] of [['GSD_WORKSTREAM', '../x'], ['GSD_WORKSTREAM', 'a/b'], ['GSD_PROJECT', 'a\\b'], ['GSD_PROJECT', '..']]) {
    const refused = locatePhase(root, { phaseNumber: '4' }, { [name!]: value });
    assert.deepEqual(refused.ok ? 'accepted' : refused.failure.message, `${name} must name one directory, got ${JSON.stringify(value)}`);
  }
});

test('a project root reached through a symbolic link still contains its phase directories', (t) => {
  const base = tempDir(t);
  mkdirSync(join(base, 'real/.planning/phases/04-ship'), { recursive: true });
  symlinkSync(join(base, 'real'), join(base, 'link'));
  const located = locatePhase(join(base, 'link'), { phaseDir: '.planning/phases/04-ship' }, {});
  assert.deepEqual(located, { ok: true, value: { phaseDir: join(base, 'link/.planning/phases/04-ship') } });
});
