import { realpathSync } from 'node:fs';

// The canonical path, or undefined when there is none (gone, unsearchable).
export function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
