// The offline rebuild as docs/how-to/install.md shows it to a site, run as
// it is written: the section's one ```sh block (the rebuild, from a release
// folder alone) and its one ```console block (the check of what was rebuilt
// against the folder's SHA256SUMS, with what it prints). release.mjs makes
// its second build by running them, so the steps a site is shown are the
// ones every release proves; the tests run them with a stand-in npm to show
// that the check fails unless every artefact was rebuilt.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REBUILD_PAGE = 'docs/how-to/install.md';
const SECTION = '### Rebuild it offline';

// The section's blocks: the rebuild's shell text, and the check's commands
// ($ and > lines) with the lines they print.
export function rebuildSteps(page) {
  const start = page.indexOf(`\n${SECTION}\n`);
  if (start === -1) throw new Error(`${REBUILD_PAGE} has no "${SECTION}" section`);
  const rest = page.slice(start + SECTION.length + 2);
  const end = rest.search(/^#{1,3} /m);
  const body = end === -1 ? rest : rest.slice(0, end);
  const blocks = [...body.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, lang, text]) => ({ lang, text }));
  const sh = blocks.filter((b) => b.lang === 'sh');
  const consoles = blocks.filter((b) => b.lang === 'console');
  if (sh.length !== 1 || consoles.length !== 1)
    throw new Error(`${REBUILD_PAGE}: "${SECTION}" must hold one sh block and one console block, not ${sh.length} and ${consoles.length}`);
  const commands = [];
  const printed = [];
  for (const line of consoles[0].text.split('\n').slice(0, -1)) {
    if (line.startsWith('$ ')) commands.push(line.slice(2));
    else if (line.startsWith('> ')) commands[commands.length - 1] += `\n${line.slice(2)}`;
    else printed.push(line);
  }
  return { rebuild: sh[0].text, check: { commands, expected: printed.map((line) => `${line}\n`).join('') } };
}

const quoted = (text) => `'${text.replaceAll("'", "'\\''")}'`;

// Runs the steps in `cwd` as a reader would: the rebuild stops at its first
// failure; the check runs whole, as typed, and its last command's status is
// the result. `release` is the folder's path, set where the page sets it.
// Returns { status, tree, cache, output, expected }: the rebuilt tree and
// the npm cache its steps used, and what the check printed beside what the
// page says it prints.
export function runRebuild(page, { release, cwd, env, stdio = 'inherit' }) {
  const { rebuild, check } = rebuildSteps(page);
  if (!/^release=.*$/m.test(rebuild)) throw new Error(`${REBUILD_PAGE}: the rebuild block does not set release=`);
  const notes = mkdtempSync(join(tmpdir(), 'gsd-check-rebuild-'));
  try {
    const [where, output] = [join(notes, 'where'), join(notes, 'output')];
    const script = [
      'set -e',
      rebuild.replace(/^release=.*$/m, `release=${quoted(release)}`),
      `printf '%s\\n%s\\n' "$PWD" "$npm_config_cache" > ${quoted(where)}`,
      'set +e',
      `exec > ${quoted(output)} 2>&1`,
      ...check.commands,
    ].join('\n');
    const done = spawnSync('sh', ['-c', script], { cwd, env, stdio: ['ignore', stdio, stdio], timeout: 1_800_000 });
    const read = (file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    };
    const [tree, cache] = (read(where) ?? '\n').split('\n');
    return { status: done.status ?? done.signal, tree: tree || undefined, cache: cache || undefined, output: read(output) ?? '', expected: check.expected };
  } finally {
    rmSync(notes, { recursive: true, force: true });
  }
}
