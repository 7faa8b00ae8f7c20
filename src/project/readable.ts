import { accessSync, constants } from 'node:fs';

// Whether we may list a directory and enter it. Without this, a project root
// we cannot enter surfaces as the command's verdict (`command exited 126:
// sh: permission denied`) and an artifact in it as "not found": both blame
// the gate for what is the caller's mistake.
export function isReadableDirectory(dir: string): boolean {
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
