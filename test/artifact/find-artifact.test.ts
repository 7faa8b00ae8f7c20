import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import * as fs from 'node:fs';
import { findArtifact as search, type SearchFs } from '../../src/artifact/find-artifact.ts';
import { artifact, writeTree } from '../helpers/project.ts';
import { cli, tempDir, unprivileged } from '../helpers/support.ts';

// The path found, or undefined; a failed search fails the test.
function findArtifact(dir: string, name: string): string | undefined {
  const found = search(dir, name);
  assert.ok(found.ok, found.ok ? '' : found.failure.message);
  if (found.value !== undefined) assert.equal(found.value.within, fs.realpathSync(dir));
  return found.value?.path;
}

// Empty artifacts at `paths`.
const files = (dir: string, paths: string[]): string => writeTree(dir, Object.fromEntries(paths.map((path) => [path, artifact({})])));

test('the file itself first, then .planning/, then a -suffixed name', (t) => {
  const dir = tempDir(t);
  files(dir, ['SECURITY.md', '.planning/SECURITY.md', '01-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, 'SECURITY.md'));
  const planning = tempDir(t);
  files(planning, ['.planning/SECURITY.md', '01-SECURITY.md']);
  assert.equal(findArtifact(planning, 'SECURITY.md'), join(planning, '.planning/SECURITY.md'));
});

test('of several -suffixed names, the first as the system lists them: by their bytes, as GSD takes them', (t) => {
  const dir = tempDir(t);
  files(dir, ['03-SECURITY.md', '01-SECURITY.md', '02-SECURITY.md', 'SECURITY.md.bak', 'XSECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '01-SECURITY.md'));
  // U+FF01 is EF BC 81 in UTF-8, U+1F600 F0 9F 98 80: by bytes the first
  // comes first, by JavaScript's UTF-16 sort the second.
  const astral = tempDir(t);
  files(astral, ['\u{1f600}-SECURITY.md', '\uff01-SECURITY.md']);
  assert.equal(findArtifact(astral, 'SECURITY.md'), join(astral, '\uff01-SECURITY.md'));
});

test('a listed name that cannot be looked at ends the search of that directory, as in GSD', (t) => {
  const dir = tempDir(t);
  // 0xFF is no UTF-8: `0\xff-` is listed as `0\ufffd-`, a name no file has.
  // By bytes it comes after `00-` and before `1-`.
  fs.writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0x30, 0xff]), Buffer.from('-SECURITY.md')]), '---\n---\n');
  files(dir, ['1-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['00-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '00-SECURITY.md'));
});

test('only regular files count', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'SECURITY.md'));
  mkdirSync(join(dir, '01-SECURITY.md'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['02-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '02-SECURITY.md'));
});

test('a symlink inside the directory is followed, one leading out is not', (t) => {
  const dir = tempDir(t);
  const outside = tempDir(t);
  files(outside, ['SECURITY.md']);
  symlinkSync(join(outside, 'SECURITY.md'), join(dir, 'SECURITY.md'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['real/SECURITY.md']);
  symlinkSync(join(dir, 'real/SECURITY.md'), join(dir, '01-SECURITY.md'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '01-SECURITY.md'));
});

test('a .planning that is a symlink out of the directory is not followed', (t) => {
  const dir = tempDir(t);
  const outside = tempDir(t);
  files(outside, ['SECURITY.md']);
  symlinkSync(outside, join(dir, '.planning'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
});

test('a directory that does not exist has no artifacts', (t) => {
  assert.equal(findArtifact(join(tempDir(t), 'missing'), 'SECURITY.md'), undefined);
});

test('a name matches as written, never by case, in every step', (t) => {
  const dir = tempDir(t);
  files(dir, ['security.md', '.planning/Security.md', '01-security.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['02-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '02-SECURITY.md'));
});

test('a symlink to a directory inside, or a dangling one, is not a file', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'sub'));
  symlinkSync(join(dir, 'sub'), join(dir, 'SECURITY.md'));
  symlinkSync(join(dir, 'nowhere'), join(dir, '01-SECURITY.md'));
  assert.equal(findArtifact(dir, 'SECURITY.md'), undefined);
  files(dir, ['02-SECURITY.md']);
  assert.equal(findArtifact(dir, 'SECURITY.md'), join(dir, '02-SECURITY.md'));
});

// The shipped artefact, as a user for whom file modes count: a name is taken
// only from a listing, and a file only once it can be examined.
test('a directory that may be listed but not entered, or entered but not listed: its artifact is not found, never misread', async (t) => {
  const wrap = unprivileged(t);
  if (wrap === undefined) return;
  const dir = tempDir(t);
  chmodSync(dir, 0o755);
  files(dir, ['listed/SECURITY.md', 'entered/.planning/SECURITY.md']);
  // Modes that bind the owner too, when the tests do not run as root.
  chmodSync(join(dir, 'listed'), 0o444);
  chmodSync(join(dir, 'entered', '.planning'), 0o111);
  const predicate = JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'a', equals: null });
  try {
    for (const phase of ['listed', 'entered']) {
      const result = await cli(['check', 'predicate', '--phase-dir', phase, '--raw', '--pick', 'message', '--predicate', predicate], { cwd: dir, wrap });
      assert.deepEqual(
        [result.status, result.stderr, result.stdout],
        [0, '', `Artifact matching SECURITY.md not found in ${join(dir, phase)} or ${dir}\n`],
        phase,
      );
    }
  } finally {
    // Before the temp dir is removed: a user other than root could not.
    chmodSync(join(dir, 'listed'), 0o755);
    chmodSync(join(dir, 'entered', '.planning'), 0o755);
  }
});

test('out of descriptors at any step: the search fails with resource-limit, never "not found"', (t) => {
  const dir = tempDir(t);
  files(dir, ['01-SECURITY.md']);
  const emfile = (): never => {
    throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
  };
  const cases: [string, Partial<SearchFs>][] = [
    ['realpath', { realpathSync: emfile as never }],
    ['readdir', { readdirSync: emfile as never }],
    ['lstat', { lstatSync: emfile as never }],
    ['stat', { statSync: emfile as never }],
  ];
  for (const [step, broken] of cases) {
    const found = search(dir, 'SECURITY.md', { ...fs, ...broken });
    assert.deepEqual(
      found.ok ? found.value : [found.failure.reason, found.failure.message],
      ['resource-limit', `cannot search ${dir} for SECURITY.md: EMFILE`],
      step,
    );
  }
  const enfile = search(dir, 'SECURITY.md', {
    ...fs,
    readdirSync: (() => {
      throw Object.assign(new Error('ENFILE'), { code: 'ENFILE' });
    }) as never,
  });
  assert.equal(enfile.ok ? 'found' : enfile.failure.reason, 'resource-limit');
  // Any other failure only says that path is not the artifact.
  const denied = search(dir, 'SECURITY.md', {
    ...fs,
    lstatSync: (() => {
      throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    }) as never,
  });
  assert.deepEqual(denied, { ok: true, value: undefined });
});

test('a bug in a lookup is not taken for a missing file', (t) => {
  const dir = tempDir(t);
  files(dir, ['SECURITY.md']);
  assert.throws(
    () =>
      search(dir, 'SECURITY.md', {
        ...fs,
        realpathSync: (() => {
          throw new TypeError('bug');
        }) as never,
      }),
    TypeError,
  );
});
