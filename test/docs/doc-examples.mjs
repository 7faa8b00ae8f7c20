// The shell examples of README.md and docs/, read as a reader would type them
// and run against the built artefact. Plain JavaScript so that compat/ (which
// runs on Node 20 without a build step) can run the examples that need GSD.
//
// The format, for whoever writes a doc:
// - A ```console block is a terminal session: `$ ` starts a command, `> `
//   continues it on the next line (a here-document, a long pipeline), every
//   other line is what the command prints (stdout and stderr as a terminal
//   shows them). A line that is only `…` stands for any number of lines.
// - All the runnable blocks of one file run in order in one shell, in a fresh
//   directory that the output calls /tmp/demo, so `cd`, variables and `$?`
//   carry from one command to the next as they would for the reader.
// - `<!-- doc-test setup` … `-->` is a shell script run where it stands and
//   not shown: the project files a page takes for granted.
// - `<!-- doc-test: gsd -->` before a block: it calls GSD (gsd_run,
//   gsd-tools), so it runs in compat's suite against the pinned GSD.
//   `<!-- doc-test: no-gsd -->`: it shows what happens without GSD, so it
//   runs in npm test only. `<!-- doc-test: skip … -->`: never run; say why.
// - ```sh blocks show commands without their output and are not run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SHOWN_ROOT = '/tmp/demo';

// README.md, CONTRIBUTING.md and every page under docs/, as paths relative to root.
export function docFiles(root) {
  const walk = (dir) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
  return ['README.md', 'CONTRIBUTING.md'].filter((f) => existsSync(join(root, f))).concat(walk('docs'));
}

// A page's steps in order: { setup, line } or { commands: [{ line, text,
// expected }], mode: 'run' | 'gsd' | 'skip', line }.
export function parseDoc(text) {
  const lines = text.split('\n');
  const steps = [];
  let mode = 'run';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const directive = /^<!-- doc-test: ([\w-]+)\b.*-->\s*$/.exec(line);
    if (directive) {
      if (!['gsd', 'no-gsd', 'skip'].includes(directive[1])) throw new Error(`line ${i + 1}: unknown doc-test directive "${directive[1]}"`);
      mode = directive[1];
      continue;
    }
    if (/^<!-- doc-test setup\s*$/.test(line)) {
      const start = i;
      const body = [];
      for (i++; i < lines.length && lines[i].trim() !== '-->'; i++) body.push(lines[i]);
      if (i === lines.length) throw new Error(`line ${start + 1}: doc-test setup is never closed with -->`);
      steps.push({ setup: body.join('\n'), line: start + 1 });
      continue;
    }
    const fence = /^(\s*)(`{3,})(\S*)/.exec(line);
    if (!fence) {
      if (line.trim() !== '') mode = 'run';
      continue;
    }
    const [, indent, ticks, lang] = fence;
    const start = i;
    const body = [];
    for (i++; i < lines.length && !lines[i].startsWith(`${indent}${ticks}`); i++) body.push(lines[i].slice(indent.length));
    if (lang === 'console') steps.push({ commands: parseSession(body, start + 2), mode, line: start + 1 });
    mode = 'run';
  }
  return steps;
}

function parseSession(body, firstLine) {
  const commands = [];
  body.forEach((text, k) => {
    const last = commands.at(-1);
    if (text.startsWith('$ ')) commands.push({ line: firstLine + k, text: text.slice(2), expected: [] });
    else if (text.startsWith('> ') && last !== undefined && last.expected.length === 0) last.text += `\n${text.slice(2)}`;
    else if (last === undefined) throw new Error(`line ${firstLine + k}: a console block starts with output, not a "$ " command`);
    else last.expected.push(text);
  });
  return commands;
}

// What may differ from run to run and says nothing about the behaviour: the
// session's directory, HOME, and durations.
export function normalise(text, dirs) {
  let out = text;
  for (const [path, shown] of dirs) out = out.split(path).join(shown);
  return out
    .replace(/("durationMs": ?)\d+/g, '$1…')
    .replace(/\(\d+ ms\)/g, '(… ms)')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

const MARK = '@@doc-test@@';

// Runs the steps of one page (those whose mode is in `modes`) in one shell.
// `bin` is a directory put first on PATH (gsd-check, and gsd_run when GSD is
// there). Returns the transcript expected and the one seen, ready to compare.
export async function runDoc(steps, { bin, env: extra = {}, modes = ['run'], timeoutMs = 120_000 }) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-check-doc-')));
  try {
    const home = join(dir, '.home');
    const work = join(dir, 'demo');
    mkdirSync(home);
    mkdirSync(work);
    const chosen = steps.filter((s) => s.setup !== undefined || modes.includes(s.mode));
    const script = ['exec 2>&1', 'cd "$DOC_TEST_DIR" || exit 99'];
    const runs = [];
    for (const step of chosen) {
      if (step.setup !== undefined) {
        script.push(step.setup, `__s=$?; printf '\\n${MARK} ${runs.length}\\n'; [ $__s = 0 ] || exit 98`);
        runs.push({ setup: step.line });
        continue;
      }
      for (const command of step.commands) {
        script.push(command.text, `__s=$?; printf '\\n${MARK} ${runs.length}\\n'; (exit $__s)`);
        runs.push(command);
      }
    }
    const env = { PATH: [bin, ...machinePath()].join(':'), HOME: home, XDG_CACHE_HOME: join(home, '.cache'), LANG: 'C.UTF-8', DOC_TEST_DIR: work, ...extra };
    const seen = await shell(script.join('\n'), { cwd: work, env, timeoutMs });
    const parts = seen.stdout.split(new RegExp(`\\n${MARK} (\\d+)\\n`));
    const outputs = new Map();
    for (let k = 1; k < parts.length; k += 2) outputs.set(Number(parts[k]), parts[k - 1]);
    const dirs = [
      [work, SHOWN_ROOT],
      [home, '~'],
      [dir, '/tmp'],
    ];
    const expected = [];
    const actual = [];
    runs.forEach((run, k) => {
      const got = outputs.get(k);
      if (run.setup !== undefined) {
        if (got === undefined) actual.push(`setup at line ${run.setup} failed or never ended:\n${normalise(parts.at(-1) ?? '', dirs)}`);
        return;
      }
      const head = `line ${run.line}: $ ${run.text}`;
      expected.push(`${head}\n${normalise(run.expected.join('\n'), [])}`.replace(/\n+$/, ''));
      const output = got === undefined ? `(never ended; the shell exited ${seen.status ?? seen.signal})` : normalise(got, dirs);
      actual.push(`${head}\n${matchEllipsis(run.expected, output)}`.replace(/\n+$/, ''));
    });
    return { expected: expected.join('\n\n'), actual: actual.join('\n\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Where the doc writes `…` alone on a line, the output's lines that it stands
// for are folded into it, so that the two transcripts compare equal.
function matchEllipsis(expected, output) {
  const want = normalise(expected.join('\n'), []);
  if (!expected.includes('…')) return output;
  return linesMatch(want.split('\n'), output.split('\n')) ? want : output;
}

// Line by line, `…` taking any run of lines: linear in lines × patterns,
// never backtracking without bound.
function linesMatch(pattern, lines) {
  let reachable = new Set([0]);
  for (const line of pattern) {
    const next = new Set();
    for (const at of reachable) {
      if (line === '…') for (let k = at; k <= lines.length; k++) next.add(k);
      else if (lines[at] === line) next.add(at + 1);
    }
    reachable = next;
  }
  return reachable.has(lines.length);
}

function shell(script, { cwd, env, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (s) => (stdout += s));
    // A bound that turns a hung example into a failure, not a timing
    // assumption about gsd-check.
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout });
    });
  });
}

// The machine's PATH less any directory that holds a GSD of its own: the
// examples see the GSD `bin` gives them (compat's pinned one) or none.
export function machinePath() {
  return (process.env.PATH ?? '').split(':').filter((dir) => dir !== '' && !['gsd-tools', 'gsd_run'].some((name) => existsSync(join(dir, name))));
}

// A directory to put first on PATH: `gsd-check` is the artefact under test,
// and each extra name a small script (gsd_run, gsd-tools).
export function binDir(parent, gsdCheck, scripts = {}) {
  const bin = join(parent, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(gsdCheck, join(bin, 'gsd-check'));
  for (const [name, text] of Object.entries(scripts)) writeFileSync(join(bin, name), `#!/bin/sh\n${text}\n`, { mode: 0o755 });
  return bin;
}

export const docText = (root, file) => readFileSync(join(root, file), 'utf8');
