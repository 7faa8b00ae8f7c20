import { spawnSync } from 'node:child_process';

// Whether `root` is a checkout with its history: a copy the mutation harness
// makes, a shallow clone or a source archive holds one commit or none, and
// cannot show a past commit a page names.
export function hasHistory(root: string): boolean {
  const git = (args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8', timeout: 30_000 });
  return git(['rev-parse', '--verify', '--quiet', 'HEAD^']).status === 0 && git(['rev-parse', '--is-shallow-repository']).stdout.trim() === 'false';
}
