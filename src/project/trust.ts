import { lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

// Whether a `.planning` or `.git` entry may steer the root search towards
// itself. A shared ancestor (/tmp, a CI workspace, /home) is where someone
// else can plant one, so an entry counts only when nobody else could have put
// it there:
// - its directory is not world-writable, or is sticky and the entry is ours;
// - and it is ours or root's, unless we are root (a root CI job in a checkout
//   owned by another uid must still find its project).
// `uid` undefined (no owners on this platform): every entry counts.
export function trustedEntry(path: string, uid: number | undefined): boolean {
  if (uid === undefined) return true;
  let owner: number;
  let parentMode: number;
  try {
    owner = lstatSync(path).uid;
    parentMode = statSync(dirname(path)).mode;
  } catch {
    return false;
  }
  const worldWritable = (parentMode & 0o002) !== 0;
  if (worldWritable) return (parentMode & 0o1000) !== 0 && owner === uid;
  return owner === uid || owner === 0 || uid === 0;
}
