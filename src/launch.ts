import { readFileSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { Script } from 'node:vm';
import { cacheDirectory, cacheFile, pruneCaches, readCache, writeCache } from './code-cache.ts';
import { embeddedProgram } from './embedded-program.ts';
import { errorCode } from './fs/entry.ts';
import { EXIT_FAILURE, ok, refused, type Result } from './failure.ts';

// The file Node runs. It compiles the program (src/main.ts, bundled by
// build.mjs as the text of a CommonJS wrapper function, in a comment at the
// end of this file) with V8's code cache, and writes that cache when the
// first run ends, so it holds every function the run compiled: later starts
// skip parsing and compiling. Node's own module.enableCompileCache() writes
// its cache right after compiling, before any function has run, and saved
// less (docs/explanation/performance.md).
//
// Inside a package whose package.json says "type": "module", Node runs this
// file as an ES module: no module, exports or __filename, and the `require`
// that build.mjs's first line makes from process.getBuiltinModule.

declare const GSD_CHECK_PROGRAM_LENGTH: number;
// Defined by build-bin.mjs only: a standalone binary's file is the Node
// executable, and Node's code cache of its main script spares the parse of a
// string literal there.
declare function gsdCheckProgramText(): string;

interface Program {
  // What stack traces name, and part of the cache's key.
  readonly path: string;
  // The bytes the program was read from: the cache's key.
  readonly bytes: Buffer;
  readonly text: string;
}

// The program, or the one line that says why this start has none.
function load(): Result<Program, string> {
  if (typeof gsdCheckProgramText === 'function') {
    const text = gsdCheckProgramText();
    return ok({ path: __filename, bytes: Buffer.from(text), text });
  }
  const path = typeof __filename === 'string' ? __filename : process.argv[1];
  // `cat gsd-check | node -` and `node -e`: no file to read the program from
  // (and a file named "[stdin]" in the working directory is not this one).
  if (path === undefined || !isAbsolute(path)) {
    return refused(
      `gsd-check: cannot run from ${path ?? 'here'}: the program is read from the end of gsd-check's own file; run that file (node path/to/gsd-check …)`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return refused(`gsd-check: cannot read its own file ${path}: ${errorCode(error)}`);
  }
  const text = embeddedProgram(bytes.toString(), GSD_CHECK_PROGRAM_LENGTH);
  if (text === undefined) return refused(DAMAGED);
  return ok({ path, bytes, text });
}

const DAMAGED = 'gsd-check: this copy of dist/gsd-check is damaged (the program at its end is missing or cut); reinstall it';

// Runs the program, or says why it cannot.
function run({ path, bytes, text }: Program): string | undefined {
  const dir = cacheDirectory(process.env, process.getuid?.());
  const file = dir === undefined ? undefined : cacheFile(dir, process.version, process.arch, process.argv[2], path);
  const cachedData = file === undefined ? undefined : readCache(file, path, bytes);
  let script: Script;
  try {
    script = new Script(text, { filename: path, ...(cachedData === undefined ? {} : { cachedData }) });
  } catch {
    // A syntax error: the text found is not the program (its marker damaged,
    // another found in its place).
    return DAMAGED;
  }
  if (dir !== undefined && file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', () => {
      try {
        writeCache(file, path, bytes, script.createCachedData(), process.pid);
        pruneCaches(dir, file, Date.now());
      } catch {
        // Neither throws by design; a throw here would replace the exit
        // status the program set, so nothing may escape.
      }
    });
  }
  const own = typeof module === 'object' ? module : { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(own.exports, require, own, path, dirname(path));
  return undefined;
}

const program = load();
const problem = program.ok ? run(program.value) : program.failure;
if (problem !== undefined) {
  process.exitCode = EXIT_FAILURE;
  process.stderr.write(`${problem}\n`);
}
