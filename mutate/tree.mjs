// The copy of the repository that mutants are written into, so the working
// tree is never touched, and the processes a run leaves behind: every command
// the harness starts carries a marker in its environment that is unique to
// that command, and whatever still carries it after the command ends is killed
// (a marker per command, so that two trees never kill each other's tests).
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// What builds and tests (and what the coverage cache is keyed by): every file of the checkout that git tracks or would
// track (not what .gitignore leaves out: node_modules, .test-out), as it is
// on disk, edits not yet committed included. A list of what the tests read
// would rot: test/exports.test.ts began reading bench/ and the run stopped at
// the unmutated tree.
export function checkoutFiles(root) {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // A file deleted but not yet staged is still listed.
  return [...new Set(listed.split('\0').filter((name) => name !== ''))].filter((name) => existsSync(join(root, name)));
}
const RUN = `GSD_MUTATE_${randomUUID().replaceAll('-', '')}_`;
let commands = 0;

export function makeTree(root) {
  const dir = mkdtempSync(join(tmpdir(), 'gsd-mutate-'));
  // Some tests run the bundle as an unprivileged user, who must reach it.
  chmodSync(dir, 0o755);
  const names = checkoutFiles(root);
  for (const name of names) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    cpSync(join(root, name), join(dir, name), { verbatimSymlinks: true });
  }
  // A checkout of its own, those files committed: tests that ask git what
  // the checkout holds (tree.test.ts, the pre-commit recipe's clone) see the
  // tree, not a repository above it or none.
  const git = (args, input) =>
    execFileSync('git', ['-c', 'user.name=mutate', '-c', 'user.email=mutate@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      input,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
  git(['init', '-q']);
  // What the run writes there (the tests' temp dirs and cache, the coverage)
  // and the link to node_modules are the run's, not the checkout's.
  writeFileSync(join(dir, '.git', 'info', 'exclude'), '/.tmp/\n/.cache/\n/.coverage/\n/node_modules\n');
  git(['add', '--pathspec-from-file=-', '--pathspec-file-nul'], names.join('\0'));
  git(['commit', '-qm', 'the tree', '--no-verify']);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // The tests' temp dirs go in the tree too (TMPDIR): a test killed at its
  // timeout never cleans up, and the tree's removal does it instead. Open to
  // all, like /tmp, for the tests that run as another user.
  mkdirSync(join(dir, '.tmp'));
  chmodSync(join(dir, '.tmp'), 0o1777);
  return dir;
}

// A process killed a moment ago may still be writing there (ENOTEMPTY):
// rmSync tries again then. Never throws: it runs after the error that ended
// the run, which it must not replace; it says what it could not remove.
export function removeTree(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  } catch (error) {
    process.stderr.write(`mutate: could not remove the tree ${dir}: ${error.code ?? error.message}\n`);
  }
}

// Pids whose environment holds `marker` (not this process).
function marked(marker) {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(marker)) pids.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

function sweep(marker) {
  const pids = marked(Buffer.from(marker));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids.length;
}

const running = new Set();

// Runs a command in its own process group with the marker set; on timeout the
// group is killed. Resolves {status, timedOut, ms, output}.
export function run(command, args, { cwd, env = {}, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const mark = `${RUN}${++commands}`;
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env, [mark]: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    let output = '';
    const keep = (b) => {
      output += b;
      if (output.length > 200_000) output = output.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      running.delete(child);
      sweep(`${mark}=`);
      resolve({ status: status ?? signal, timedOut, ms: performance.now() - started, output });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// For an interrupt: the running command's group, then anything marked.
export function stopAll() {
  for (const child of running) killGroup(child);
  sweep(RUN);
}
