// The reliability campaign under load: many evaluations in sequence, many at
// once, and many gates in one process. Every envelope must be valid and right;
// afterwards no command process may be left, no temp file added, and one
// process's open descriptors must not grow with the number of gates it runs.
//   node bench/soak.mjs [--quick] [--write-doc]
// Full: 2,000 sequential + 200 concurrent evaluations, 1,000 gates in one
// process (minutes). --quick: 60 + 20 + 100 (CI). Exit 1 on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const bin = process.env.GSD_CHECK_BIN ?? join(root, 'dist', 'gsd-check');
const SEQUENTIAL = quick ? 60 : 2000;
const CONCURRENT = quick ? 20 : 200;
const GATES = quick ? 100 : 1000;
const mark = `${process.pid}${Date.now() % 100000}`;
// Everything of this run lives in one directory; the processes it starts get a
// TMPDIR inside it, so a temp file they leave is found there, and nobody
// else's file in the shared temporary directory is taken for one.
const scratch = mkdtempSync(join(tmpdir(), 'gsd-check-soak-'));
const childTmp = join(scratch, 'tmp');
mkdirSync(childTmp);

// The mixed workload: each case with what its envelope must say.
const CASES = [
  { name: 'pass', command: 'true', block: false, message: /^command exited 0$/ },
  { name: 'block', command: 'echo "2 tests failed" >&2; exit 3', block: true, message: /^command exited 3: 2 tests failed$/ },
  { name: 'timeout', command: `echo waiting; sleep 30.${mark}`, timeout: 0.2, block: true, message: /^command timed out after 0\.2s: waiting$/ },
  {
    name: 'term-ignoring',
    command: `trap '' TERM; sleep 30.${mark}`,
    timeout: 0.2,
    block: true,
    message: /^command timed out after 0\.2s$/,
    signal: 'SIGKILL',
  },
  { name: 'background', command: `sleep 30.${mark} & echo started`, block: false, message: /^command exited 0$/ },
  // A child in a group of its own, still in sh's session, its output closed.
  { name: 'session child', command: `bash -c 'set -m; sleep 30.${mark} >/dev/null 2>&1 &'; echo started`, block: false, message: /^command exited 0$/ },
  { name: '10 MiB', command: 'head -c 10485760 /dev/zero; exit 0', block: false, message: /^command exited 0$/, bytes: 10485760 },
];

function evaluate(c) {
  const predicate = JSON.stringify({ kind: 'command-exit-zero', command: c.command, ...(c.timeout ? { timeout: c.timeout } : {}) });
  return measure(bin, ['check', 'predicate', '--raw', '--kill-after', '0.2', '--predicate', predicate]).then((r) => ({ ...r, problem: judge(c, r) }));
}

function judge(c, r) {
  if (r.code !== 0) return `exit ${r.code}: ${r.stderr.trim()}`;
  if (r.stderr !== '') return `stderr: ${r.stderr.trim()}`;
  let envelope;
  try {
    envelope = JSON.parse(r.stdout);
  } catch {
    return `not JSON: ${r.stdout.slice(0, 80)}`;
  }
  if (envelope.block !== c.block) return `block ${envelope.block}`;
  if (!c.message.test(envelope.message)) return `message ${JSON.stringify(envelope.message.slice(0, 80))}`;
  if (c.signal && envelope.details.signal !== c.signal) return `signal ${envelope.details.signal}`;
  if (c.bytes && envelope.details.stdoutBytes !== c.bytes) return `bytes ${envelope.details.stdoutBytes}`;
  return undefined;
}

// Wall time, peak RSS (VmHWM, sampled) and, optionally, open descriptors.
function measure(command, argv, options = {}) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, { cwd: options.cwd, env: { ...process.env, TMPDIR: childTmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    const fds = [];
    child.stdout.setEncoding('utf8').on('data', (s) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s) => (stderr += s));
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
        if (options.fds) fds.push(readdirSync(`/proc/${child.pid}/fd`).length);
      } catch {}
    };
    const timer = setInterval(sample, options.fds ? 5 : 20);
    child.once('close', (code) => {
      clearInterval(timer);
      resolve({ code, stdout, stderr, peak, fds, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function livingCommands() {
  const out = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmd.includes(`30.${mark}`) && state !== 'Z' && !cmd.includes('gsd-check')) out.push(`${pid} ${cmd.replace(/\0/g, ' ')}`);
    } catch {}
  }
  return out;
}

const rows = [];
const failures = [];
const record = (name, results) => {
  for (const r of results) if (r.problem) failures.push(`${name}: ${r.problem}`);
  rows.push({
    name,
    runs: results.length,
    failures: results.filter((r) => r.problem).length,
    p50: percentile(
      results.map((r) => r.ms),
      50,
    ),
    p95: percentile(
      results.map((r) => r.ms),
      95,
    ),
    peak: Math.max(...results.map((r) => r.peak)),
  });
};

// 1. In sequence, cycling through the cases.
const sequential = [];
for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await evaluate(CASES[i % CASES.length]));
record(`${SEQUENTIAL} in sequence`, sequential);

// 2. All at once.
record(`${CONCURRENT} at once`, await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => evaluate(CASES[i % CASES.length]))));

// 3. Many gates in one process: its descriptors must not grow with their number.
const work = join(scratch, 'project');
mkdirSync(work);
const gateRuns = [];
// The smaller run must keep all 8 slots busy long enough for the 5 ms samples
// to see its peak: with 10 gates the peak was sometimes missed (34 against 39
// descriptors), which read as growth.
for (const count of [Math.max(40, GATES / 10), GATES]) {
  const gates = Array.from({ length: count }, (_, i) => {
    const c = CASES[i % CASES.length];
    return {
      point: 'verify:pre',
      check: { predicate: { kind: 'command-exit-zero', command: c.command, ...(c.timeout ? { timeout: c.timeout } : {}) } },
      blocking: false,
      onError: 'halt',
    };
  });
  writeFileSync(join(work, 'cap.json'), JSON.stringify({ id: 'soak', gates }));
  const r = await measure(bin, ['gates', 'run', '--point', 'verify:pre', '--capability', 'cap.json', '--concurrency', '8', '--kill-after', '0.2', '--raw'], {
    cwd: work,
    fds: true,
  });
  let problem;
  try {
    const envelope = JSON.parse(r.stdout);
    envelope.details.gates.forEach((g, i) => {
      const c = CASES[i % CASES.length];
      const p = judge(c, { code: 0, stderr: '', stdout: JSON.stringify(g.envelope ?? {}) });
      if (p !== undefined) problem ??= `gate ${i} (${c.name}): ${p}`;
    });
  } catch {
    problem = `exit ${r.code}: ${r.stderr.trim().slice(0, 200)}`;
  }
  gateRuns.push({ ...r, count, problem, maxFds: Math.max(...r.fds) });
  record(`${count} gates in one process`, [{ ...r, problem }]);
}
const fdGrowth = gateRuns[1].maxFds - gateRuns[0].maxFds;
if (fdGrowth > 4)
  failures.push(`descriptors grew from ${gateRuns[0].maxFds} (${gateRuns[0].count} gates) to ${gateRuns[1].maxFds} (${gateRuns[1].count} gates)`);

// 4. Nothing left behind. A command gsd-check ended may take a moment to
// leave the process table (the kernel delivers the signal, then reaps), so the
// table is read until it is clear, for at most a few seconds.
let left = livingCommands();
for (const deadline = Date.now() + 5000; left.length > 0 && Date.now() < deadline; left = livingCommands()) await new Promise((r) => setTimeout(r, 50));
if (left.length > 0) failures.push(`${left.length} command processes left: ${left.slice(0, 3).join('; ')}`);
const tmpAdded = readdirSync(childTmp);
if (tmpAdded.length > 0) failures.push(`temp files left: ${tmpAdded.join(', ')}`);
rmSync(scratch, { recursive: true, force: true });

const mib = (b) => `${(b / 1024 ** 2).toFixed(1)} MiB`;
const table = [
  '| load | runs | failures | p50 wall | p95 wall | peak RSS |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${r.runs} | ${r.failures} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${mib(r.peak)} |`),
].join('\n');
const summary = [
  `Workload, cycled: ${CASES.map((c) => c.name).join(', ')}.`,
  `Open descriptors of one gates-run process: at most ${gateRuns[0].maxFds} for ${gateRuns[0].count} gates, ${gateRuns[1].maxFds} for ${gateRuns[1].count} (concurrency 8).`,
  `Command processes left afterwards: ${left.length}. Temp files left: ${tmpAdded.length}.`,
].join('\n');
console.log(`${table}\n\n${summary}`);
if (failures.length > 0) console.log(`\nFAILURES (${failures.length}):\n${failures.slice(0, 20).join('\n')}`);

// The table of docs/explanation/reliability.md, between its soak markers,
// with the date, the Node and the commit it was measured on.
if (args.includes('--write-doc')) {
  const doc = join(root, 'docs', 'explanation', 'reliability.md');
  const text = readFileSync(doc, 'utf8');
  const begin = '<!-- soak:begin -->';
  const end = '<!-- soak:end -->';
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() || 'an unknown commit';
  const block = `${begin}\n\`npm run soak\` on ${new Date().toISOString().slice(0, 10)}, main at ${commit}, Node ${process.version}, ${availableParallelism()}-core VM:\n\n${table}\n\n${summary}\n${end}`;
  if (text.includes(begin)) writeFileSync(doc, text.slice(0, text.indexOf(begin)) + block + text.slice(text.indexOf(end) + end.length));
  else console.error(`${doc} has no soak markers; nothing written`);
}
process.exitCode = failures.length > 0 ? 1 : 0;
