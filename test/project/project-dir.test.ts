import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { explicitProjectRoot } from '../../src/project/root.ts';
import { project } from '../helpers/project.ts';

const root = (given: string, current: string) => {
  const result = explicitProjectRoot(given, () => current);
  return result.ok ? result.value : `${result.failure.reason}: ${result.failure.message}`;
};

test('--project-dir is the root itself, relative to the current directory', (t) => {
  const base = project(t, { 'p/.planning': null, 'p/sub': null });
  assert.equal(root('p', base), join(base, 'p'));
  assert.equal(root(join(base, 'p/sub/..'), '/nowhere'), join(base, 'p'));
  assert.equal(root('.', join(base, 'p')), join(base, 'p'));
});

test('a directory without .planning is refused, even below a project: no search up', (t) => {
  // q's .planning is a file, not a directory.
  const base = project(t, { 'p/.planning': null, 'p/sub': null, file: '', 'q/.planning': '' });
  assert.equal(root('p/sub', base), `bad-cwd: --project-dir ${join(base, 'p/sub')} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)`);
  assert.equal(root('q', base), `bad-cwd: --project-dir ${join(base, 'q')} has no .planning directory; it must name the project root itself, not a directory to search up from (that is --cwd)`);
  assert.equal(root('missing', base), `bad-cwd: --project-dir ${join(base, 'missing')}: no such directory`);
  assert.equal(root('file', base), `bad-cwd: --project-dir ${join(base, 'file')}: not a directory`);
});

test('a relative --project-dir needs the current directory', () => {
  const result = explicitProjectRoot('p', () => {
    throw new Error('ENOENT');
  });
  assert.deepEqual(result.ok ? 'accepted' : result.failure.message, 'the current directory no longer exists; give --project-dir p as an absolute path');
});
