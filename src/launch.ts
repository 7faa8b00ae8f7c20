import { Script } from 'node:vm';
import { cacheDirectory, cacheFile, pruneCaches, readCache, writeCache } from './code-cache.ts';

// The file Node runs. It compiles the program (src/main.ts, bundled by
// build.mjs and embedded here as the text of a CommonJS wrapper function)
// with V8's code cache, and writes that cache when the first run ends, so it
// holds every function the run compiled: later starts skip parsing and
// compiling. Node's own module.enableCompileCache() writes its cache right
// after compiling, before any function has run, and saved a third as much.

declare const GSD_CHECK_PROGRAM: string;
declare const GSD_CHECK_PROGRAM_ID: string;

const dir = cacheDirectory(process.env, process.getuid?.());
const file = dir === undefined ? undefined : cacheFile(dir, process.version, process.arch, process.argv[2], GSD_CHECK_PROGRAM_ID);
const cachedData = file === undefined ? undefined : readCache(file, GSD_CHECK_PROGRAM_ID);
const script = new Script(GSD_CHECK_PROGRAM, { filename: __filename, ...(cachedData === undefined ? {} : { cachedData }) });
if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
  process.once('exit', () => {
    writeCache(file, GSD_CHECK_PROGRAM_ID, script.createCachedData(), process.pid);
    pruneCaches(dir!, file, Date.now());
  });
}
(script.runInThisContext() as (...args: unknown[]) => void)(exports, require, module, __filename, __dirname);
