// Smoke-tests the linux-arm64 standalone binary on this x64 machine under
// qemu-user (Debian: qemu-user-static, with the arm64 C and C++ runtimes of
// libc6-arm64-cross and libstdc++6-arm64-cross): it names its Node, runs a
// gate whose command blocks, and reports a usage error as gsd-check does.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sourceId } from '../build-id.mjs';
import { builtVersion } from '../release/built-version.mjs';

const bin = resolve(process.env.GSD_CHECK_BIN ?? 'out/gsd-check-linux-arm64');
const qemu = process.env.QEMU ?? 'qemu-aarch64-static';
const sysroot = process.env.QEMU_LD_PREFIX ?? '/usr/aarch64-linux-gnu';
const node = JSON.parse(readFileSync('runtimes/linux-arm64/package-lock.json', 'utf8')).packages['node_modules/node24'].version;
const { version, after } = builtVersion('.');
const between = after === undefined ? '' : `; unreleased, after ${after}`;

const run = (args) => {
  const r = spawnSync(qemu, ['-L', sysroot, bin, ...args], { encoding: 'utf8', timeout: 120_000, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const cases = [
  [['--version'], { status: 0, stdout: `gsd-check ${version} (source ${sourceId()}${between}; standalone build: Node v${node} linux-arm64)\n`, stderr: '' }],
  [
    ['check', 'predicate', '--raw', '--pick', 'message', '--predicate', '{"kind":"command-exit-zero","command":"echo no >&2; exit 3"}'],
    { status: 0, stdout: 'command exited 3: no\n', stderr: '' },
  ],
  [['check', 'predicate', '--predicate'], { status: 2 }],
];

let failed = 0;
if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build:bin first`);
for (const [args, want] of cases) {
  const got = run(args);
  const ok = Object.entries(want).every(([key, value]) => got[key] === value);
  if (!ok) failed++;
  console.log(`${ok ? 'ok' : 'not ok'} - ${qemu} ${bin} ${args.join(' ')}${ok ? '' : `\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(got)}`}`);
}
console.log(`${cases.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
