// Reads the inline source map that esbuild appends to a bundle, and lists its
// segments: which offset of the bundle came from which line of which source.
// Written here, not taken from a package: node:module's SourceMap can only look
// one position up, and the harness needs every segment.
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...B64].map((c, i) => [c, i]));

function* vlq(text) {
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const d = DIGIT.get(c);
    value += (d & 31) << shift;
    if (d & 32) {
      shift += 5;
      continue;
    }
    yield value & 1 ? -(value >>> 1) : value >>> 1;
    value = 0;
    shift = 0;
  }
}

// Segments of `code` (the bundle's text at `file`) as {offset, source, line}:
// offset in UTF-16 units as V8 counts them, source relative to `root`, line 1-based.
// The map is the last inline one in `mapIn` (a launcher's own text, without
// the program it carries): an embedded program's ends inside its wrapper, and
// the wrapper's head shifts the first line.
export function segments(file, code, root, mapIn = code) {
  const m = [...mapIn.matchAll(/\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)/g)].at(-1);
  if (!m) return null;
  const map = JSON.parse(Buffer.from(m[1], 'base64').toString('utf8'));
  const head = code.startsWith('(function') ? code.indexOf('{') + 1 : 0;
  // Relative to the bundle's folder when esbuild wrote it, or to the folder
  // it ran in when the text was kept in memory (write: false).
  const from = (base) => map.sources.map((s) => resolve(base, map.sourceRoot ?? '', s));
  const written = from(dirname(file));
  const sources = (written.some((s) => existsSync(s)) ? written : from(root)).map((s) => relative(root, s));
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const out = [];
  let src = 0;
  let srcLine = 0;
  let srcCol = 0;
  map.mappings.split(';').forEach((line, genLine) => {
    let genCol = 0;
    for (const seg of line.split(',')) {
      if (!seg) continue;
      const f = [...vlq(seg)];
      genCol += f[0];
      if (f.length < 4) continue;
      src += f[1];
      srcLine += f[2];
      srcCol += f[3];
      out.push({ offset: lineStarts[genLine] + genCol + (genLine === 0 ? head : 0), source: sources[src], line: srcLine + 1 });
    }
  });
  return out;
}
