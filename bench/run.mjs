// Side-by-side measurements, interleaved in one run so that the machine's
// drift hits every variant alike. Prints ratios; asserts nothing.
//   node bench/run.mjs [--runs N] [--bin PATH]... [--standalone PATH]... [--skip-output] [--instructions] [--gsd gsd-tools.cjs --gsd-node NODE]
//   node bench/run.mjs --instructions-only [--node PATH]... [--bin PATH]... [--instruction-runs N] [--starts-only]
// --instructions also counts the instructions each start executes under
// valgrind's callgrind (when installed): slow, but the same on a busy machine;
// --instructions-only counts them and measures nothing else.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const runs = Number(option('--runs', 30));
// --bin, repeatable: the builds to measure (dist/gsd-check unless told); the
// wall-time parts take the first, the instruction counts each in turn.
const repeated = (name) => args.flatMap((a, i) => (a === name ? [resolve(args[i + 1])] : []));
const bins = repeated('--bin').length > 0 ? repeated('--bin') : [join(root, 'dist', 'gsd-check')];
const bin = bins[0];
// The standalone builds: those named by --standalone (repeatable), else the
// one `npm run build:bin` made, when there is one.
const standalones =
  repeated('--standalone').length > 0
    ? repeated('--standalone')
    : [join(root, 'out', `gsd-check-${process.platform}-${process.arch}`)].filter((file) => existsSync(file));
const standalone = standalones[0] ?? '';
const GIB = 1024 ** 3;
const truePredicate = JSON.stringify({ kind: 'command-exit-zero', command: 'true' });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// The environments a start is measured in. Each has a cache home of the
// bench's own, so neither the user's ~/.cache nor a CI variable of the
// machine running the bench decides which case is measured.
//   warm: a user's machine, the code cache written by an earlier start;
//   GitHub Actions: CI=true, GITHUB_ACTIONS=true and a fresh RUNNER_TEMP,
//     after the job's first start (no cache, as under any CI);
//   CI: CI=true alone (any other CI service), so no cache at all.
const benchHome = mkdtempSync(join(tmpdir(), 'gsd-check-bench-home-'));
process.on('exit', () => rmSync(benchHome, { recursive: true, force: true }));
// Only what a start needs of the machine's: any other variable could be one
// that turns the cache off (src/code-cache.ts's CI_VARIABLES, a CI service's
// own) and change the case measured.
const plainEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL'].includes(name)));
let homes = 0;
// A fresh cache home (or RUNNER_TEMP), so a case starts with no cache.
const freshDir = () => {
  const dir = join(benchHome, String(homes++));
  mkdirSync(dir, { mode: 0o700 });
  return dir;
};
const environments = () => ({
  warm: { ...plainEnv, XDG_CACHE_HOME: freshDir() },
  actions: { ...plainEnv, XDG_CACHE_HOME: freshDir(), CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_TEMP: freshDir() },
  ci: { ...plainEnv, XDG_CACHE_HOME: freshDir(), CI: 'true' },
});

function time(cmd, argv, env = plainEnv, cwd = undefined) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { stdio: 'ignore', env, cwd });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function coldStart() {
  const env = environments();
  const check = ['check', 'predicate', '--raw', '--predicate', truePredicate];
  const variants = [
    ['node -e 0', process.execPath, ['-e', '0']],
    ['node bench/spawn-true.cjs', process.execPath, [join(root, 'bench', 'spawn-true.cjs')]],
    // Through node, like the spawning script, so the ratio compares the work
    // done and not how the file is started; the direct run adds the shebang's env.
    ['node gsd-check check predicate', process.execPath, [bin, ...check], env.warm],
    ['the same, GitHub Actions', process.execPath, [bin, ...check], env.actions],
    ['the same, CI=true', process.execPath, [bin, ...check], env.ci],
    ['gsd-check check predicate (shebang)', bin, check, env.warm],
  ];
  if (existsSync(standalone)) {
    variants.push(['standalone binary check predicate', standalone, check, env.warm]);
  }
  const samples = variants.map(() => []);
  for (const [, cmd, argv, e] of variants) time(cmd, argv, e); // warm the page cache, write the code caches
  for (let i = 0; i < runs; i++) {
    // Rotate the order so no variant always runs first.
    for (let j = 0; j < variants.length; j++) {
      const k = (i + j) % variants.length;
      samples[k].push(time(variants[k][1], variants[k][2], variants[k][3]));
    }
  }
  const medians = samples.map(median);
  console.log(`cold start: median of ${runs} interleaved runs`);
  variants.forEach(([name], k) =>
    console.log(`  ${name.padEnd(36)} ${medians[k].toFixed(1).padStart(7)} ms   ${(medians[k] / medians[0]).toFixed(2)} x node -e 0`),
  );
  console.log(
    `  node gsd-check / spawning script: ${(medians[2] / medians[1]).toFixed(3)} warm, ${(medians[3] / medians[1]).toFixed(3)} GitHub Actions, ${(medians[4] / medians[1]).toFixed(3)} CI=true`,
  );
  if (medians[6] !== undefined) console.log(`  standalone binary / node gsd-check: ${(medians[6] / medians[2]).toFixed(3)}`);
  return { medians, ratio: medians[2] / medians[1] };
}

// Wall time and peak resident memory (VmHWM, sampled: it only grows) of one process.
function measure(child, withChildren = false) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let peak = 0;
    const hwm = (pid) => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {}
    };
    const children = (pid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
      } catch {
        return [];
      }
    };
    const sample = () => {
      hwm(child.pid);
      if (withChildren) for (const pid of children(child.pid)) hwm(pid);
    };
    const timer = setInterval(sample, 5);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(timer);
      resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, peak, code });
    });
    sample();
  });
}

function throughGsdCheck(bytes) {
  const predicate = JSON.stringify({ kind: 'command-exit-zero', command: `head -c ${bytes} /dev/zero` });
  const child = spawn(bin, ['check', 'predicate', '--raw', '--predicate', predicate], { stdio: ['ignore', 'ignore', 'inherit'] });
  return measure(child);
}

// The same command piped into `tail -c 2000`, the least any tool must do to
// keep a tail. Peak memory is the highest of the pipeline's processes.
function throughTail(bytes) {
  const sh = spawn('sh', ['-c', `head -c ${bytes} /dev/zero | tail -c 2000`], { stdio: ['ignore', 'ignore', 'inherit'] });
  return measure(sh, true);
}

async function output() {
  const rounds = 3;
  const rows = { tail: [], gib: [], small: [] };
  for (let i = 0; i < rounds; i++) {
    rows.tail.push(await throughTail(GIB));
    rows.gib.push(await throughGsdCheck(GIB));
    rows.small.push(await throughGsdCheck(64 * 1024 ** 2));
  }
  const mib = (b) => (b / 1024 ** 2).toFixed(1);
  const summary = (name, list) => {
    const ms = median(list.map((r) => r.ms));
    const peak = Math.max(...list.map((r) => r.peak));
    console.log(`  ${name.padEnd(36)} ${(ms / 1000).toFixed(2).padStart(6)} s   peak ${mib(peak).padStart(6)} MiB`);
    return { ms, peak };
  };
  console.log(`output: median wall time of ${rounds} interleaved runs, highest peak`);
  const tail = summary('head -c 1GiB | tail -c 2000', rows.tail);
  const gib = summary('gsd-check, 1 GiB of output', rows.gib);
  const small = summary('gsd-check, 64 MiB of output', rows.small);
  console.log(`  1 GiB through gsd-check / through tail: ${(gib.ms / tail.ms).toFixed(2)} (aim: at most 2)`);
  console.log(`  peak at 1 GiB minus peak at 64 MiB: ${mib(gib.peak - small.peak)} MiB (aim: a few MiB; under 128 MiB in all)`);
}

// Instructions of the measured process itself (not its children), which
// wall-clock noise on a shared machine does not move, under every Node at
// hand: this one and the pinned ones of runtimes/ (node runtimes/install.mjs
// linux-x64 linux-x64-lines), or the ones named by --node (repeatable).
// gsd-check runs once first in each environment above, so its code cache is
// warm where there is one, as it is for every start after a program's first.
// The reference is bench/spawn-true.cjs, which spawns `sh -c true` and reads
// both of its pipes to their end, as gsd-check must.
// V8 searches for a random prime when it seeds its hash tables (6 to 12 M
// instructions on Node 24, more than most changes measured here): counted, a
// start moves by 5 to 10% from run to run; left out, by about 0.3 M.
const UNSEEDED = ['--toggle-collect=v8::internal::HashSeed::InitializeRoots*', '--collect-atstart=yes'];

// --instruction-runs N: the median of N (5 unless told); --starts-only: only
// the spawner and gsd-check's three starts (CI prints these). Every build
// named by --bin (repeatable: an A/B in one session) gets a row on each
// Node, and the standalone binary, when there is one, a row of its own
// against the spawner on the Node inside it.
function instructions() {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    return console.log('instructions: valgrind is not installed (Debian: apt-get install valgrind), skipped');
  }
  const samples = Number(option('--instruction-runs', 5));
  const startsOnly = args.includes('--starts-only');
  const once = (command, argv, env, cwd) => {
    const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...UNSEEDED, command, ...argv], { encoding: 'utf8', env, cwd });
    // Every start measured passes: one that failed (a build that is not
    // there, a gate that cannot run) would be a count of nothing.
    if (r.status !== 0) throw new Error(`${command} ${argv.join(' ')} exited ${r.status} under callgrind: ${r.stderr.slice(-300)}`);
    const m = /Collected : (\d+)/.exec(r.stderr);
    if (!m) throw new Error(`callgrind gave no count for ${command} ${argv.join(' ')}: ${r.stderr.slice(-300)}`);
    return Number(m[1]);
  };
  const count = (command, argv, env = plainEnv, cwd = undefined) => median(Array.from({ length: samples }, () => once(command, argv, env, cwd)));
  // GSD 1.14's ship:pre as gsd_run loop render-hooks renders it (its two
  // frontmatter gates), on a project where both pass.
  const project = mkdtempSync(join(tmpdir(), 'gsd-check-bench-'));
  mkdirSync(join(project, '.planning', 'phases', '04-ship'), { recursive: true });
  writeFileSync(join(project, '.planning', 'phases', '04-ship', '04-SECURITY.md'), '---\nthreats_open: 0\n---\n');
  writeFileSync(join(project, '.planning', 'WINDOWS.md'), '---\nopen_count: 0\n---\n');
  const gate = (capId, artifact, field, when) => ({
    capId,
    kind: 'gate',
    when,
    check: { predicate: { kind: 'artifact-frontmatter-equals', artifact, field, equals: 0 } },
    blocking: true,
    onError: 'halt',
  });
  writeFileSync(
    join(project, 'hooks.json'),
    JSON.stringify({
      point: 'ship:pre',
      activeHooks: [
        gate('broken-windows', 'WINDOWS.md', 'open_count', 'workflow.windows_enforce'),
        gate('security', 'SECURITY.md', 'threats_open', 'workflow.security_enforcement'),
      ],
    }),
  );
  const gatesArgs = ['gates', 'run', '--point', 'ship:pre', '--hooks', 'hooks.json', '--phase-number', '04', '--raw'];
  const checkArgs = ['check', 'predicate', '--raw', '--predicate', truePredicate];
  const named = repeated('--node');
  const pinned = [
    ['linux-x64-lines', '20'],
    ['linux-x64-lines', '22'],
    ['linux-x64', '24'],
    ['linux-x64-lines', '26'],
  ].map(([dir, major]) => join(root, 'runtimes', dir, 'node_modules', `node${major}`, 'bin', 'node'));
  const installed = pinned.filter((node) => existsSync(node));
  const nodes = named.length > 0 ? named : installed.length > 0 ? installed : [process.execPath];
  const M = (n) => `${(n / 1e6).toFixed(1)} M`;
  const x = (n, d) => `${(n / d).toFixed(3)}×`;
  console.log(`cold start: instructions executed (callgrind, V8's hash-seed search left out, median of ${samples}), check predicate of command \`true\``);
  console.log('against the spawner (bench/spawn-true.cjs: spawns `sh -c true`, reads both pipes to their end); warm: code cache written by an earlier start;');
  console.log("GitHub Actions: CI=true GITHUB_ACTIONS=true, a fresh RUNNER_TEMP, after the job's first start; CI: CI=true alone; neither has a cache");
  const columns = startsOnly
    ? ['Node', 'build', 'spawner', 'warm', 'GitHub Actions', 'CI']
    : ['Node', 'build', '`node -e 0`', 'spawner', 'warm', 'GitHub Actions', 'CI', 'gates run ship:pre', 'ratio to warm'];
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---|').join('')}`);
  // One row: `run` starts gsd-check with its arguments (through a Node, or
  // the binary itself), `node` is the Node whose spawner it is held to.
  const row = (node, name, run) => {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const env = environments();
    const [command, check] = run(checkArgs);
    for (const e of Object.values(env)) spawnSync(command, check, { stdio: 'ignore', env: e });
    const bare = startsOnly ? undefined : count(node, ['-e', '0']);
    const spawner = count(node, [join(root, 'bench', 'spawn-true.cjs')]);
    const [warm, actions, ci] = [env.warm, env.actions, env.ci].map((e) => count(command, check, e));
    const starts = [warm, actions, ci].map((n) => `${M(n)}, ${x(n, spawner)}`);
    if (startsOnly) return console.log(`| ${version} | ${name} | ${M(spawner)} | ${starts.join(' | ')} |`);
    const [, gates] = run(gatesArgs);
    spawnSync(command, gates, { stdio: 'ignore', cwd: project, env: env.warm });
    const point = count(command, gates, env.warm, project);
    console.log(`| ${version} | ${name} | ${M(bare)} | ${M(spawner)} | ${starts.join(' | ')} | ${M(point)} | ${x(point, warm)} |`);
  };
  try {
    for (const node of nodes) for (const b of bins) row(node, b, (argv) => [node, [b, ...argv]]);
    // The binary carries the Node that runtimes/ pins for it (build-bin.mjs).
    const own = join(root, 'runtimes', `${process.platform}-${process.arch}`, 'node_modules', 'node24', 'bin', 'node');
    if (existsSync(own)) for (const b of standalones) row(own, b, (argv) => [b, argv]);
  } finally {
    // A count that fails (a build named that does not exist) leaves no project behind.
    rmSync(project, { recursive: true, force: true });
  }
}

// A folder for PATH holding a gsd-tools that runs --gsd with --gsd-node,
// both named absolutely, since the runs' working directory is the project.
// It must answer GSD's own question before anything is timed: a gsd-tools
// that cannot start fails every query gate, fast, and the phase still passes
// (they are onError skip), so a broken one would time nothing.
function gsdOnPath(project) {
  const shim = join(project, '.bin');
  mkdirSync(shim);
  const tools = join(shim, 'gsd-tools');
  writeFileSync(tools, `#!/bin/sh\nexec "${resolve(option('--gsd-node', process.execPath))}" "${resolve(option('--gsd', ''))}" "$@"\n`, { mode: 0o755 });
  const r = spawnSync(tools, ['loop', 'render-hooks', 'ship:pre', '--raw'], { cwd: project, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`--gsd: ${tools} loop render-hooks ship:pre exited ${r.status}: ${r.stderr.trim()}`);
  return shim;
}

// A project whose phase 04 is healthy: the whole-phase timings need every
// point to pass, as `gates run --builtin` evaluates it.
function healthyPhase(name) {
  const project = mkdtempSync(join(tmpdir(), `gsd-check-bench-${name}-`));
  mkdirSync(join(project, '.planning', 'phases', '04-ship'), { recursive: true });
  writeFileSync(join(project, '.planning', 'config.json'), '{"workflow": {"windows_enforce": true}}\n');
  writeFileSync(join(project, '.planning', 'phases', '04-ship', '04-SECURITY.md'), '---\nthreats_open: 0\n---\n');
  writeFileSync(join(project, '.planning', 'phases', '04-ship', '04-01-PLAN.md'), '---\nphase: 04\nplan: 01\n---\n# Plan 04-01\n\nShip it.\n');
  writeFileSync(join(project, '.planning', 'WINDOWS.md'), '---\nopen_count: 0\n---\n');
  return project;
}

// The 12 loop points, as the committed gate schema lists them (generated
// from src/gates/activation.ts).
const POINTS = JSON.parse(readFileSync(new URL('../schemas/gate.schema.json', import.meta.url), 'utf8')).properties.point.enum;

// A healthy phase's 12 points: one `gates run --all-points` against the 12
// calls a CI loop made before (one `--point` each), interleaved. Query gates
// are answered by a stub command (`--query-command`), or, with --gsd
// <gsd-tools.cjs> [--gsd-node <node>], by that GSD named with --gsd, as a job
// that installs GSD has them.
function phase() {
  const project = healthyPhase('phase');
  try {
    const gsd = option('--gsd', undefined);
    const variants = [['stub query command', ['--query-command', 'echo \'{"block":false}\''], process.env]];
    if (gsd !== undefined) {
      // GSD named as the recipes name the lockfile's (--gsd), run by --gsd-node.
      const nodeDir = join(project, '.node');
      mkdirSync(nodeDir);
      symlinkSync(resolve(option('--gsd-node', process.execPath)), join(nodeDir, 'node'));
      variants.push(["GSD's gsd-tools (--gsd)", ['--gsd', resolve(gsd)], { ...process.env, PATH: `${nodeDir}:${gsdOnPath(project)}:${process.env.PATH}` }]);
    }
    const base = ['gates', 'run', '--builtin', '--phase-number', '04', '--raw'];
    const timeIn = (argv, env) => {
      const start = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [bin, ...argv], { stdio: 'ignore', cwd: project, env });
      if (r.status !== 0) throw new Error(`gsd-check ${argv.join(' ')} exited ${r.status}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const rounds = gsd === undefined ? runs : Math.min(runs, 5);
    console.log(`a phase's 12 points: median wall time of ${rounds} interleaved runs`);
    for (const [name, query, env] of variants) {
      const one = [];
      const twelve = [];
      for (let i = 0; i < rounds; i++) {
        const calls = () => POINTS.reduce((sum, point) => sum + timeIn([...base, ...query, '--point', point], env), 0);
        const call = () => timeIn([...base, ...query, '--all-points'], env);
        if (i % 2 === 0) {
          one.push(call());
          twelve.push(calls());
        } else {
          twelve.push(calls());
          one.push(call());
        }
      }
      const [a, b] = [median(one), median(twelve)];
      console.log(`  ${name}: --all-points ${a.toFixed(0)} ms, 12 × --point ${b.toFixed(0)} ms, ratio ${(a / b).toFixed(3)}`);
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

// With --gsd: the whole phase rendered by GSD, as a CI job with GSD runs it.
// `--all-points --render --gsd` (one GSD process for which GSD it is and
// every point's hooks, one more for the query gates: src/gsd/ask.ts) against
// the same run asked once a request (GSD_CHECK_GSD_BATCH=off) and the loop
// the recipes ran before (twelve `gsd-tools loop render-hooks <point> --raw`
// into a file, then one `gates run --all-points --hooks`), and one
// `gsd-tools check <query>` start for scale, and the recipes' pre-push hook
// (--reached --render) with and without the one process; GSD runs under
// --gsd-node, as the `node` on PATH. Median wall time of 5 interleaved rounds; with
// --instructions, the instructions of every process of one run of each
// (callgrind, children traced).
function render() {
  const gsd = option('--gsd', undefined);
  if (gsd === undefined) return;
  const project = healthyPhase('render');
  try {
    const nodeDir = join(project, '.node');
    mkdirSync(nodeDir);
    symlinkSync(resolve(option('--gsd-node', process.execPath)), join(nodeDir, 'node'));
    const env = { ...plainEnv, PATH: `${nodeDir}:${gsdOnPath(project)}:${process.env.PATH}`, GSD_CHECK_BIN: bin, GSD_CHECK_NODE: process.execPath };
    const tools = resolve(gsd);
    const argv = [bin, 'gates', 'run', '--all-points', '--render', '--gsd', tools, '--phase-number', '04', '--raw'];
    // The recipes' pre-push hook: the points STATE.md's phase has reached, by
    // the GSD on PATH, linked there as npm links a global install's bin.
    writeFileSync(join(project, '.planning', 'STATE.md'), '---\ncurrent_phase: 04\nstatus: executing\n---\n# Project State\n');
    const linked = join(project, '.linked');
    mkdirSync(linked);
    symlinkSync(tools, join(linked, 'gsd-tools'));
    const hookEnv = { ...env, PATH: `${nodeDir}:${linked}:${process.env.PATH}` };
    const hook = [bin, 'gates', 'run', '--reached', '--render', '--current-phase', '--exit-code', '--pick', 'message'];
    const loop = `for point in ${POINTS.join(' ')}; do gsd-tools loop render-hooks "$point" --raw; done > hooks.json && "$GSD_CHECK_NODE" "$GSD_CHECK_BIN" gates run --all-points --hooks hooks.json --phase-number 04 --raw`;
    const variants = [
      ['--all-points --render, one GSD process a stage', () => time(process.execPath, argv, env, project)],
      ['the same, GSD asked once a request', () => time(process.execPath, argv, { ...env, GSD_CHECK_GSD_BATCH: 'off' }, project)],
      ['12 render-hooks then --hooks', () => time('sh', ['-c', loop], env, project)],
      ["the pre-push hook's --reached --render", () => time(process.execPath, hook, hookEnv, project)],
      ['the same, GSD asked once a request', () => time(process.execPath, hook, { ...hookEnv, GSD_CHECK_GSD_BATCH: 'off' }, project)],
      ['one gsd-tools check ui.plan-gate', () => time('node', [tools, 'check', 'ui.plan-gate', '04', '--raw'], env, project)],
    ];
    const times = variants.map(() => []);
    for (let i = 0; i < 5; i++) {
      const order = i % 2 === 0 ? variants.map((_, j) => j) : variants.map((_, j) => variants.length - 1 - j);
      for (const j of order) times[j].push(variants[j][1]());
    }
    const first = median(times[0]);
    console.log('a phase rendered by GSD: median wall time of 5 interleaved runs, and against the first');
    variants.forEach(([name], j) => console.log(`  ${name}: ${median(times[j]).toFixed(0)} ms, ${(median(times[j]) / first).toFixed(3)}`));
    if (args.includes('--instructions') && spawnSync('valgrind', ['--version']).status === 0) {
      const counted = [
        ['--render, one GSD process a stage', process.execPath, argv, env],
        ['--render, GSD asked once a request', process.execPath, argv, { ...env, GSD_CHECK_GSD_BATCH: 'off' }],
        ['one gsd-tools check ui.plan-gate', join(nodeDir, 'node'), [tools, 'check', 'ui.plan-gate', '04', '--raw'], env],
        ["the pre-push hook's --reached --render", process.execPath, hook, hookEnv],
        ['the hook, GSD asked once a request', process.execPath, hook, { ...hookEnv, GSD_CHECK_GSD_BATCH: 'off' }],
      ].map(([name, command, given, runEnv]) => [name, treeInstructions(command, given, runEnv, project)]);
      console.log('  instructions, every process of one run (callgrind):');
      for (const [name, { total, processes }] of counted)
        console.log(`    ${name}: ${(total / 1e9).toFixed(2)} G in ${processes} processes, ${(total / counted[1][1].total).toFixed(3)} of once a request`);
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

// The instructions of a command and every process it starts.
function treeInstructions(command, argv, env, cwd) {
  const out = mkdtempSync(join(tmpdir(), 'gsd-check-bench-callgrind-'));
  try {
    const r = spawnSync('valgrind', ['--tool=callgrind', '--trace-children=yes', `--callgrind-out-file=${join(out, 'cg.%p')}`, command, ...argv], {
      encoding: 'utf8',
      env,
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`callgrind of ${command} ${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(-300)}`);
    const files = readdirSync(out);
    const total = files.reduce((sum, file) => sum + Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(join(out, file), 'utf8'))?.[1] ?? 0), 0);
    return { total, processes: files.length };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

console.log(`node ${process.version}, ${bin}`);
if (!args.includes('--instructions-only')) {
  coldStart();
  phase();
  render();
}
if (args.includes('--instructions') || args.includes('--instructions-only')) instructions();
if (!args.includes('--skip-output') && !args.includes('--instructions-only')) await output();
