// The program that dist/gsd-check embeds: its launcher compiles it through
// vm.Script under the launcher's own file name, so V8 reports two scripts for
// that one URL and the program's offsets are offsets into this text, not into
// the file. Taken by running the launcher with vm.Script replaced, so it does
// not depend on how build.mjs writes the string.
import { spawnSync } from 'node:child_process';

const CAPTURE = `
const vm = require('node:vm');
vm.Script = function (code) {
  process.stdout.write(code, () => process.exit(0));
  throw Object.assign(new Error('captured'), { captured: true });
};
process.on('uncaughtException', (e) => { if (!e.captured) throw e; });
require(process.argv[1]);
`;

export function embeddedProgram(launcher) {
  // The launcher takes the replaced vm.Script's throw for a damaged copy and
  // says so on stderr: expected here, so stderr is shown only when the capture
  // fails.
  const r = spawnSync(process.execPath, ['-e', CAPTURE, launcher], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' },
  });
  if (r.status !== 0 || !r.stdout.startsWith('(function')) {
    throw new Error(`${launcher} did not hand a program to vm.Script (exit ${r.status}): update mutate/program.mjs\n${r.stderr}`);
  }
  return r.stdout;
}
