// The docs a release folder carries beside the binaries, at the paths they
// have in the repository, so that their links between each other still lead
// somewhere on a machine that has only the folder (the binary's --help names
// README.md and docs/): the README, the CHANGELOG, CONTRIBUTING.md (the
// README links it), the licence and every page under docs/.
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';

const TOP = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'LICENSE'];

// Paths relative to root, forward slashes, sorted.
export function releaseDocs(root) {
  const walk = (dir) =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(posix.join(dir, e.name)) : [posix.join(dir, e.name)]));
  return [...TOP, ...walk('docs')].sort();
}
