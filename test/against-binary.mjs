// Runs the CLI tests (test/helpers/cli-tests.mjs) against the standalone
// binary, with a PATH that holds every tool of this machine except Node: the
// binary must need none. Build it first with `npm run build:bin`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI_BUNDLES } from './helpers/cli-tests.mjs';

const bin = resolve(process.env.GSD_CHECK_BIN ?? `out/gsd-check-${process.platform}-${process.arch}`);
const NODE_TOOLS = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);
let status = 1;
const shadow = mkdtempSync(join(tmpdir(), 'gsd-check-path-'));
try {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build:bin first`);
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    let entries = [];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of entries) {
      if (NODE_TOOLS.has(name) || existsSync(join(shadow, name))) continue;
      symlinkSync(join(dir, name), join(shadow, name));
    }
  }
  const env = { ...process.env, PATH: shadow, GSD_CHECK_BIN: bin };
  const which = spawnSync('sh', ['-c', 'command -v node || echo none'], { env, encoding: 'utf8' });
  console.log(`PATH without Node (node on it: ${which.stdout.trim()}); testing ${bin}`);
  // The tests expect the Node they run on inside the binary (--version): the
  // pinned one that build-bin.mjs puts there.
  const pinned = resolve('runtimes', `${process.platform}-${process.arch}`, 'node_modules', 'node24', 'bin', 'node');
  const runner = existsSync(pinned) ? pinned : process.execPath;
  status = spawnSync(runner, ['--test', ...CLI_BUNDLES], { env, stdio: 'inherit' }).status ?? 1;
} finally {
  rmSync(shadow, { recursive: true, force: true });
}
process.exitCode = status;
