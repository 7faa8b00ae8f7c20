// The CI files the docs offer (workflows, .gitlab-ci.yml, hook configs) and
// the runs of them they show, read from a page. Plain JavaScript, as
// doc-examples.mjs is, so that compat/ runs the ones that need GSD.
//
// The format, for whoever writes a doc:
// - `<!-- ci-file: <kind> <path> -->` before a ```yaml block: the block is
//   the whole file at <path> of the reader's project. Kinds: github (a
//   GitHub Actions workflow that needs no GSD), github-gsd (one that
//   installs GSD: run in compat's suite), gitlab, pre-commit, lefthook,
//   pre-commit-remote (a config that names gsd-check's repository: parsed,
//   and run with the repository given as this checkout). Every ```yaml
//   block of the docs is one (test/docs/lint.test.ts).
// - `<!-- ci-run <path> [<event> [<key>=<value>]…]` then, on lines of its
//   own, a shell script, then `-->`, before a ```text block: the page's
//   project (its doc-test setup blocks, and every ci-file of the page), the
//   script run in it, then the file at <path> run by its tool; the block is
//   what that run printed, its last line `job: success` or `job: failure…`.
//   A GitHub workflow runs for the event named (github-runner.mjs eventOf:
//   `pull_request title="Phase 04: ship" head_ref=gsd/phase-04-ship
//   action=edited labels=a,b`, `push ref=main`; by default a pull request
//   from the branch `topic`), a GitLab job with the pipeline's variables
//   (`CI_MERGE_REQUEST_TITLE="Phase 04: ship"`); other files take none. A
//   value in double quotes may hold spaces.
//   A page may offer two files at one path (a config with and without GSD,
//   each as the reader keeps it): a run is of the last one before it, and
//   its project holds that one.
// - `<!-- ci-copy: <placeholder> -->` before a ```sh block: the commands
//   that bring gsd-check into the reader's project (the Action's files),
//   <placeholder> standing for gsd-check's checkout. Every run of the page
//   runs them first, in the project, with the checkout under test there, so
//   that what the page tells a reader to copy is what the runs use.

// A page's CI files, runs and copy steps, in order.
export function ciBlocks(text) {
  const lines = text.split('\n');
  const files = [];
  const runs = [];
  const copies = [];
  for (let i = 0; i < lines.length; i++) {
    const copy = /^<!-- ci-copy: (\S+) -->\s*$/.exec(lines[i]);
    if (copy) {
      const block = fencedAfter(lines, i, 'sh');
      if (!block.text.includes(copy[1])) throw new Error(`line ${i + 1}: a ci-copy block that never names ${copy[1]}`);
      copies.push({ placeholder: copy[1], script: block.text, line: i + 1 });
      i = block.end;
      continue;
    }
    const file = /^<!-- ci-file: ([\w-]+) (\S+) -->\s*$/.exec(lines[i]);
    if (file) {
      const block = fencedAfter(lines, i, 'yaml');
      files.push({ kind: file[1], path: file[2], text: block.text, line: i + 1 });
      i = block.end;
      continue;
    }
    const run = /^<!-- ci-run (\S+)((?: (?!-->)(?:[^\s"]|"[^"]*")+)*)(?: -->)?\s*$/.exec(lines[i]);
    if (run) {
      const event = (run[2].match(/(?:[^\s"]|"[^"]*")+/g) ?? []).map((word) => word.replaceAll('"', ''));
      const file = files.findLast((f) => f.path === run[1]);
      const script = [];
      if (!lines[i].includes('-->')) {
        for (i++; i < lines.length && lines[i].trim() !== '-->'; i++) script.push(lines[i]);
      }
      const at = i;
      const block = fencedAfter(lines, i, 'text');
      runs.push({ path: run[1], file, event, script: script.join('\n'), expected: block.text, line: at + 1 });
      i = block.end;
    }
  }
  for (const run of runs) {
    if (run.file === undefined) throw new Error(`line ${run.line}: ci-run of ${run.path}, which no ci-file before it on the page is`);
  }
  return { files, runs, copies };
}

// The fenced block of `lang` that follows line `from`, with only blank lines between.
function fencedAfter(lines, from, lang) {
  let i = from + 1;
  while (i < lines.length && lines[i].trim() === '') i++;
  if (lines[i] !== `\`\`\`${lang}`) throw new Error(`line ${from + 1}: a \`\`\`${lang} block must follow`);
  const body = [];
  for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
  if (i === lines.length) throw new Error(`line ${from + 1}: its block is never closed`);
  return { text: `${body.join('\n')}\n`, end: i };
}
