import { isDirectory, isEnterable, errorCode } from '../fs/entry.ts';

// Why sh could not be started: the working directory is gone or closed to
// us, or the system refused with an errno code. Node reports a missing cwd
// as ENOENT, like a missing sh, and one we may not enter as EACCES, like an
// sh we may not run; they are told apart here.
export type SpawnError =
  | { readonly kind: 'cwd-missing' }
  | { readonly kind: 'cwd-denied' }
  | { readonly kind: 'system'; readonly code: string };

export function spawnErrorOf(error: unknown, cwd: string): SpawnError {
  const code = errorCode(error);
  if (code === 'ENOENT' && !isDirectory(cwd)) return { kind: 'cwd-missing' };
  if (code === 'EACCES' && !isEnterable(cwd)) return { kind: 'cwd-denied' };
  return { kind: 'system', code };
}

// As a message names it: the errno code, or what is wrong with the cwd.
export function spawnErrorText(error: SpawnError): string {
  return error.kind === 'system' ? error.code : error.kind;
}
