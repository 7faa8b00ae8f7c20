import type { Result } from '../failure.ts';
import { parseWithLibrary, parseWithoutLibrary, type Fields } from './frontmatter.ts';
import { parseOffThread, type OffThreadOptions } from './parse-off-thread.ts';
import { yaml } from './yaml.ts';

// Up to this size the YAML library parses on the main thread: at worst (one
// quoted key a line) that costs about what starting a thread to parse it
// does (docs/reference/predicates.md gives the counts). Larger frontmatter
// goes to a worker thread, which a stop signal ends at once.
const IN_THREAD_BYTES = 8 * 1024;

// The fields of a frontmatter, parsed where it costs least; 'stopped' when a
// stop signal came first.
export async function readFields(yamlText: string, file: string, options: OffThreadOptions = {}): Promise<Result<Fields> | 'stopped'> {
  const quick = parseWithoutLibrary(yamlText, file);
  if (quick !== undefined) return quick;
  if (Buffer.byteLength(yamlText) <= IN_THREAD_BYTES) return parseWithLibrary(yamlText, file, yaml());
  return parseOffThread(yamlText, file, options);
}
