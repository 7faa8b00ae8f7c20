// The program one GSD process runs to answer a run's requests (gsd/ask.ts),
// as the text `node -e` takes: loaded by the GSD's own Node, it loads GSD's
// gsd-tools.cjs afresh as the main module for each request (GSD runs main()
// only then; its libraries stay loaded, which is the saving), with that
// request's argv, working directory and environment; it keeps what GSD
// writes to fd 1 and 2 apart for each, ends a request where GSD's
// process.exit would have ended the process (nothing written after counts),
// resets the one setting GSD keeps across calls (--json-errors), and prints
// the answers as one JSON array on its own stdout. It is plain JavaScript
// for every Node GSD runs on, and none of gsd-check's code.
export const BATCH_SCRIPT = String.raw`'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const tools = path.resolve(process.argv[1]);
const input = JSON.parse(process.env.GSD_CHECK_BATCH_REQUESTS);
const writeSync = fs.writeSync;
const EXIT = { exit: true };
let current;
const bytesOf = (data, a, b) => {
  if (typeof data === 'string') return Buffer.from(data, typeof b === 'string' ? b : 'utf8');
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const offset = typeof a === 'number' ? a : 0;
  return view.subarray(offset, typeof b === 'number' ? offset + b : undefined);
};
const keep = (fd, bytes) => {
  if (current === undefined || current.closed) return;
  current.chunks.push([fd, bytes]);
};
fs.writeSync = function (fd, data, a, b) {
  if (current !== undefined && (fd === 1 || fd === 2)) {
    const bytes = bytesOf(data, a, b);
    keep(fd, bytes);
    return bytes.length;
  }
  return writeSync.apply(fs, arguments);
};
for (const [fd, stream] of [[1, process.stdout], [2, process.stderr]]) {
  stream.write = function (chunk, encoding, callback) {
    const done = typeof encoding === 'function' ? encoding : callback;
    keep(fd, typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
    if (typeof done === 'function') process.nextTick(done);
    return true;
  };
}
// GSD's process.exit ends the request, not the process: what it wrote
// before counts, nothing after (its own catch may go on), and the request
// ends when GSD's main() has settled, as the process would have ended there.
process.exit = function (code) {
  if (current !== undefined && !current.closed) {
    current.closed = true;
    current.code = code === undefined ? (process.exitCode ?? 0) : Number(code);
  }
  throw EXIT;
};
const lib = path.join(path.dirname(tools), 'lib') + path.sep;
const cliExit = require(lib + 'cli-exit.cjs');
const runMain = cliExit.runMain;
// GSD rebuilds its skills manifest from its own commands' files for each
// render, and those files do not change while a run lasts: one build a
// batch, handed out as a copy each time, where GSD has the function to wrap
// (before any of GSD's modules takes it, as they do when they load).
try {
  const profiles = require(lib + 'install-profiles.cjs');
  const build = profiles.loadSkillsManifest;
  if (typeof build === 'function') {
    const built = new Map();
    profiles.loadSkillsManifest = function (...args) {
      const key = JSON.stringify(args);
      if (!built.has(key)) built.set(key, build.apply(this, args));
      return new Map([...built.get(key)].map(([name, value]) => [name, Array.isArray(value) ? [...value] : value]));
    };
  }
} catch {}
cliExit.runMain = (main) => {
  const request = current;
  request.started = true;
  runMain(async () => {
    try {
      return await main();
    } finally {
      setImmediate(() => request.settle());
    }
  });
};
process.on('uncaughtException', (error) => {
  if (error === EXIT || current === undefined || current.closed) return;
  keep(2, Buffer.from((error && error.stack ? error.stack : String(error)) + '\n'));
  current.closed = true;
  current.code = 1;
});
process.on('unhandledRejection', (error) => { if (error !== EXIT) throw error; });

async function answer(request) {
  process.chdir(request.cwd);
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, input.env, request.env);
  process.argv = [process.execPath, tools, ...request.args];
  process.exitCode = undefined;
  // --json-errors is a setting of whichever of GSD's modules keeps it
  // (lib/io.cjs in 1.11, lib/cli-exit.cjs in 1.14): off again for each.
  for (const loaded of Object.values(require.cache)) {
    if (loaded !== undefined && loaded.filename.startsWith(lib) && typeof loaded.exports.setJsonErrorMode === 'function') loaded.exports.setJsonErrorMode(false);
  }
  const ended = new Promise((resolve) => {
    current = { chunks: [], closed: false, started: false, code: undefined, settle: resolve };
  });
  delete require.cache[tools];
  try {
    Module._load(tools, null, true);
  } catch (error) {
    if (error !== EXIT && !current.closed) {
      keep(2, Buffer.from((error && error.stack ? error.stack : String(error)) + '\n'));
      current.closed = true;
      current.code = 1;
    }
  }
  if (!current.started) current.settle();
  await ended;
  const { chunks } = current;
  const code = current.closed ? current.code : (process.exitCode ?? 0);
  current = undefined;
  const of = (fd) => Buffer.concat(chunks.filter(([f]) => f === fd).map(([, b]) => b));
  return { code: Number(code), stdout: of(1).toString('base64'), stderr: of(2).toString('base64'), order: chunks.map(([fd, b]) => [fd, b.length]) };
}

(async () => {
  const answers = [];
  for (const request of input.requests) answers.push(await answer(request));
  process.exitCode = 0;
  writeSync(1, JSON.stringify(answers) + '\n');
})();
`;
