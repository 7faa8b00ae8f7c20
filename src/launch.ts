import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { cacheDirectory, cacheFile, pruneCaches, readCache, writeCache } from './code-cache.ts';
import { embeddedProgram } from './embedded-program.ts';

// The file Node runs. It compiles the program (src/main.ts, bundled by
// build.mjs as the text of a CommonJS wrapper function, in a comment at the
// end of this file) with V8's code cache, and writes that cache when the
// first run ends, so it holds every function the run compiled: later starts
// skip parsing and compiling. Node's own module.enableCompileCache() writes
// its cache right after compiling, before any function has run, and saved a
// third as much.

declare const GSD_CHECK_PROGRAM_LENGTH: number;
declare const GSD_CHECK_PROGRAM_ID: string;
// Defined by build-bin.mjs only: a standalone binary's file is the Node
// executable, and Node's code cache of its main script spares the parse of a
// string literal there.
declare function gsdCheckProgramText(): string;

const source = typeof gsdCheckProgramText === 'function' ? gsdCheckProgramText() : embeddedProgram(readFileSync(__filename, 'utf8'), GSD_CHECK_PROGRAM_LENGTH);
const dir = cacheDirectory(process.env, process.getuid?.());
const file = dir === undefined ? undefined : cacheFile(dir, process.version, process.arch, process.argv[2], GSD_CHECK_PROGRAM_ID);
const cachedData = file === undefined ? undefined : readCache(file, GSD_CHECK_PROGRAM_ID);
const script = new Script(source, { filename: __filename, ...(cachedData === undefined ? {} : { cachedData }) });
if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
  process.once('exit', () => {
    writeCache(file, GSD_CHECK_PROGRAM_ID, script.createCachedData(), process.pid);
    pruneCaches(dir!, file, Date.now());
  });
}
(script.runInThisContext() as (...args: unknown[]) => void)(exports, require, module, __filename, __dirname);
