import { isAbsolute, relative, sep } from 'node:path';

// Whether `path` is `dir` itself or lies below it (both absolute, resolved).
export function contains(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
