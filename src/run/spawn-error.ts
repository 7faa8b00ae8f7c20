import { accessSync, constants, statSync } from 'node:fs';
import { errorCode } from '../fs/error-code.ts';

// Why sh could not be started: an errno code, "cwd-missing" or "cwd-denied".
// Node reports a missing cwd as ENOENT, like a missing sh, and one we may not
// enter as EACCES, like an sh we may not run; they are told apart here.
export function spawnErrorCode(error: unknown, cwd: string): string {
  const code = errorCode(error);
  if (code === 'ENOENT' && !isDirectory(cwd)) return 'cwd-missing';
  if (code === 'EACCES' && !isEnterable(cwd)) return 'cwd-denied';
  return code;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isEnterable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
