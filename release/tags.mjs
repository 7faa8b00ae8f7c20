// A release's tags, in the local repository only: v<version>, annotated, on
// the released commit, made once (a version names one commit for ever, so a
// v<version> on another commit is refused, never moved), and v<major>,
// annotated and forced, moved to it when it is the highest release of its
// major line, so that `uses: <owner>/gsd-check@v1` follows the 1.x releases
// and a fix released for an older line does not pull v1 back. A prerelease
// moves nothing. Nothing is pushed: publishing the tags is the maintainer's
// step (docs/maintainers/build-and-release.md), as a push cannot be undone.
import { execFileSync } from 'node:child_process';

const git = (repo, args, env = process.env) =>
  execFileSync('git', args, { cwd: repo, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).trim();

// MAJOR.MINOR.PATCH, the only form a line's tag follows.
const STABLE = /^(\d+)\.(\d+)\.(\d+)$/;

// The commit a tag names, or undefined when there is no such tag.
function taggedCommit(repo, tag) {
  const names = git(repo, ['tag', '--list', tag]);
  return names === '' ? undefined : git(repo, ['rev-parse', `refs/tags/${tag}^{commit}`]);
}

const short = (commit) => commit.slice(0, 12);

// Why `version` cannot be tagged on `commit`, or undefined when it can.
export function tagConflict(repo, commit, version) {
  const at = taggedCommit(repo, `v${version}`);
  if (at === undefined || at === commit) return undefined;
  return `tag v${version} already names ${short(at)}, not ${short(commit)}: a version is released once (bump package.json's version)`;
}

// Makes the tags; says what it did, a line each, and the commands that
// publish them. `title` is the first line of each tag's message; `env` is
// git's environment (the tagger's identity comes from it or git's config).
export function tagRelease(repo, commit, version, title, env = process.env) {
  const conflict = tagConflict(repo, commit, version);
  if (conflict !== undefined) throw new Error(conflict);
  const said = [];
  const tag = `v${version}`;
  if (taggedCommit(repo, tag) === commit) said.push(`tag ${tag} already names ${short(commit)}: kept`);
  else {
    git(repo, ['tag', '--annotate', '--message', title, tag, commit], env);
    said.push(`tag ${tag} made on ${short(commit)}`);
  }

  const stable = STABLE.exec(version);
  const push = [`git push origin ${tag}`];
  if (stable === null) return { said: [...said, `${version} is a prerelease: no major tag moved`], push };
  const major = `v${stable[1]}`;
  const line = git(repo, ['tag', '--list', `${major}.*`])
    .split('\n')
    .map((name) => STABLE.exec(name.slice(1)))
    .filter((m) => m !== null && m[1] === stable[1])
    .map((m) => [Number(m[2]), Number(m[3])]);
  const [minor, patch] = [Number(stable[2]), Number(stable[3])];
  const newer = line.find(([m, p]) => m > minor || (m === minor && p > patch));
  const was = taggedCommit(repo, major);
  if (newer !== undefined) {
    return {
      said: [...said, `tag ${major} left on ${was === undefined ? 'nothing' : short(was)}: ${major}.${newer[0]}.${newer[1]} is a later release of the line`],
      push,
    };
  }
  push.push(`git push -f origin ${major}`);
  if (was === commit) return { said: [...said, `tag ${major} already names ${short(commit)}: kept`], push };
  git(repo, ['tag', '--annotate', '--force', '--message', `${title}\n\n${major} names the latest ${stable[1]}.x release, ${version}.`, major, commit], env);
  return { said: [...said, `tag ${major} ${was === undefined ? 'made' : `moved from ${short(was)}`} on ${short(commit)}`], push };
}
