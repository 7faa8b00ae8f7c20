// The version a build of the tree names (`gsd-check --version`; build.mjs
// bakes it in), decided by committed files alone, so that the committed
// dist/ stays the build of its commit. A tree is a release when it is as
// cutting one leaves it (docs/maintainers/build-and-release.md): CHANGELOG.md's
// Unreleased section holds no entry and its newest section is package.json's
// version, dated. Any other tree is between releases: it names a
// pre-release, which semver orders after the release it follows and before
// whatever the next is numbered, and that release. release.mjs refuses to
// release such a tree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readChangelog } from './changelog.mjs';

// A line of a section that is neither blank nor a heading.
const ENTRY = /^(?!#)\S/m;

// A pre-release after `release`: the next patch's, or for a pre-release, one
// more identifier on it (2.0.0-rc.1.dev comes before 2.0.0-rc.2 and 2.0.0).
const after = (release) => {
  const [, major, minor, patch, pre] = /^(\d+)\.(\d+)\.(\d+)(-.+)?$/.exec(release) ?? [];
  if (major === undefined) throw new Error(`CHANGELOG.md: ${release} is not a version`);
  return pre === undefined ? `${major}.${minor}.${Number(patch) + 1}-dev` : `${release}.dev`;
};

// { version, after }: `after` is the release a build between releases
// follows, undefined for a release.
export function builtVersion(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const { sections } = readChangelog(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'));
  const pending = sections.some((s) => s.name === 'Unreleased' && ENTRY.test(s.body));
  const newest = sections.find((s) => s.name !== 'Unreleased');
  if (!pending && newest?.name === version && newest.date !== undefined) return { version, after: undefined };
  const last = sections.find((s) => s.name !== 'Unreleased' && s.date !== undefined);
  if (last === undefined) throw new Error('CHANGELOG.md has no dated release for a build between releases to name');
  return { version: after(last.name), after: last.name };
}
