// One CI run a page shows (ci-files.mjs), made as a reader would make it:
// the page's project (its doc-test setup blocks), the page's CI files
// written into it, gsd-check brought in by the page's own copy steps (its
// ci-copy blocks, the checkout under test in the place of the page's
// placeholder), the run's own script, then the file run by its tool.
// Answers the log to compare with the page's. Plain JavaScript: compat/
// runs the workflows that install GSD through it too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ciBlocks } from './ci-files.mjs';
import { commitAll, runGitlab, runLefthook, runPreCommit, runPreCommitRemote } from './ci-tools.mjs';
import { machinePath, normalise, parseDoc, SHOWN_ROOT } from './doc-examples.mjs';
import { eventOf, runWorkflow } from './github-runner.mjs';

export async function runCiFile(page, run, { root, bin, substitute }) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-check-ci-')));
  try {
    const workspace = join(dir, 'demo');
    const home = join(dir, '.home');
    mkdirSync(workspace);
    mkdirSync(home);
    const env = { PATH: [bin, ...machinePath()].join(':'), HOME: home, XDG_CACHE_HOME: join(home, '.cache'), LANG: 'C.UTF-8' };
    const sh = (script, what, extra = {}) => {
      const done = spawnSync('sh', ['-c', script], { cwd: workspace, env: { ...env, ...extra }, encoding: 'utf8', timeout: 60_000 });
      if (done.status !== 0) throw new Error(`${what} failed (${done.status ?? done.signal}): ${done.stdout}${done.stderr}`);
    };
    for (const step of parseDoc(page.text)) if (step.setup !== undefined) sh(step.setup, `the setup at line ${step.line}`);
    // The run's own file last: of two at its path, the one the run is of.
    for (const file of [...page.files.filter((f) => f.path !== run.path), run.file]) {
      mkdirSync(dirname(join(workspace, file.path)), { recursive: true });
      writeFileSync(join(workspace, file.path), file.text);
    }
    // The checkout as a variable, quoted where the placeholder was: a path
    // with a space stays one word.
    for (const copy of ciBlocks(page.text).copies) {
      sh(copy.script.replaceAll(copy.placeholder, '"$GSD_CHECK_CHECKOUT"'), `the ci-copy block at line ${copy.line}`, { GSD_CHECK_CHECKOUT: root });
    }
    if (run.script !== '') sh(run.script, `the ci-run script at line ${run.line}`);
    const { file } = run;
    let log;
    // A file that needs GSD (`-gsd`) runs by the same tool, where GSD is at hand.
    const tool = file.kind.replace(/-gsd$/, '');
    if (tool === 'github') log = await runWorkflow(file.text, { workspace, env, event: eventOf(run.event), substitute });
    else if (tool === 'gitlab') {
      commitAll(workspace, env);
      log = await runGitlab(workspace, { env, job: Object.keys(yamlJobs(file.text))[0], file: file.path, variables: run.event });
    } else {
      if (run.event.length > 0) throw new Error(`line ${run.line}: a ${file.kind} file is run by no event (${run.event.join(' ')})`);
      commitAll(workspace, env);
      if (tool === 'pre-commit') log = await runPreCommit(workspace, { env, config: file.path });
      else if (tool === 'pre-commit-remote') log = await runPreCommitRemote(workspace, { env, config: file.path, root });
      else if (tool === 'lefthook') log = await runLefthook(workspace, { env, hook: 'pre-push' });
      else throw new Error(`line ${file.line}: no run for a ${file.kind} file`);
    }
    return normalise(log, [
      [workspace, SHOWN_ROOT],
      [home, '~'],
      [dir, '/tmp'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A .gitlab-ci.yml's jobs: its top-level keys that are not GitLab's own.
function yamlJobs(text) {
  const keys = text.split('\n').flatMap((line) => /^([\w.-]+):/.exec(line)?.[1] ?? []);
  const reserved = new Set(['default', 'include', 'stages', 'variables', 'workflow', 'image', 'services', 'cache', 'before_script', 'after_script']);
  return Object.fromEntries(keys.filter((key) => !reserved.has(key) && !key.startsWith('.')).map((key) => [key, true]));
}
