import { coreScalar } from './core-scalar.ts';

// The frontmatter most gates read (`threats_open: 0`, `open_count: 2`), read
// without the YAML library, whose first use costs every such gate its
// compiling. Only a strict subset is read here: top-level `key: plain-scalar`
// lines, blank lines and comments, no key twice. For anything else the answer
// is undefined and the library reads it. Each value comes as GSD reads it
// (its text) and as YAML 1.2's core schema types it;
// test/artifact/simple-frontmatter.property.test.ts holds this reading equal
// to the library's on every document it accepts.

const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+([A-Za-z0-9_.+~-]+))?(?:[ \t]+#.*)?[ \t]*$/;
const COMMENT = /^[ \t]*(?:#.*)?$/;

export function readSimpleFrontmatter(text: string): { fields: Record<string, unknown>; typed: Record<string, unknown> } | undefined {
  const fields: [string, unknown][] = [];
  const typed: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (COMMENT.test(line)) continue;
    const match = LINE.exec(line);
    if (match === null) return undefined;
    const key = match[1]!;
    const value = match[2];
    // A leading `-` that is not a number could start a sequence: the library decides.
    if (seen.has(key) || (value !== undefined && /^-(?![0-9.])/.test(value))) return undefined;
    seen.add(key);
    fields.push([key, value ?? null]);
    typed.push([key, value === undefined ? null : coreScalar(value)]);
  }
  // fromEntries defines own properties: a "__proto__" key is a field.
  return { fields: Object.fromEntries(fields), typed: Object.fromEntries(typed) };
}
