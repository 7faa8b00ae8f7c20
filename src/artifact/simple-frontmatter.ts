// The frontmatter most gates read (`threats_open: 0`, `open_count: 2`), read
// without the YAML library, whose first use costs every such gate about 60 M
// instructions of compiling (a third of a cold start on Node 24). Only a
// strict subset is read here: top-level `key: plain-scalar` lines, blank
// lines and comments, no key twice. For anything else the answer is
// undefined and the library reads it. Values resolve as YAML 1.2's core
// schema does; test/artifact/simple-frontmatter.property.test.ts holds this
// reading equal to the library's on every document it accepts.

const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+([A-Za-z0-9_.+~-]+))?(?:[ \t]+#.*)?[ \t]*$/;
const COMMENT = /^[ \t]*(?:#.*)?$/;
// Keys the core schema would read as something other than a string.
const NOT_STRING_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;

export function readSimpleFrontmatter(text: string): Record<string, unknown> | undefined {
  const fields: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (COMMENT.test(line)) continue;
    const match = LINE.exec(line);
    if (match === null) return undefined;
    const key = match[1]!;
    if (NOT_STRING_KEY.test(key) || seen.has(key)) return undefined;
    const value = match[2] === undefined ? null : scalar(match[2]);
    if (value === undefined) return undefined;
    seen.add(key);
    fields.push([key, value]);
  }
  // fromEntries defines own properties: a "__proto__" key is a field.
  return Object.fromEntries(fields);
}

// A plain scalar by the core schema, or undefined where this reader does not
// decide (a leading `-` that is not a number could start a sequence).
function scalar(text: string): unknown {
  if (/^-(?![0-9.])/.test(text)) return undefined;
  if (/^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}
