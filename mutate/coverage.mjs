// Which test files execute which lines of src/: every test file is run once on
// the unmutated tree with V8 coverage (inherited by the gsd-check processes it
// spawns), and the covered byte ranges of each bundle are mapped back through
// its inline source map. A mutant then runs only the test files that reach its
// line, which turns hours into minutes.
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { segments } from './sourcemap.mjs';

// Marks, per offset of one script, whether V8 saw it run: outer ranges first,
// so that the innermost range containing an offset decides.
function painted(length, ranges) {
  const hit = new Uint8Array(length);
  const sorted = [...ranges].sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  for (const r of sorted) hit.fill(r.count > 0 ? 1 : 0, r.startOffset, Math.min(r.endOffset, length));
  return hit;
}

// Covered "src/file.ts:line" keys of one coverage directory. `programs` maps a
// launcher's path to the program it embeds (see program.mjs): a script at that
// URL whose extent is the program's is painted on the program's text.
export function coveredLines(dir, root, programs = new Map()) {
  const byText = new Map();
  for (const name of readdirSync(dir)) {
    const { result } = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    for (const script of result) {
      if (!script.url.startsWith('file://')) continue;
      const file = fileURLToPath(script.url);
      // The tests' own temp files (TMPDIR is in the tree) are gone by now, and
      // a module given to `node -e` has a URL in the working directory with no
      // file behind it: neither maps to src/.
      if (!file.startsWith(root) || file.startsWith(`${root}/.tmp/`) || !existsSync(file)) continue;
      const ranges = script.functions.flatMap((f) => f.ranges);
      const program = programs.get(file);
      const extent = Math.max(0, ...ranges.map((r) => r.endOffset));
      const key = program !== undefined && extent === program.length ? `${file}\0program` : file;
      let entry = byText.get(key);
      if (entry === undefined) {
        const code = key === file ? readFileSync(file, 'utf8') : program;
        // A launcher's own map comes before the program it carries.
        const mapIn = key === file && program !== undefined && code.includes(program) ? code.slice(0, code.lastIndexOf(program)) : code;
        entry = { file, code, mapIn, runs: [] };
      }
      entry.runs.push(ranges);
      byText.set(key, entry);
    }
  }
  const lines = new Set();
  for (const { file, code, mapIn, runs } of byText.values()) {
    const segs = segments(file, code, root, mapIn);
    if (!segs) continue;
    const hits = runs.map((ranges) => painted(code.length, ranges));
    for (const s of segs) {
      if (s.source.startsWith('src/') && hits.some((h) => h[s.offset])) lines.add(`${s.source}:${s.line}`);
    }
  }
  return lines;
}

export function coverageDir(base, testFile) {
  const dir = join(base, testFile.replaceAll('/', '_'));
  mkdirSync(dir, { recursive: true });
  // Writable by the unprivileged user some tests run the bundle as.
  chmodSync(dir, 0o777);
  chmodSync(base, 0o755);
  return dir;
}
