// Shared by the tests: where the artefact is, how to run it, temp dirs and
// process checks that clean up after themselves.
import { spawn, spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'build.mjs'))) return dir;
    if (dirname(dir) === dir) throw new Error('repository root not found');
  }
}

export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
// The bundle build.mjs writes, for the tests that read it as a file.
export const DIST = join(ROOT, 'dist', 'gsd-check');
// The build the CLI tests (test/helpers/cli-tests.mjs) run: GSD_CHECK_BIN
// points them at another build of the same CLI (a standalone binary).
export const BIN = process.env.GSD_CHECK_BIN ?? DIST;

// The suite's own knobs; every other GSD_* variable belongs to the GSD setup
// of whoever runs the tests, and would change what gsd-check does.
const TEST_KNOBS = new Set(['GSD_CHECK_BIN', 'GSD_CHECK_TEST_PROC', 'GSD_CHECK_FUZZ_RUNS', 'GSD_CHECK_CI_TOOLS', 'GSD_MUTATE_MAPPED_DIST']);

// Directories made for the whole test process (not for one test), removed
// when it exits.
const processDirs: string[] = [];
process.once('exit', () => {
  for (const dir of processDirs) rmSync(dir, { recursive: true, force: true });
});
function processDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  processDirs.push(dir);
  // Reachable by the unprivileged user of unprivileged() too.
  chmodSync(dir, 0o755);
  return dir;
}

// The environment the CLI tests run gsd-check in: the machine's, less what a
// GSD user has set up (GSD_* variables, a gsd-tools on PATH), so that the
// suite passes on their machine too. A PATH directory holding a gsd-tools is
// dropped; the node that runs the tests stays first on PATH, through a link
// of its own, since that directory is often the same one (npm's global bin).
// NODE_EXTRA_CA_CERTS goes too: it only adds certificates for TLS, which
// gsd-check never speaks, but Node 20 reads and parses that file as it
// starts, before any of the program runs, and the CLI tests start hundreds of
// processes (a machine behind a TLS proxy sets it for its own sake).
function hermetic(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => (!name.startsWith('GSD_') || TEST_KNOBS.has(name)) && name !== 'NODE_EXTRA_CA_CERTS'));
  const entries = (env.PATH ?? '').split(delimiter);
  const clean = entries.filter((dir) => dir === '' || !existsSync(join(dir, 'gsd-tools')));
  if (clean.length === entries.length) return kept;
  const nodeDir = processDir('gsd-check-node-');
  symlinkSync(process.execPath, join(nodeDir, 'node'));
  return { ...kept, PATH: [nodeDir, ...clean].join(delimiter) };
}

export const ENV = hermetic(process.env);

export interface CliResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  readonly input?: string | Uint8Array;
  // Called with the child once it runs, e.g. to signal it.
  readonly onSpawn?: (child: import('node:child_process').ChildProcess) => void;
  // Runs the artefact through another program: gets [bin, ...args].
  readonly wrap?: (argv: string[]) => [string, string[]];
}

// A run of the artefact that has not ended by then is killed (SIGKILL, which
// the result shows): not a timing assumption, a bound, so that a hang fails
// its test instead of holding the test file open for ever.
const CLI_BOUND_MS = 60_000;

export function cli(args: readonly string[], options: CliOptions = {}, bin = BIN): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [command, argv] = options.wrap?.([bin, ...args]) ?? [bin, [...args]];
    const child = spawn(command, argv, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? ENV,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    if (options.input !== undefined) child.stdin?.end(options.input);
    const bound = setTimeout(() => child.kill('SIGKILL'), CLI_BOUND_MS);
    child.once('error', (error) => {
      clearTimeout(bound);
      reject(error);
    });
    child.once('close', (status, signal) => {
      clearTimeout(bound);
      resolve({ status, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

export const predicate = (fields: Record<string, unknown>): string => JSON.stringify({ kind: 'command-exit-zero', ...fields });

export function tempDir(t: TestContext, prefix = 'gsd-check-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A marker that only this run's processes carry on their command line.
export function marker(): string {
  return `${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

// Processes (zombies excluded: some sandboxes never reap them) whose command
// line contains `text`.
export function survivors(text: string): string[] {
  const proc = process.env.GSD_CHECK_TEST_PROC;
  if (proc !== undefined) return fromProc(proc).filter((line) => line.includes(text) && !/^\s*\d+\s+Z/.test(line));
  const ps = spawnSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(text) && !line.includes('ps -eo'))
    .filter((line) => !/^\s*\d+\s+Z/.test(line));
}

// The lines `ps -eo pid=,stat=,args=` would print, read from a proc file
// system mounted at `proc`: the suite that runs with /proc hidden from the
// code under test sees its processes there (test/run/runner.no-proc.test.ts).
function fromProc(proc: string): string[] {
  return readdirSync(proc)
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(join(proc, pid, 'stat'), 'latin1');
        const args = readFileSync(join(proc, pid, 'cmdline'), 'latin1')
          .replace(/\0+$/, '')
          .replace(/\0/g, ' ');
        return [`${pid} ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)} ${args}`];
      } catch {
        return [];
      }
    });
}

// Live processes whose command line starts with `prefix`.
export function running(prefix: string): string[] {
  return survivors(prefix).filter((line) => line.trim().split(/\s+/).slice(2).join(' ').startsWith(prefix));
}

// Kills whatever a failed test left behind, so one failure does not leak
// processes into the rest of the run.
export function killSurvivors(text: string): void {
  for (const line of survivors(text)) {
    const pid = Number(line.trim().split(/\s+/)[0]);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Waits for a readiness condition (a process exists, a file appeared, a
// handler is installed), polling. Never a fixed delay: the deadline only turns
// a hang into a failure, and is long, as a loaded machine may be slow.
export async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  for (const started = Date.now(); !condition(); await sleep(10)) {
    assert.ok(Date.now() - started < ms, `still waiting after ${ms} ms: ${what}`);
  }
}

// Waits until no process whose command line contains `text` is left. For
// processes sent SIGKILL: it takes effect when the kernel next runs them,
// which on a loaded machine is not at once. The 10 s bound is well under the
// 30 s sleeps the tests start, so one that was never killed is still caught.
export async function ended(text: string): Promise<void> {
  await until(() => survivors(text).length === 0, `every process of ${text} ended`, 10_000);
}

// Resolves with `promise`, or fails once `ms` have passed: for a stop that
// must end a command long before the command would end by itself.
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// Whether process `pid` has a handler installed for `signal` (its SigCgt mask).
export function catches(pid: number, signal: NodeJS.Signals): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0';
    return (BigInt(`0x${mask}`) & (1n << BigInt(constants.signals[signal] - 1))) !== 0n;
  } catch {
    return false;
  }
}

// Whether process `pid` holds `path` open: readiness for a read that waits
// on a FIFO without blocking.
export function holdsOpen(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).replace(/ \(deleted\)$/, '') === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

// Whether a thread of process `pid` is blocked opening a FIFO that has no
// writer yet (the kernel's wait_for_partner).
export function opensFifo(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8') === 'wait_for_partner';
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

// Runs `argv` as an unprivileged user, for whom file modes count (root ignores
// them); undefined when this machine has no way to. The program and the node
// that runs it are staged where that user can reach them: the checkout (and a
// node installed in it) may lie under a directory only root may enter.
export function unprivileged(t: TestContext): ((argv: string[]) => [string, string[]]) | undefined {
  if (process.getuid?.() !== 0) return (argv) => [argv[0]!, argv.slice(1)];
  const drop = dropper();
  if (drop === undefined) {
    // Loud on purpose: the case then went untested.
    process.stderr.write('\n*** SKIPPED: running as root with neither setpriv nor runuser: a file-mode case is untested ***\n\n');
    t.skip('SKIPPED: root, and neither setpriv nor runuser to drop privileges');
    return undefined;
  }
  return (argv) => {
    const [command, ...args] = drop;
    return [command!, [...args, 'env', `PATH=${reachablePath(drop)}`, runnable(drop, argv[0]!), ...argv.slice(1)]];
  };
}

function dropper(): string[] | undefined {
  if (spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0) return ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  if (spawnSync('runuser', ['--version'], { stdio: 'ignore' }).status === 0) return ['runuser', '-u', 'nobody', '--'];
  return undefined;
}

const runnables = new Map<string, string>();

// `file` where the dropped user can read and run it: where it is if they
// can, else in a directory every user may enter, as a hard link when the file
// system allows one and the file's mode lets all read and run it (no copy of
// a 100 MB binary), else as a copy made so.
function runnable(drop: string[], file: string, name = basename(file)): string {
  const known = runnables.get(file);
  if (known !== undefined) return known;
  const reaches = spawnSync(drop[0]!, [...drop.slice(1), 'sh', '-c', 'test -r "$1" && test -x "$1"', 'sh', file], { stdio: 'ignore' }).status === 0;
  let path = file;
  if (!reaches) {
    const dir = join(processDir('gsd-check-stage-'), name);
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    path = join(dir, name);
    let linked = false;
    if ((statSync(file).mode & 0o555) === 0o555) {
      try {
        linkSync(file, path);
        linked = true;
      } catch {
        // another file system
      }
    }
    if (!linked) {
      copyFileSync(file, path);
      chmodSync(path, 0o755);
    }
  }
  runnables.set(file, path);
  return path;
}

// The tests' PATH, with the node that runs them first, staged where the
// dropped user could not run it where it is.
function reachablePath(drop: string[]): string {
  const node = runnable(drop, process.execPath, 'node');
  const path = ENV.PATH ?? '';
  return node === process.execPath ? path : `${dirname(node)}${delimiter}${path}`;
}
