// The release's tags (release/tags.mjs) in a repository made here: v<version>
// annotated on the released commit and never moved, v<major> annotated and
// moved to the highest release of its line, nothing pushed to the remote.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { tagConflict, tagRelease } from '../../release/tags.mjs';
import { tempDir } from '../helpers/support.ts';

// git with an identity of its own and none of the machine's configuration.
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release@example.invalid',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release@example.invalid',
};
const ENV = { ...process.env, ...IDENTITY, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

function repository(t: import('node:test').TestContext) {
  const dir = tempDir(t);
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, env: ENV, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  git('init', '-q', '-b', 'main');
  const commit = (n: number) => {
    writeFileSync(join(dir, 'file'), `${n}\n`);
    git('add', 'file');
    git('commit', '-q', '-m', `commit ${n}`);
    return git('rev-parse', 'HEAD');
  };
  return { dir, git, commit };
}

// What a tag is (tag for an annotated one, commit for a lightweight one), the
// commit it names, and its message's first line.
const describe = (git: (...args: string[]) => string, tag: string) => [
  git('cat-file', '-t', `refs/tags/${tag}`),
  git('rev-parse', `${tag}^{commit}`),
  git('tag', '--list', '--format=%(contents:subject)', tag),
];

test('v<version> is made on the released commit and v<major> with it, both annotated; a second run keeps them', (t) => {
  const { dir, git, commit } = repository(t);
  const a = commit(1);
  const first = tagRelease(dir, a, '1.0.0', 'gsd-check 1.0.0 (source 0123456789ab)', ENV);
  assert.deepEqual(first, {
    said: [`tag v1.0.0 made on ${a.slice(0, 12)}`, `tag v1 made on ${a.slice(0, 12)}`],
    push: ['git push origin v1.0.0', 'git push -f origin v1'],
  });
  assert.deepEqual(describe(git, 'v1.0.0'), ['tag', a, 'gsd-check 1.0.0 (source 0123456789ab)']);
  assert.deepEqual(describe(git, 'v1'), ['tag', a, 'gsd-check 1.0.0 (source 0123456789ab)']);
  assert.equal(git('tag', '--list', '--format=%(contents:body)', 'v1'), 'v1 names the latest 1.x release, 1.0.0.');

  const again = tagRelease(dir, a, '1.0.0', 'gsd-check 1.0.0 (source 0123456789ab)', ENV);
  assert.deepEqual(again.said, [`tag v1.0.0 already names ${a.slice(0, 12)}: kept`, `tag v1 already names ${a.slice(0, 12)}: kept`]);
});

test('a version tagged on another commit is refused, and nothing is tagged', (t) => {
  const { dir, git, commit } = repository(t);
  const a = commit(1);
  const b = commit(2);
  git('tag', 'v1.0.0', a);
  const refusal = `tag v1.0.0 already names ${a.slice(0, 12)}, not ${b.slice(0, 12)}: a version is released once (bump package.json's version)`;
  assert.equal(tagConflict(dir, b, '1.0.0'), refusal);
  assert.equal(tagConflict(dir, a, '1.0.0'), undefined);
  assert.equal(tagConflict(dir, b, '1.0.1'), undefined);
  assert.throws(() => tagRelease(dir, b, '1.0.0', 'gsd-check 1.0.0', ENV), { message: refusal });
  assert.equal(git('tag', '--list'), 'v1.0.0');
  assert.equal(git('rev-parse', 'v1.0.0^{commit}'), a);
});

test('v<major> moves to a later release of its line, not back to a fix of an older one; a prerelease moves nothing', (t) => {
  const { dir, git, commit } = repository(t);
  const [a, b, c, d] = [commit(1), commit(2), commit(3), commit(4)];
  tagRelease(dir, a, '1.0.0', 'gsd-check 1.0.0', ENV);
  assert.deepEqual(tagRelease(dir, b, '1.1.0', 'gsd-check 1.1.0', ENV).said, [
    `tag v1.1.0 made on ${b.slice(0, 12)}`,
    `tag v1 moved from ${a.slice(0, 12)} on ${b.slice(0, 12)}`,
  ]);
  assert.deepEqual(describe(git, 'v1'), ['tag', b, 'gsd-check 1.1.0']);

  const fix = tagRelease(dir, c, '1.0.1', 'gsd-check 1.0.1', ENV);
  assert.deepEqual(fix, {
    said: [`tag v1.0.1 made on ${c.slice(0, 12)}`, `tag v1 left on ${b.slice(0, 12)}: v1.1.0 is a later release of the line`],
    push: ['git push origin v1.0.1'],
  });
  assert.equal(git('rev-parse', 'v1^{commit}'), b);

  const rc = tagRelease(dir, d, '2.0.0-rc.1', 'gsd-check 2.0.0-rc.1', ENV);
  assert.deepEqual(rc, {
    said: [`tag v2.0.0-rc.1 made on ${d.slice(0, 12)}`, '2.0.0-rc.1 is a prerelease: no major tag moved'],
    push: ['git push origin v2.0.0-rc.1'],
  });
  assert.equal(git('tag', '--list', 'v2'), '');
  // A line of its own: v10's releases are not v1's.
  tagRelease(dir, d, '10.0.0', 'gsd-check 10.0.0', ENV);
  assert.equal(git('rev-parse', 'v1^{commit}'), b);
});

test('nothing is pushed: the remote has no tag after a release is tagged', (t) => {
  const { dir, git, commit } = repository(t);
  const remote = tempDir(t);
  assert.equal(spawnSync('git', ['init', '-q', '--bare', remote], { env: ENV, timeout: 30_000 }).status, 0);
  git('remote', 'add', 'origin', remote);
  const a = commit(1);
  git('push', '-q', 'origin', 'main');
  tagRelease(dir, a, '1.0.0', 'gsd-check 1.0.0', ENV);
  assert.equal(git('ls-remote', '--tags', 'origin'), '');
  assert.equal(git('ls-remote', '--heads', 'origin'), `${a}\trefs/heads/main`);
});
