// The other tools a docs CI file is run by, each as its users run it, in a
// project that is a git repository with everything committed: GitLab's job
// through gitlab-ci-local (shell executor), a pre-commit config through
// pre-commit, a lefthook config through lefthook. Each answers what the
// run printed of the project's own commands, and `job: success` or
// `job: failure` from the tool's exit status. Plain JavaScript, as
// doc-examples.mjs is.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

// What each tool needs of the machine, or why it cannot run here: a test
// skips with that reason, unless CI requires the tools (GSD_CHECK_CI_TOOLS=1).
export function missingTool(given) {
  // A file that needs GSD runs by the same tool (compat/test/ci.test.mjs).
  const kind = given.replace(/-gsd$/, '');
  if (kind === 'gitlab') {
    if (Number(process.versions.node.split('.')[0]) < 22) return 'gitlab-ci-local 4.75 needs Node 22 or later';
    if (!onPath('rsync')) return 'gitlab-ci-local needs rsync (Debian: apt-get install rsync)';
  }
  if ((kind === 'pre-commit' || kind === 'pre-commit-remote') && !onPath('pre-commit'))
    return 'pre-commit is not installed (Debian: apt-get install pre-commit)';
  return undefined;
}

const onPath = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

// Everything in `dir` committed, as a checkout has it.
export function commitAll(dir, env) {
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.email=ci@example.invalid', '-c', 'user.name=ci', 'commit', '-qm', 'the project', '--no-verify'],
  ]) {
    const git = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    if (git.status !== 0) throw new Error(`git ${args.join(' ')}: ${git.stderr}`);
  }
}

// `variables`: the pipeline's predefined variables the run stands for
// (`CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=…`), as `--variable` gives them.
export async function runGitlab(dir, { env, job, file = '.gitlab-ci.yml', variables = [] }) {
  const cli = join(dirname(require.resolve('gitlab-ci-local/package.json')), 'dist', 'index.js');
  const given = variables.flatMap((pair) => {
    if (!/^[A-Z_][A-Z0-9_]*=/.test(pair)) throw new Error(`${pair}: a GitLab run takes <VARIABLE>=<value>`);
    return ['--variable', pair];
  });
  const run = await collect(
    process.execPath,
    [cli, '--force-shell-executor', '--no-color', '--home', join(dir, '.home-gitlab'), '--file', file, ...given, job],
    { cwd: dir, env },
  );
  // A file gitlab-ci-local refuses never starts the job: its own words are the log.
  if (!run.text.includes(`${job} starting `)) return verdict([`gitlab-ci-local: ${run.text.trim()}`], run.status === 0 ? 'no job' : run.status);
  const lines = run.text
    .split('\n')
    .filter((line) => line.startsWith(`${job} > `))
    .map((line) => line.slice(job.length + 3));
  return verdict(lines, run.status);
}

// `validate-config` first, pre-commit's own parser of the file; then a run
// over every file at each stage a commit and its push go through, the
// hooks' output as pre-commit prints it under each.
export async function runPreCommit(dir, { env, config = '.pre-commit-config.yaml' }) {
  const home = { ...env, PRE_COMMIT_HOME: join(dir, '.home-pre-commit'), PRE_COMMIT_COLOR: 'never' };
  const checked = await collect('pre-commit', ['validate-config', config], { cwd: dir, env: home });
  if (checked.status !== 0) return verdict([`pre-commit validate-config: ${checked.text.trim()}`], checked.status);
  const lines = [];
  let status = 0;
  // Stage names as pre-commit 3.0 (Debian 12's) has them; 3.2 renamed them
  // pre-commit and pre-push, and still takes these.
  for (const stage of ['commit', 'push']) {
    // --verbose: a passing hook's output too, as a reader sees it with it.
    const run = await collect('pre-commit', ['run', '--all-files', '--verbose', '--hook-stage', stage, '--config', config, '--color', 'never'], {
      cwd: dir,
      env: home,
    });
    lines.push(...hookOutput(run.text));
    if (status === 0) status = run.status;
  }
  return verdict(lines, status);
}

// pre-commit's report: a hook's line, `- hook id:`, `- duration:`, `- exit
// code:`, a blank line, then its output; `[INFO]` lines as it sets a hook
// repository up. Only the output is the project's.
function hookOutput(text) {
  return text
    .split('\n')
    .filter(
      (line) =>
        line !== '' &&
        !/^(?:\S.*\.{3,}(?:Passed|Failed|Skipped)|\(no files to check\)Skipped)$/.test(line) &&
        !/^- (?:hook id|duration|exit code|files were modified by this hook): /.test(line) &&
        !line.startsWith('[INFO] '),
    );
}

// A config that names gsd-check's repository, run against this checkout as
// it is now (pre-commit try-repo's way: a clone with the working tree's
// changes committed on top): `repo` and `rev` become that clone and its
// commit, everything else is the page's.
export async function runPreCommitRemote(dir, { env, config, root }) {
  const repo = join(dir, '.gsd-check-repo');
  const git = (args, cwd) => {
    const done = spawnSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (done.status !== 0) throw new Error(`git ${args.join(' ')}: ${done.stderr}`);
    return done.stdout;
  };
  if (existsSync(join(root, '.git'))) {
    git(['clone', '-q', '--no-hardlinks', root, repo], dir);
    const diff = git(['diff', 'HEAD', '--binary'], root);
    if (diff !== '') spawnSync('git', ['apply', '--whitespace=nowarn'], { cwd: repo, input: diff, env });
    for (const file of git(['ls-files', '--others', '--exclude-standard'], root)
      .split('\n')
      .filter((f) => f !== '')) {
      mkdirSync(dirname(join(repo, file)), { recursive: true });
      copyFileSync(join(root, file), join(repo, file));
    }
  } else {
    // A tree that is not a checkout (the mutation harness's copy, a source
    // archive): a repository of what the hooks run, the hooks file and the bundle.
    git(['init', '-q', repo], dir);
    for (const file of ['.pre-commit-hooks.yaml', 'dist/gsd-check']) {
      mkdirSync(dirname(join(repo, file)), { recursive: true });
      copyFileSync(join(root, file), join(repo, file));
    }
    chmodSync(join(repo, 'dist/gsd-check'), 0o755);
  }
  git(['add', '-A'], repo);
  git(['-c', 'user.email=ci@example.invalid', '-c', 'user.name=ci', 'commit', '-qm', 'the working tree', '--allow-empty', '--no-verify'], repo);
  const rev = git(['rev-parse', 'HEAD'], repo).trim();
  const text = readFileSync(join(dir, config), 'utf8');
  const local = text.replace(/^(\s*- repo: ).*$/m, `$1${repo}`).replace(/^(\s*rev: ).*$/m, `$1${rev}`);
  if (local === text) throw new Error(`${config} names no repo and rev`);
  writeFileSync(join(dir, config), local);
  return runPreCommit(dir, { env, config });
}

// `lefthook run <hook>`, its own lines left out (LEFTHOOK_OUTPUT=execution_out).
export async function runLefthook(dir, { env, hook }) {
  const bin = join(dirname(require.resolve('lefthook-linux-x64/package.json')), 'bin', 'lefthook');
  if (!existsSync(bin)) throw new Error(`lefthook's binary is not at ${bin}`);
  const run = await collect(bin, ['run', hook, '--no-tty'], { cwd: dir, env: { ...env, LEFTHOOK_OUTPUT: 'execution_out', NO_COLOR: '1' } });
  const lines = run.text.split('\n').filter((line) => line !== '' && !line.startsWith('sync hooks: ') && !/^exit status \d+$/.test(line));
  return verdict(lines, run.status);
}

const verdict = (lines, status) => `${[...lines, status === 0 ? 'job: success' : 'job: failure'].join('\n')}\n`;

// A process bounded in time (a hung one fails the test, named), with what it
// printed as one log.
export function collect(command, args, { cwd, env, timeoutMs = 120_000 }) {
  // Both streams into one file, as one log: the order they were written in
  // is kept, and the command gets its environment as given (a shell between
  // would drop the runner's INPUT_PHASE-NUMBER, whose name has a hyphen).
  const dir = mkdtempSync(join(tmpdir(), 'gsd-check-log-'));
  const file = join(dir, 'log');
  const fd = openSync(file, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
    closeSync(fd);
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), timeoutMs);
    const done = (settle) => {
      clearTimeout(timer);
      const text = readFileSync(file, 'utf8');
      rmSync(dir, { recursive: true, force: true });
      settle(text);
    };
    child.once('error', (error) => done(() => reject(error)));
    child.once('close', (status, signal) => done((text) => resolve({ status: status ?? `signal ${signal}`, text })));
  });
}
